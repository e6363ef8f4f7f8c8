package identityreport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/identity"
	"github.com/k3sconf/k3sconf/resolve"
)

// TestPasswordNeverPrinted: the node password's content is in neither the text nor the
// JSON form, even unredacted; the file is reported as existing.
func TestPasswordNeverPrinted(t *testing.T) {
	fs := afero.NewMemMapFs()
	for p, c := range map[string]string{
		"/etc/systemd/system/k3s-agent.service": "[Service]\nExecStart=/usr/local/bin/k3s agent --node-name a\n",
		"/etc/rancher/node/password":            "s3cr3t-password\n",
	} {
		if err := afero.WriteFile(fs, p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, _ := resolve.Resolve(resolve.Options{FS: fs})
	var b bytes.Buffer
	id := identity.Derive(fs, res, "/bundle")
	Write(&b, id)
	js, _ := json.Marshal(JSON(id))
	for _, out := range []string{b.String(), string(js)} {
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("the password leaked:\n%s", out)
		}
	}
	if !strings.Contains(b.String(), "/etc/rancher/node/password exists (content not shown)") {
		t.Errorf("want the password file reported as existing, got:\n%s", b.String())
	}
}
