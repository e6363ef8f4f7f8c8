// Package findings gathers every finding k3sconf has about one node into one list, so that
// `k3sconf check` says everything another command would: the resolver's diagnostics
// (resolve.Result.Diagnostics), the packaged components and AddOns of a server
// ([components.Inspect]), the node identity's ([identity.Derive]) and, where the running process was inspected, what status found
// ([live.Status]) — except the notes that only say there was nothing to inspect.
//
// The other commands keep producing their own lists; this package only merges them, so
// each finding is written once, where its knowledge lives.
package findings
