// Package profile holds what k3sconf knows about a product (k3s today): its flag catalogs per
// command, the config file and environment variable names, the systemd units the installer
// writes, and which CLI-library era a version uses.
//
// Product knowledge lives here as data so that package resolve has no product branches. A
// [Profile] is built on demand by [K3s]; nothing is parsed before a command needs it.
package profile
