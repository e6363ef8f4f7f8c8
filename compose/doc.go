// Package compose checks k3s nodes defined in a docker compose file: it resolves each node's
// configuration the way k3s would inside its container, and says whether the node keeps its
// identity across `docker compose down` and `up`.
//
// [Load] parses a compose file with gopkg.in/yaml.v3, keeping positions: the list and map
// forms of `environment` and `volumes`, `env_file`, and `${VAR}`, `${VAR:-default}`,
// `${VAR-default}`, `${VAR:?err}`, `${VAR:+alt}` and `$$` interpolation from the shell
// environment and the `.env` file next to the compose file (the shell wins, as in compose).
//
// [Check] picks the services that run k3s (a `rancher/k3s` image, or a command that starts
// with `server` or `agent`), resolves each with [resolve.Resolve] — the command as argv
// (the image's default command is `agent`), `env_file` and `environment` as the process
// environment, and any bind-mounted config file that is reachable on disk, placed at its
// path in the container — and checks what a new container loses:
//
//   - the node name: without `hostname:`, `--node-name` or K3S_NODE_NAME the container ID
//     is the host name, and it changes whenever the container is re-created, so the node
//     registers as a new node;
//   - /etc/rancher/node (the node password and the --with-node-id id): outside a volume it
//     dies with the container, and the server rejects the same name with a new password;
//   - for servers, the data directory (/var/lib/rancher/k3s): the image declares it as an
//     anonymous volume, which a new container does not get back after `down`.
//
// A named volume survives `down` but not `down -v`; a bind mount survives both.
// [FixYAML] is the compose fragment that makes every node keep its identity. The
// command's text and JSON document are internal (internal/composereport).
package compose
