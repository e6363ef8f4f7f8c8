// Package yamlalias bounds how much work YAML aliases may cause, by the rule yaml.v2
// applies while decoding (gopkg.in/yaml.v2 v2.4.0, decode.go: decoder.unmarshal counts
// every decode operation and those made while expanding an alias, and allowedAliasRatio
// caps the share of the latter).
//
// A "billion laughs" document of a kilobyte (ten anchors, each a list of ten aliases to the
// one before) expands to 10^10 values. yaml.v2 refuses it with "document contains excessive
// aliasing"; a reader that walks yaml.v3 nodes and follows every alias would run out of
// memory first. Every k3sconf reader that expands aliases counts with one [Budget]: the k3s
// side (sources, where the refusal is k3s's own, since k3s decodes with yaml.v2) and the
// Ansible side (ansible, where it is k3sconf's limit: PyYAML shares an aliased value instead
// of copying it, so ansible-playbook loads such a file).
package yamlalias
