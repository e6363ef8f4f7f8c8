package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/k3sconf/k3sconf/output"
	"github.com/k3sconf/k3sconf/profile"
)

// version is the release version, set by the release build (.goreleaser.yaml:
// -X main.version={{.Version}}); empty otherwise, and the build info's module version is used.
var version string

// revision is the commit, set by the release build (-X main.revision={{.FullCommit}}) for
// when the build info has none (go build stamps nothing in a linked git worktree,
// golang/go#58218).
var revision string

// versionDoc is the `k3sconf version --json` document (docs/schema/version.schema.json). It
// is about k3sconf itself, not a node, so product is "k3sconf" and command "version".
type versionDoc struct {
	output.Envelope
	Version        string `json:"version"`
	Revision       string `json:"revision,omitempty"`
	RevisionTime   string `json:"revisionTime,omitempty"`
	Modified       bool   `json:"modified"`
	Go             string `json:"go"`
	Platform       string `json:"platform"`
	NewestK3s      string `json:"newestK3s"`
	NewestRKE2     string `json:"newestRKE2"`
	OldestModelled string `json:"oldestModelled"`
}

// buildVersion reads what the Go toolchain recorded: the module version ("(devel)" for a
// build from a clone, v1.2.3 for go install …@v1.2.3) and, for builds in a VCS checkout
// with -buildvcs (the default), vcs.revision, vcs.time and vcs.modified.
func buildVersion(bi *debug.BuildInfo, ok bool, ldVersion, ldRevision string) versionDoc {
	d := versionDoc{Envelope: output.NewEnvelope("k3sconf", "version", "version"),
		Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		NewestK3s: profile.NewestK3s, NewestRKE2: profile.NewestRKE2, OldestModelled: profile.OldestModelled}
	if ok && bi != nil {
		if bi.Main.Version != "" {
			d.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			d.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				d.Revision = s.Value
			case "vcs.time":
				d.RevisionTime = s.Value
			case "vcs.modified":
				d.Modified = s.Value == "true"
			}
		}
	}
	if ldVersion != "" {
		d.Version = ldVersion
	}
	if d.Revision == "" {
		d.Revision = ldRevision
	}
	return d
}

func runVersion(args []string, g globals, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "k3sconf version: takes no arguments (got %q)\n", args)
		return exitUsage
	}
	bi, ok := debug.ReadBuildInfo()
	d := buildVersion(bi, ok, version, revision)
	if g.json {
		return writeJSON(stdout, stderr, d, exitOK)
	}
	writeVersion(stdout, d)
	return exitOK
}

func writeVersion(w io.Writer, d versionDoc) {
	fmt.Fprintf(w, "k3sconf %s\n", d.Version)
	switch {
	case d.Revision == "":
		fmt.Fprintf(w, "  revision: unknown (built without VCS information)\n")
	case d.Modified:
		fmt.Fprintf(w, "  revision: %s+dirty\n", d.Revision)
	default:
		fmt.Fprintf(w, "  revision: %s\n", d.Revision)
	}
	if d.RevisionTime != "" {
		fmt.Fprintf(w, "  committed: %s\n", d.RevisionTime)
	}
	fmt.Fprintf(w, "  built with: %s %s\n", d.Go, d.Platform)
	fmt.Fprintf(w, "  models: k3s %s to %s, RKE2 to %s\n", d.OldestModelled, d.NewestK3s, d.NewestRKE2)
}
