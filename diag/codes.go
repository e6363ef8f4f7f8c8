package diag

//go:generate go test -run TestDiagnosticsPage -update

// CodeDoc documents one diagnostic code: the row of docs/diagnostics.md, which is generated
// from [Codes] (go generate ./diag, or go test ./diag -run TestDiagnosticsPage -update).
type CodeDoc struct {
	// Code is the stable name, as in Diagnostic.Code.
	Code string
	// Severity is the severity it is emitted with, in words: "error", or
	// "warning; error when …" when it depends on the case.
	Severity string
	// Meaning says what the finding means for k3s (markdown, one paragraph).
	Meaning string
	// Example is a minimal input that triggers it (markdown).
	Example string
}

// Codes is every diagnostic code any k3sconf package emits, one line each, sorted by code.
// Adding a code is adding one line here (then go generate ./diag): tests in this package
// fail when a package emits a code that has no line, when a line names a code nothing
// emits, and when docs/diagnostics.md is not what this table generates.
var Codes = []CodeDoc{
	{"agent-server-required", "error", "k3s's agent command stops with \"--server is required\": the agent has no server URL (often `url:` written for `server:`).", "`url: https://10.0.0.10:9345` in an RKE2 agent's config.yaml"},
	{"agent-token-required", "error", "k3s's agent command stops with \"--token is required\": no token, token-file or (since v1.26.2, v1.25.7, v1.24.11) existing client-kubelet certificate. Often `--token ${TOKEN}` with TOKEN defined nowhere: systemd substitutes an empty string.", "`ExecStart=/usr/local/bin/k3s agent --server https://10.0.0.10:6443 --token ${TOKEN}`"},
	{"cli-bool-separate-value", "error", "A bool flag is followed by a separate `true`/`false` word. The flag takes no value, so the word is a positional argument and every flag after it is ignored.", "`ExecStart=/usr/local/bin/k3s server --cluster-init true --disable traefik`"},
	{"cli-flag-with-space", "error", "One argument holds a flag and its value. k3s looks for a flag with that whole name and refuses to start. When the word is a braced `${VAR}` holding several flags, the fix is `$VAR` (systemd splits an unbraced variable at white space) or separate words.", "`ExecStart=/usr/local/bin/k3s server '--disable traefik'`; `ExecStart=/usr/bin/k3s agent ${COMMAND}`"},
	{"cli-help-only", "warning", "k3s prints its help or version and exits 0 without starting: the command line has no command, or has `--help` or `--version`.", "`ExecStart=/usr/local/bin/k3s --version`"},
	{"cli-no-subcommand", "warning", "`k3s etcd-snapshot` without `save`, `ls`, `delete` or `prune` prints its help and exits 0, so no snapshot is taken.", "`ExecStart=/usr/local/bin/k3s etcd-snapshot --etcd-s3`"},
	{"cli-positional", "warning", "A word that is not a flag stops flag parsing, and it and everything after it are ignored. (urfave/cli v1 first moves the command's flags in front of it.)", "`ExecStart=/usr/local/bin/k3s server --disable traefik servicelb --cluster-init`"},
	{"cli-repeated-command", "error", "`server` or `agent` appears twice on the command line (install.sh adds the command when INSTALL_K3S_EXEC starts with a flag), so flags after the second one are ignored.", "`ExecStart=/usr/local/bin/k3s server --flannel-backend=none server --disable-network-policy`"},
	{"cli-two-forms", "error", "The same flag is given under its long and its short name, and k3s refuses: \"Cannot use two forms of the same flag\". Config keys count as flags.", "`token: x` in config.yaml and `ExecStart=/usr/local/bin/k3s server -t x`"},
	{"component-addon-disabled", "warning", "A `disable` item matches a user manifest (by its name without extension, or a subfolder), so k3s deletes the file when it starts and removes everything that AddOn deployed.", "`disable: monitoring` with `manifests/monitoring.yaml`"},
	{"component-addon-invalid-name", "error", "The AddOn name k3s derives from a manifest file (the name up to its first dot) is not a valid Kubernetes name, so the AddOn cannot be created and the file is never applied.", "`manifests/my_app.yaml`"},
	{"component-addon-name-conflict", "warning", "Two applied manifest files have the same name up to their first dot, so k3s applies both as one AddOn and each apply removes the objects of the other.", "`manifests/app.yaml` and `manifests/app.v2.yaml`"},
	{"component-disable-unknown", "warning", "A `disable` item the user wrote matches no packaged component (k3s's names, or RKE2's chart names on RKE2) and no file or folder in the manifests folder, so it disables nothing. k3s matches items exactly. Known wrong names get their replacement (`local-path` → `local-storage`, `traefik` → `rke2-traefik` on RKE2); the charts RKE2 disables itself are never reported.", "`--disable=Traefik`; `disable: [local-path]`"},
	{"component-file-ignored", "info", "A file in the manifests folder is never applied: its name does not end in `.yaml`, `.yml` or `.json`, or starts with a dot.", "`manifests/app.yaml.bak`"},
	{"component-helm-controller-disabled", "warning", "`disable-helm-controller` is set while HelmCharts are applied (traefik's included), so nothing installs them.", "`--disable-helm-controller` without `--disable=traefik`"},
	{"component-helmchartconfig-disabled", "warning", "A HelmChartConfig customizes a component or HelmChart that is disabled, so it has no effect.", "`traefik-config.yaml` (HelmChartConfig `traefik` in kube-system) with `disable: traefik`"},
	{"component-helmchartconfig-unmatched", "warning", "A HelmChartConfig matches no HelmChart of the same name and namespace in the manifests folder or among k3s's packaged charts.", "HelmChartConfig `traefik` in namespace `default`"},
	{"component-manifest-invalid", "warning", "A manifest that k3s would apply is not valid YAML, so k3s cannot apply it (\"Parse manifest failed\" on the AddOn).", "a manifest indented with a tab"},
	{"component-manifests-unreadable", "error; warning when only k3sconf cannot read", "A symbolic link in the manifests folder cannot be followed, so k3s's walk of the folder fails and it applies nothing from it; or k3sconf (not root) cannot list a folder.", "`manifests/app.yaml -> /gone.yaml`"},
	{"component-not-server", "info", "`components` was asked about an agent or etcd-snapshot: only servers deploy packaged components and AddOns.", "`k3sconf --command agent components`"},
	{"component-skip-file", "info", "A `.skip` file makes k3s ignore every manifest of that file name: what it deployed stays and is not upgraded, and a packaged manifest is still rewritten.", "`manifests/traefik.yaml.skip`"},
	{"component-skip-unmatched", "warning", "A `.skip` file names no manifest file (the name must include the extension), so it skips nothing.", "`manifests/traefik.skip`"},
	{"component-stale-manifest", "warning", "A packaged manifest is on disk while its component is disabled: k3s has not run with the disable yet, or the file was put there. At its next start k3s deletes it and uninstalls the component cluster-wide; servers that do not disable it put it back.", "`manifests/traefik.yaml` with `--disable=traefik`"},
	{"compose-command-unknown", "info", "A k3s service has an entrypoint that is not k3s (a shell), so k3sconf cannot tell k3s's arguments.", "`entrypoint: [/bin/sh, -c]`"},
	{"compose-down-v", "info", "The node keeps its identity in named volumes, which `docker compose down -v` deletes.", "`- server-node:/etc/rancher/node`"},
	{"compose-env-file-missing", "error", "A required `env_file` cannot be read, so compose refuses to start the service.", "`env_file: k3s.env` when the file does not exist"},
	{"compose-env-file-syntax", "warning", "A line of an `env_file` or `.env` is not `NAME=value`.", "`NOT A LINE`"},
	{"compose-k3s-refuses", "error", "The resolved command line or environment makes k3s refuse to start in that container.", "`command: server --no-deploy traefik`"},
	{"compose-name-not-pinned", "error", "No `hostname:`, `--node-name` or `K3S_NODE_NAME`: the node name is the container ID, so every re-created container registers as a new node.", "the stock k3s `docker-compose.yml`"},
	{"compose-no-k3s", "info", "No service of the compose file runs k3s.", "a file with only `image: nginx`"},
	{"compose-node-password-lost", "error", "`/etc/rancher/node` is not on a named volume or bind mount, so a new container generates a new node password and the server rejects the node.", "the stock k3s `docker-compose.yml`"},
	{"compose-server-state-lost", "error", "A server's data directory is not on a named volume or bind mount (the image's anonymous volume is not reused after `down`), so `up` starts a new cluster.", "`data-dir: /data/k3s` with no volume at `/data/k3s`"},
	{"compose-variable-unset", "info", "A `${VAR}` in the compose file is not set in the shell or `.env`; with `:?` compose refuses to start.", "`K3S_TOKEN=${K3S_TOKEN:?err}` with K3S_TOKEN unset"},
	{"config-all-ignored", "error", "A file in the drop-in folder is listed but cannot be opened (a dangling symlink); k3s then treats the whole config as missing and reads no file at all.", "`config.yaml.d/50-x.yaml -> /gone.yaml`"},
	{"config-append-single-value", "warning", "`key+:` is used on a flag that takes one value. Every item is passed as that flag and the last one wins, so the `+` adds nothing.", "`flannel-backend+: wireguard-native`"},
	{"config-comma-not-split", "warning", "A `node-label` or `airgap-extra-registry` item contains a comma. k3s keeps it as one item; for labels its label sync then splits at the first `=` only, giving an invalid label value. (`node-taint` items are joined with commas for the kubelet, so commas work there.)", "`node-label: \"env=prod,tier=frontend\"`"},
	{"config-component-arg-camelcase", "warning", "An item of a `*-arg` key names a camelCase config-file field instead of a kebab-case command-line flag, so the component rejects or ignores it.", "`kubelet-arg: protectKernelDefaults=true`"},
	{"config-dropin-ignored", "info", "k3s skips an entry in `config.yaml.d/` because it is a directory or its name does not end in `.yaml` or `.yml`.", "`config.yaml.d/30-old.yaml.bak`"},
	{"config-dropin-order", "warning", "Drop-in names have numeric prefixes of different widths. k3s sorts names as text, so `10-a.yaml` is read before `9-b.yaml`.", "`config.yaml.d/9-local.yaml` next to `config.yaml.d/50-rancher.yaml`"},
	{"config-list-replaced", "warning", "A later config file sets a list key without `+`, so it replaces the list from an earlier file instead of adding to it.", "`disable: [traefik]` in config.yaml, then `disable: local-storage` in config.yaml.d/10-x.yaml"},
	{"config-missing", "warning; error before v1.31.0, v1.30.3, v1.29.7", "The config file named by `--config` or `K3S_CONFIG_FILE` does not exist and has no drop-ins. Current k3s runs without a config; older releases refuse to start.", "`ExecStart=/usr/local/bin/k3s server --config /etc/k3s/config.yaml` when that file does not exist"},
	{"config-moved", "info", "`K3S_CONFIG_FILE` in the unit's environment moves the config file and its `.d` folder. /etc/rancher/k3s/config.yaml is not read, and the variable beats `--config`.", "`K3S_CONFIG_FILE=/home/me/config.yaml` in k3s.service.env"},
	{"config-not-read", "info", "No argument is exactly `server`, `agent` or `etcd-snapshot`, so k3s reads no config file.", "`ExecStart=/bin/sh -c 'exec /usr/local/bin/k3s server'`"},
	{"config-server-on-server", "warning; info when the config also sets server-only keys (an HA join)", "config.yaml sets `server:` but the unit runs `k3s server`, so the node joins that cluster as another server. A warning when the config looks like an agent's (no server-only key): the installer decides server or agent and does not read config.yaml. A note when server-only keys are set too, as in an HA join.", "`server: https://10.0.0.1:6443` and `token:` only, with k3s.service"},
	{"config-unknown-key", "warning", "`k3s server` or `k3s etcd-snapshot` (and RKE2's agent) does not know a config key and skips it (\"Unknown flag --x found in config.yaml, skipping\"). The position is the key's. Known wrong names get their replacement (`url` → `server`, `no-deploy` → `disable`, `node-labels` → `node-label`, …); `url:` on a server is an error, because the node then starts a cluster of its own instead of joining.", "`kublet-arg: max-pods=150`; `url: https://10.0.0.1:6443`"},
	{"config-unknown-key-agent", "error", "`k3s agent` does not skip unknown config keys, so a server-only key or a typo makes it refuse to start (\"flag provided but not defined\").", "`disable: [traefik]` in the config of a node running k3s-agent.service"},
	{"config-url-ignored", "warning", "The config location is a URL. k3s reads only local files, so it reads no config.", "`ExecStart=/usr/local/bin/k3s server --config https://example.com/config.yaml`"},
	{"env-not-read-by-release", "warning", "A variable is set that the modelled release does not read: `K3S_DATA_DIR` before v1.29.7/v1.30.3/v1.31.0, when `--data-dir` had no environment variable.", "`K3S_DATA_DIR=/k8s` with `--k3s-version v1.29.6+k3s2`"},
	{"envfile-duplicate", "warning", "A variable is assigned more than once in one env file. The last line wins and this one has no effect.", "`K3S_TOKEN=a`, later `K3S_TOKEN=b` in k3s.service.env"},
	{"envfile-export", "warning", "An env file line starts with the shell word `export`. systemd reads `export NAME` as an invalid name and drops the line.", "`export HTTP_PROXY=http://proxy:3128`"},
	{"envfile-syntax", "warning", "systemd cannot use an env file line: it has no `=`, the name is invalid, or a quote is never closed (the rest of the file then becomes the value).", "`NO_PROXY=\"10.0.0.0/8`"},
	{"envfile-utf8", "error", "An env file contains bytes that are not UTF-8. systemd fails to load the whole file and does not start the service.", "`K3S_NODE_NAME=büro` saved as Latin-1"},
	{"etcd-snapshot-from-shell", "info", "With `--command etcd-snapshot` and no unit that runs it, k3sconf resolves `k3s etcd-snapshot save` as typed in a shell, without the unit's arguments and environment.", "`k3sconf --command etcd-snapshot check` on a node with only k3s.service"},
	{"etcd-snapshot-no-token", "error", "Since v1.30.0 `k3s etcd-snapshot` asks the running server and authenticates with `--etcd-token` or the server's `<data-dir>/server/token`; on a node with the server's data directory but no token file it fails (\"open …/server/token: no such file or directory\").", "`k3s etcd-snapshot save` on a node whose server/token is missing"},
	{"identity-hostname-unknown", "info", "`node-name` is not set and the node's files have no `/etc/hostname`, so the name depends on the host name at k3s's start.", "`--root` on a copy without /etc/hostname"},
	{"identity-name-invalid", "warning", "The node name (after lowercasing and the node id) is not a valid Kubernetes node name, so the kubelet cannot register the node.", "`node-name: build_01`"},
	{"input-invalid", "error", "k3sconf cannot use a config or unit file: the YAML does not parse (k3s refuses to start), or the file cannot be read or is a directory.", "a list item `- traefik` indented with a tab"},
	{"input-unreadable", "error", "A unit, env file or config file exists but k3sconf cannot read it (no permission: the 0600 k3s.service.env without sudo), or an `EnvironmentFile=` is a directory. What it sets is missing from the result; k3s itself, as root, is not affected. Exit code 3.", "k3s.service.env read without sudo"},
	{"k3s-refuses", "error", "The CLI parser stops k3s for a reason that no more specific code covers, such as an unknown flag, a bad number or bool, or an invalid environment value. The message is k3s's own.", "`ExecStart=/usr/local/bin/k3s server --no-deploy traefik`"},
	{"k3s-url-on-server", "warning", "`K3S_URL` is set for a unit that runs `k3s server`, so the node joins that cluster as another server, not as an agent.", "`K3S_URL=https://10.0.0.1:6443` in k3s.service.env"},
	{"live-annotation-missing", "warning", "The node object given with `--node-json` has no `k3s.io/node-args` annotation: k3s writes it from the agent once the node registers, so a server with `--disable-agent` has none.", "`kubectl get node cp-1 -o json` of a `--disable-agent` server"},
	{"live-argv-differs", "info", "The running process's command line differs from the one the unit gives now (arguments compared as `--flag=value`, so `--disable x` and `--disable=x` match).", "running `k3s server --disable traefik`, unit now `--disable servicelb`"},
	{"live-argv-hidden", "info", "k3s replaced its command line and environment with its process title, so the running values cannot be read from `/proc`; pass `--node-json`.", "`/proc/321/cmdline` reads `/usr/local/bin/k3s server`"},
	{"live-command-mismatch", "warning", "The running process is a different command than the one resolved, so its values are not compared.", "`k3s agent` running, `k3s.service` resolved as server"},
	{"live-daemon-reload-needed", "warning", "systemd has not loaded the current unit: D-Bus reports `NeedDaemonReload=yes`, or (without D-Bus) the unit or a unit drop-in changed after k3s started. A restart alone would use the old `ExecStart=` and `Environment=`.", "`/etc/systemd/system/k3s.service` edited after k3s started"},
	{"live-no-proc", "info", "The node root has no readable `/proc`, so the running process cannot be compared with the files.", "`--root ./support-bundle` without `proc/`"},
	{"live-not-running", "warning", "No k3s server or agent process under `/proc`, or systemd reports the unit without a main process.", "`systemctl stop k3s`"},
	{"live-restart-needed", "warning", "A source file (unit, unit drop-in, env file, config.yaml, a config drop-in, or a drop-in folder) was modified after the running k3s started, so k3s has not read it.", "`config.yaml` modified 2024-05-01 10:03, k3s started 08:03"},
	{"live-several-processes", "info", "More than one k3s server or agent process was found; the one compared is named.", "a wrapper and its `k3s-server` child in a bundle"},
	{"live-start-unknown", "info", "The process start time cannot be read (no `/proc/<pid>/stat` or no `btime` in `/proc/stat`), so file times cannot be compared with it.", "a bundle with `proc/321/cmdline` only"},
	{"live-systemd-unavailable", "info", "systemd could not be asked over D-Bus; `status` fell back to `/proc` and file times.", "no permission on the system bus"},
	{"live-value-differs", "warning", "A key's running value (from `/proc` or the node annotation) differs from the value the files give now; both values and the origin of today's are shown.", "running `disable=[traefik]`, files now `[servicelb]`"},
	{"node-ip-invalid", "error", "A node-ip item is not an IP address (k3s splits items on commas without trimming), and k3s stops with \"invalid node-ip: invalid ip format '…'\".", "`node-ip: \"{{ ansible_host }}\"`"},
	{"node-ip-not-dual-stack", "error", "k3s hands every node-ip to the kubelet, which accepts one address or one IPv4 plus one IPv6 (\"must contain either a single IP or a dual-stack pair of IPs\"). Two IPv4 addresses usually come from a config list plus `--node-ip` in the unit, which k3s concatenates.", "`node-ip: [10.0.0.21]` in config.yaml and `--node-ip=10.0.0.22` in ExecStart"},
	{"node-label-not-key-value", "error", "A node label without `=`: the kubelet's --node-labels takes key=value pairs and refuses to start (\"malformed pair, expect string=string\").", "`node-label: [worker]`"},
	{"node-label-restricted", "error", "A `node-label` in a `kubernetes.io` or `k8s.io` namespace that a node may not set on itself (only `node.kubernetes.io/…`, `kubelet.kubernetes.io/…` and a few well-known keys are allowed): the kubelet refuses to start.", "`node-label: [node-role.kubernetes.io/worker=true]`"},
	{"rke2-both-units", "info", "Both `rke2-server.service` and `rke2-agent.service` are installed; each refuses to start while the other is active (ExecCondition), so only one runs.", "both units in `/usr/local/lib/systemd/system`"},
	{"server-flag-conflict", "error", "k3s's server command refuses a combination of flags before it starts (\"invalid flag use; --server is required with --disable-etcd\", --cluster-reset-restore-path without --cluster-reset, --disable-apiserver or --disable-etcd with --datastore-endpoint, --cluster-reset with a server URL).", "`disable-etcd: true` with no `server:`"},
	{"server-flag-invalid", "error", "k3s's server command refuses a value it cannot use: a cluster-cidr or service-cidr that is not a CIDR, a cluster-dns that is not an IP, an unknown egress-selector-mode, a snapshot reconcile interval or S3 timeout that is not positive. The message is k3s's own.", "`cluster-cidr: \"10.42.0.0/16, fd00:42::/56\"` (the space)"},
	{"server-join-token-required", "error", "A server with `server:` and no token, that has not joined yet: k3s's bootstrap stops with \"token is required to join a cluster\".", "`server: https://10.0.0.10:6443` and no `token:` on a new server"},
	{"tls-san-not-a-name", "warning", "A `tls-san` item (after k3s's comma splitting) has a scheme or a port; k3s puts it into the certificate literally, where it matches no client.", "`tls-san: \"10.0.0.1,https://k3s.example.com\"`"},
	{"token-file-missing", "warning", "`token-file` (or `agent-token-file`) names a file the node does not have: k3s waits up to 4 minutes for it to appear and then stops. A warning, since a secrets manager may create it at boot; an empty file means no token (`agent-token-required`).", "`token-file: /etc/rancher/k3s/cluster-token` with no such file"},
	{"unit-backslash-space", "error", "A backslash followed by spaces or tabs does not continue the line. The setting ends there and the next lines become separate, invalid settings.", "`ExecStart=/usr/local/bin/k3s \\ ` (a space after the backslash)"},
	{"unit-bad-setting", "error", "systemd cannot parse `ExecStart=` (for example an unknown `%` specifier or a bad executable path). It marks the unit bad-setting and refuses to start it.", "`ExecStart=/usr/local/bin/k3s server --token=p%40ss`"},
	{"unit-command-ignored", "warning", "The same kind of `ExecStart=` error as `unit-bad-setting`, on a command with the `-` prefix. systemd ignores that setting instead of refusing the unit.", "`ExecStart=-/usr/local/bin/k3s server --token=p%40ss`"},
	{"unit-command-syntax", "error", "systemd cannot split the first word of `ExecStart=` because of unbalanced quotes, so it ignores the setting.", "`ExecStart=\"/usr/local/bin/k3s server`"},
	{"unit-envfile-missing", "error", "A required `EnvironmentFile=` (no `-` before the path) does not exist, so systemd refuses to start the service.", "`EnvironmentFile=/etc/k3s/proxy.env` when that file does not exist"},
	{"unit-environment", "warning", "A word of `Environment=` is not a valid `NAME=VALUE`, so systemd drops that word. The usual cause is an unquoted value with spaces.", "`Environment=NO_PROXY=localhost, 127.0.0.1`"},
	{"unit-environment-file", "warning", "systemd ignores an `EnvironmentFile=` setting because its path is not absolute or has an unknown specifier.", "`EnvironmentFile=k3s.env`"},
	{"unit-escape", "warning", "`ExecStart=` contains a backslash escape that systemd does not know. systemd logs a warning and keeps the backslash.", "`ExecStart=/usr/local/bin/k3s server --kube-apiserver-arg=cors-allowed-origins=.*\\.example\\.com`"},
	{"unit-execstart-not-reset", "error", "The service has more than one `ExecStart=` command, so systemd refuses it unless it is Type=oneshot. Usual causes: a drop-in without an empty `ExecStart=` line first, or commands separated by `;`.", "a drop-in with `ExecStart=/usr/local/bin/k3s server` and no `ExecStart=` line before it"},
	{"unit-no-execstart", "error", "After the unit and its drop-ins are merged, the service has no `ExecStart=`, so systemd refuses to start it.", "a drop-in whose last line is `ExecStart=`"},
	{"unit-not-found", "info", "There is no k3s.service or k3s-agent.service in any unit folder, so k3sconf resolves with no arguments and an empty environment.", "`--root` on a copy of /etc/rancher only"},
	{"unit-specifier", "warning", "The unit uses a `%` specifier whose value k3sconf does not know (host name, machine ID, …). The text is shown as written, not as systemd expands it.", "`ExecStart=/usr/local/bin/k3s server --node-name=%H`"},
	{"unit-syntax", "warning; error when systemd skips the whole file", "systemd ignores a unit line: it has no `=`, it is outside a section, or `Type=` is invalid. A bad section header or a line that is not UTF-8 makes systemd skip the whole file.", "a line `'--cluster-init'` after an ExecStart line that lost its trailing backslash"},
	{"unit-unknown-key", "warning", "A `[Service]` key contains spaces or quotes, so systemd ignores it. This is almost always an ExecStart continuation line whose previous line lost its backslash.", "a line `'--write-kubeconfig-mode=644'` after an ExecStart line that lost its trailing backslash"},
	{"value-unrendered-template", "warning", "A value in force is still a template: `{{ … }}`, `{% … %}`, `${VAR}` in a config file (k3s expands no variables there), `<placeholder>`, `REPLACE…`/`CHANGEME`. k3s takes it literally, or refuses it where it needs an address or URL.", "`node-name: ${rch1}`, `token: \"{{ k3s_token }}\"`"},
	{"yaml-bool-coerced", "warning", "An unquoted `yes`, `no`, `on`, `off`, `y` or `n` for a string flag is a YAML 1.1 boolean, so k3s receives `true` or `false`.", "`node-name: yes`"},
	{"yaml-date", "info", "An unquoted date. k3s keeps the text, but other YAML tools read it as a timestamp.", "`etcd-s3-folder: 2024-06-01`"},
	{"yaml-duplicate-key", "info", "A top-level key appears twice in one file, and the later value replaces the earlier one.", "`tls-san: [a]` and later `tls-san: [b]` in the same file"},
	{"yaml-empty-flow-key", "warning", "The first key of the file is an empty `[]` or `{}`. yaml.v2 reads it as the whole document, so k3s ignores the rest of the file.", "`[]: true` as the first line"},
	{"yaml-extra-document", "warning", "The file has a second YAML document after `---`, and k3s reads only the first.", "`cluster-init: true`, `---`, `node-name: a`"},
	{"yaml-ignored-after-flow", "error", "The document is a flow collection (`{}` or `[...]`) followed by more text: k3s's YAML parser stops after the collection, so every key below it is ignored without an error.", "`{}` on line 1, keys after it"},
	{"yaml-merge-key-dropped", "warning", "The file uses a `<<:` merge key. k3s decodes into a yaml.v2 MapSlice, which drops the merged keys.", "`<<: *defaults`"},
	{"yaml-nested-map", "warning", "A flag is given a YAML mapping, and k3s passes Go's rendering of it (`[{env prod}]`) as the value.", "`node-label: {env: prod}`"},
	{"yaml-null-value", "error", "A bool, int or duration key has no value. k3s passes `--key=` and refuses to start.", "`cluster-init:`"},
	{"yaml-number-coerced", "warning", "An unquoted number for a string flag is read as a YAML 1.1 number and reformatted: `1.30` arrives as `1.3`, `0123` (octal) as `83`, `08154711` as `8.154711e+06`.", "`token: 08154711`"},
	{"yaml-octal-mode", "error; warning when another setting wins", "An unquoted `write-kubeconfig-mode` with a leading zero is a YAML 1.1 octal number. `0644` arrives as `420`, and k3s applies mode 0420.", "`write-kubeconfig-mode: 0644`"},
	{"yaml-quoted-bool", "error", "A bool flag is given a quoted string that Go's strconv.ParseBool rejects, such as `\"yes\"`, so k3s refuses to start.", "`cluster-init: \"yes\"`"},
	{"yaml-typed-key", "warning", "YAML 1.1 reads the key itself as something other than a string (`on:` is `true`), so k3s sees a flag with a different name.", "`on: true`"},
}

// Lookup returns the documentation of code, or false if the code is unknown.
func Lookup(code string) (CodeDoc, bool) {
	for _, c := range Codes {
		if c.Code == code {
			return c, true
		}
	}
	return CodeDoc{}, false
}
