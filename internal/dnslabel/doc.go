// Package dnslabel turns free text (a file name, a compose service name) into an RFC 1123
// label, the shape Kubernetes wants of object and node names, for the fixes k3sconf
// suggests.
package dnslabel
