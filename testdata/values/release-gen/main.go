// relgen makes Helm release Secrets with Helm's own code (helm.sh/helm/v3 v3.20.2: action
// Install/Upgrade, storage/driver Secrets over a client-go fake clientset) and prints them
// as `kubectl get secrets -o json` prints a List.
//
//	relgen -state s.json -chart DIR -name traefik -ns kube-system -hash H install|upgrade|fail-upgrade -f file … --set k=v … --set-string k=v …
//	relgen -state s.json emit > secrets.json
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/cli/values"
	"helm.sh/helm/v3/pkg/getter"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func main() {
	state := flag.String("state", "state.json", "secrets so far")
	chartDir := flag.String("chart", "", "chart directory or archive")
	name := flag.String("name", "traefik", "release name")
	ns := flag.String("ns", "kube-system", "namespace")
	hash := flag.String("hash", "", "helmcharts.helm.cattle.io/configHash label (klipper-helm --labels)")
	fail := flag.String("fail", "", "error the fake kube client returns on update")
	var files, sets, ssets multi
	flag.Var(&files, "f", "values file")
	flag.Var(&sets, "set", "--set")
	flag.Var(&ssets, "set-string", "--set-string")
	flag.Parse()

	var list corev1.SecretList
	if data, err := os.ReadFile(*state); err == nil {
		if err := json.Unmarshal(data, &list); err != nil {
			die(err)
		}
	}
	cs := fake.NewSimpleClientset()
	for i := range list.Items {
		if _, err := cs.CoreV1().Secrets(list.Items[i].Namespace).Create(nil, &list.Items[i], metav1.CreateOptions{}); err != nil {
			die(err)
		}
	}
	d := driver.NewSecrets(cs.CoreV1().Secrets(*ns))
	d.Log = func(string, ...interface{}) {}
	cfg := &action.Configuration{Releases: storage.Init(d), Capabilities: chartutil.DefaultCapabilities,
		Log: func(string, ...interface{}) {}}
	pk := kubefake.PrintingKubeClient{Out: io.Discard}
	cfg.KubeClient = &pk
	if *fail != "" {
		cfg.KubeClient = &kubefake.FailingKubeClient{PrintingKubeClient: pk, UpdateError: errors.New(*fail), CreateError: errors.New(*fail)}
	}
	switch flag.Arg(0) {
	case "emit":
		sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
		out := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": list.Items}
		for i := range list.Items {
			list.Items[i].TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}
		}
		b, _ := json.MarshalIndent(out, "", "    ")
		os.Stdout.Write(append(b, '\n'))
		return
	case "install", "upgrade":
	default:
		die(fmt.Errorf("install, upgrade or emit"))
	}
	ch, err := loader.Load(*chartDir)
	if err != nil {
		die(err)
	}
	opts := values.Options{ValueFiles: files, Values: sets, StringValues: ssets}
	vals, err := opts.MergeValues(getter.Providers{})
	if err != nil {
		die(err)
	}
	labels := map[string]string{}
	if *hash != "" {
		labels["helmcharts.helm.cattle.io/configHash"] = *hash
	}
	if flag.Arg(0) == "install" {
		i := action.NewInstall(cfg)
		i.ReleaseName, i.Namespace, i.Labels = *name, *ns, labels
		_, err = i.Run(ch, vals)
	} else {
		u := action.NewUpgrade(cfg)
		u.Namespace, u.Labels = *ns, labels
		_, err = u.Run(*name, ch, vals)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helm:", err)
	}
	got, err2 := cs.CoreV1().Secrets(*ns).List(nil, metav1.ListOptions{})
	if err2 != nil {
		die(err2)
	}
	b, _ := json.Marshal(got)
	if err := os.WriteFile(*state, b, 0o644); err != nil {
		die(err)
	}
}

func die(err error) { fmt.Fprintln(os.Stderr, err); os.Exit(1) }
