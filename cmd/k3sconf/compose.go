package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/afero"

	"github.com/k3sconf/k3sconf/compose"
	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/composereport"
	"github.com/k3sconf/k3sconf/internal/rootfs"
)

// runCompose checks the k3s nodes of a docker compose file: exit 1 when a node's identity
// does not survive `docker compose down` + `up` or compose or k3s would refuse to start (a
// compose file that does not parse included), 2 when none is named and the current folder
// has none, 3 when the file cannot be read.
func runCompose(args []string, g globals, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintf(stderr, "k3sconf compose: takes at most one file (got %q)\n", args)
		return exitUsage
	}
	host := afero.NewReadOnlyFs(afero.NewOsFs())
	file := ""
	if len(args) == 1 {
		file = args[0]
	} else {
		for _, name := range compose.DefaultFiles {
			if _, err := host.Stat(name); err == nil {
				file = name
				break
			}
		}
		if file == "" {
			fmt.Fprintf(stderr, "k3sconf compose: no compose file in the current folder (looked for %v); name one: k3sconf compose FILE\n", compose.DefaultFiles)
			return exitUsage
		}
	}
	data, err := rootfs.ReadArg(file, false)
	var f *compose.File
	if err == nil {
		f, err = compose.Parse(host, file, data, os.LookupEnv)
	}
	if err != nil {
		var pe *diag.ParseError
		fmt.Fprintf(stderr, "k3sconf compose: %v\n", err)
		if errors.As(err, &pe) {
			return exitProblem // docker compose refuses the file too
		}
		return exitInput
	}
	rep := compose.Check(host, f)
	red := composereport.NewRedactor(rep, g.showSecrets)
	code := exitOK
	if rep.Failed() {
		code = exitProblem
	}
	if g.json {
		return writeJSON(stdout, stderr, composereport.JSON(rep, red), code)
	}
	composereport.Text(stdout, rep, red)
	return code
}
