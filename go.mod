module github.com/k3sconf/k3sconf

go 1.24

require (
	github.com/coreos/go-systemd/v22 v22.7.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	golang.org/x/text v0.28.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
