package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// Shell completion. The scripts are thin: each calls `k3sconf __complete WORD… CURRENT` with
// the words of the command line up to the cursor, and k3sconf prints the candidates, one a
// line — or the single line ":file" or ":dir" to ask the shell for its own file or folder
// completion. So every shell completes the same things, from the command table in help.go,
// and key names come from the node the words point at (--root, --product, --command).

const completeCommand = "__complete"

// runCompletion implements `k3sconf completion bash|zsh|fish`.
func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "k3sconf completion: name one shell: bash, zsh or fish\n")
		return exitUsage
	}
	script, ok := completionScripts[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "k3sconf completion: unknown shell %q (want bash, zsh or fish)\n", args[0])
		return exitUsage
	}
	fmt.Fprint(stdout, script)
	return exitOK
}

var completionScripts = map[string]string{
	// bash splits --flag=value at "=" (COMP_WORDBREAKS); __complete joins the words again.
	"bash": `# bash completion for k3sconf: source <(k3sconf completion bash)
_k3sconf() {
    local cur=${COMP_WORDS[COMP_CWORD]} out
    [[ $cur == "=" ]] && cur=
    out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    local IFS=$'\n'
    case $out in
    :file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    :dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$out" -- "$cur")) ;;
    esac
}
complete -F _k3sconf k3sconf
`,
	"zsh": `#compdef k3sconf
# zsh completion for k3sconf: k3sconf completion zsh > "${fpath[1]}/_k3sconf"
# (or source <(k3sconf completion zsh) after compinit)
_k3sconf() {
  local out
  out=$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  case $out in
    :file) _files ;;
    :dir) _files -/ ;;
    *) local -a cands; cands=("${(@f)out}"); compadd -- "${cands[@]}" ;;
  esac
}
if [ "$funcstack[1]" = "_k3sconf" ]; then
  _k3sconf "$@"
else
  compdef _k3sconf k3sconf
fi
`,
	"fish": `# fish completion for k3sconf: k3sconf completion fish > ~/.config/fish/completions/k3sconf.fish
function __k3sconf_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (command $words[1] __complete $words[2..-1] 2>/dev/null)
    switch "$out[1]"
        case :file
            __fish_complete_path (commandline -ct)
        case :dir
            __fish_complete_directories (commandline -ct)
        case '*'
            printf '%s\n' $out
    end
end
complete -c k3sconf -f -a '(__k3sconf_complete)'
`,
}

// completion is what the words before the cursor say.
type completion struct {
	g    globals
	fs   *flag.FlagSet // the shared flag set, writing into g
	cmd  *command
	args []string // positional arguments after the command
}

// runComplete implements the hidden `k3sconf __complete WORD… CURRENT`. It never fails: a
// completion that cannot be computed prints nothing.
func runComplete(words []string, stdout io.Writer) int {
	for _, c := range complete(words) {
		fmt.Fprintln(stdout, c)
	}
	return exitOK
}

func complete(words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, prev := words[len(words)-1], words[:len(words)-1]
	// bash hands "--root=x" over as "--root" "=" "x", and "--root=" as "--root" "=".
	if cur == "=" {
		prev, cur = append(prev, "="), ""
	}
	c := &completion{}
	c.fs = newFlagSet(&c.g)
	var pending *flagDoc  // a flag whose value is the next word
	var cmdWords []string // the words of a command name so far ("kubespray")
	for _, w := range prev {
		switch {
		case pending != nil:
			if w == "=" {
				continue
			}
			c.set(pending.name, w)
			pending = nil
		case strings.HasPrefix(w, "-") && w != "-" && w != "--":
			name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
			f := c.cmd.flag(name)
			if f == nil || f.arg == "" {
				continue
			}
			if hasVal {
				c.set(name, val)
			} else {
				pending = f
			}
		default:
			if c.cmd == nil {
				cmdWords = append(cmdWords, w)
				name := strings.Join(cmdWords, " ")
				if c.cmd = lookupCommand(name); c.cmd == nil && len(subcommandNames(name)) == 0 {
					return nil // an unknown command: nothing sensible to offer
				}
				continue
			}
			c.args = append(c.args, w)
		}
	}
	if pending != nil {
		return c.values(pending, cur)
	}
	if name, val, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(name, "-") {
		// zsh and fish keep --flag=value in one word: complete the value, keep the prefix.
		f := c.cmd.flag(strings.TrimLeft(name, "-"))
		if f == nil {
			return nil
		}
		var out []string
		for _, v := range c.values(f, val) {
			if !strings.HasPrefix(v, ":") {
				out = append(out, name+"="+v)
			}
		}
		return out
	}
	if strings.HasPrefix(cur, "-") {
		var names []string
		if c.cmd == nil {
			for _, f := range flagDocs {
				if f.global {
					names = append(names, f.name)
				}
			}
			names = append(names, "version")
		} else {
			for _, f := range c.cmd.own {
				names = append(names, f.name)
			}
			names = append(names, c.cmd.flags...)
		}
		out := []string{}
		for _, n := range append(names, "help") {
			out = append(out, "--"+n)
		}
		return filterPrefix(out, cur)
	}
	if c.cmd == nil {
		return filterPrefix(subcommandNames(strings.Join(cmdWords, " ")), cur)
	}
	if c.cmd.complete != nil {
		return filterPrefix(c.cmd.complete(c), cur)
	}
	if c.cmd.files {
		return []string{":file"}
	}
	return nil
}

// set records a global flag typed so far (--root, --product, …), through the same flag set
// run parses, so completion resolves the node run would; a command's own flags are not in it
// and are ignored here.
func (c *completion) set(name, val string) {
	_ = c.fs.Set(name, val)
}

func (c *completion) values(f *flagDoc, cur string) []string {
	switch {
	case f.values != nil:
		return filterPrefix(f.values, cur)
	case f.valueKind == "dir":
		return []string{":dir"}
	case f.valueKind == "file":
		return []string{":file"}
	case f.valueKind == "version":
		p := c.profile()
		if p == nil {
			p = profile.K3s()
		}
		return filterPrefix(append(p.Releases(), "newest"), cur)
	}
	return nil
}

// profile is the product the words name, or the one detected under --root; nil if neither.
func (c *completion) profile() *profile.Profile {
	if c.g.product != "" && c.g.product != "auto" {
		p, err := profile.ByName(c.g.product)
		if err != nil {
			return nil
		}
		return p
	}
	if fi, err := os.Stat(c.g.root); err != nil || !fi.IsDir() {
		return nil
	}
	p, _ := resolve.DetectProduct(k3sconf.Node(c.g.root))
	return p
}

// completeKeys lists the keys of the command resolved from the node the words point at,
// leaving out those already named.
func completeKeys(c *completion) []string {
	if fi, err := os.Stat(c.g.root); err != nil || !fi.IsDir() {
		return nil
	}
	var prof *profile.Profile
	if c.g.product != "" && c.g.product != "auto" {
		if prof = c.profile(); prof == nil {
			return nil
		}
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(c.g.root), Profile: prof, Command: c.g.command,
		Unit: c.g.unit, Config: c.g.config, Version: c.g.version})
	if err != nil {
		return nil
	}
	given := map[string]bool{}
	for _, a := range c.args {
		given[strings.TrimLeft(a, "-")] = true
	}
	var out []string
	for _, k := range res.Keys {
		if !given[k.Name()] {
			out = append(out, k.Name())
		}
	}
	sort.Strings(out)
	return out
}

func filterPrefix(cands []string, prefix string) []string {
	out := []string{}
	for _, s := range cands {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}
