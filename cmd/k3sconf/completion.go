package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/k3sconf/k3sconf"
	"github.com/k3sconf/k3sconf/ansible"
	"github.com/k3sconf/k3sconf/kubespray"
	"github.com/k3sconf/k3sconf/profile"
	"github.com/k3sconf/k3sconf/resolve"
)

// Shell completion is cobra's: the scripts (`k3sconf completion SHELL`) call the hidden
// `k3sconf __complete WORD… CURRENT` with the words of the command line, and cobra answers
// from the command tree: commands, each command's own flags, and what the completion
// functions below offer — the keys of the node the words point at (--root, --product,
// --command, already parsed by the command's flag set), the HelmCharts of its manifests,
// the variables of a kubespray checkout, --k3s-version releases, and the shell's own file
// or folder completion where a flag or argument is a path.

var shells = []string{"bash", "zsh", "fish", "powershell"}

func (a *app) completionCommand() *cobra.Command {
	return &cobra.Command{Use: "completion bash|zsh|fish|powershell", Short: "a shell completion script",
		Long: "Prints a script that completes commands, flags, the keys of the node's product\n" +
			"(k3sconf explain wri<TAB>), HelmChart names (k3sconf values <TAB>), the variables of a\n" +
			"kubespray checkout (k3sconf kubespray where contai<TAB>) and --k3s-version values.\n" +
			"bash works with or without the bash-completion package.",
		Example: "source <(k3sconf completion bash)\nk3sconf completion zsh > \"${fpath[1]}/_k3sconf\"\n" +
			"k3sconf completion fish > ~/.config/fish/completions/k3sconf.fish\n" +
			"k3sconf completion powershell | Out-String | Invoke-Expression",
		ValidArgs: shells,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.code = runCompletion(cmd.Root(), args, a.out, a.errw)
			return nil
		}}
}

// runCompletion implements `k3sconf completion bash|zsh|fish|powershell`.
func runCompletion(root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "k3sconf completion: name one shell: bash, zsh, fish or powershell\n")
		return exitUsage
	}
	var err error
	switch args[0] {
	case "bash":
		if _, err = io.WriteString(stdout, bashPrelude); err == nil {
			err = root.GenBashCompletionV2(stdout, true)
		}
	case "zsh":
		err = root.GenZshCompletion(stdout)
	case "fish":
		err = root.GenFishCompletion(stdout, true)
	case "powershell":
		err = root.GenPowerShellCompletionWithDesc(stdout)
	default:
		fmt.Fprintf(stderr, "k3sconf completion: unknown shell %q (want bash, zsh, fish or powershell)\n", args[0])
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "k3sconf completion: %v\n", err)
		return exitInput
	}
	return exitOK
}

// bashPrelude lets cobra's bash script run in a bash without the bash-completion package,
// which it otherwise needs for _get_comp_words_by_ref and _filedir: minimal versions of the
// two, defined only when the package is not loaded. The words bash split at = and :
// (COMP_WORDBREAKS) are joined again, as bash-completion's -n =: does, so --root=DIR and
// --product=rke2 reach k3sconf as one word.
const bashPrelude = `# k3sconf: stand-ins for bash-completion's helpers, when it is not installed.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref() {
    local i w n
    words=()
    for ((i = 0; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]-}
        n=${#words[@]}
        if ((n > 1)) && [[ $w == [=:]* || ${words[n-1]} == *[=:] ]]; then
            words[n-1]+=$w
        else
            words+=("$w")
        fi
    done
    cword=$((${#words[@]} - 1))
    cur=${words[cword]}
    prev=${words[cword-1]-}
}
fi
if ! declare -F _filedir >/dev/null 2>&1; then
_filedir() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    if [[ ${1-} == -d ]]; then
        COMPREPLY=($(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
fi

`

// registerFlagCompletions tells cobra how to complete the values of c's flags, from their
// annotations (flags.go).
func (a *app) registerFlagCompletions(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			return
		}
		vals, k := f.Annotations[annValues], annotation(f, annKind)
		_ = c.RegisterFlagCompletionFunc(f.Name, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			switch {
			case vals != nil:
				return filterPrefix(vals, toComplete), cobra.ShellCompDirectiveNoFileComp
			case k == "dir":
				return nil, cobra.ShellCompDirectiveFilterDirs
			case k == "file":
				return nil, cobra.ShellCompDirectiveFilterFileExt
			case k == "host":
				return filterPrefix(a.inventoryHosts(), toComplete), cobra.ShellCompDirectiveNoFileComp
			case k == "version":
				p := a.profile()
				if p == nil {
					p = profile.K3s()
				}
				return filterPrefix(append(p.Releases(), "newest"), toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		})
	})
}

// profile is the product the flags name, or the one detected under --root; nil if neither.
func (a *app) profile() *profile.Profile {
	if a.g.product != "" && a.g.product != "auto" {
		p, err := profile.ByName(a.g.product)
		if err != nil {
			return nil
		}
		return p
	}
	if fi, err := os.Stat(a.g.root); err != nil || !fi.IsDir() {
		return nil
	}
	p, _ := resolve.DetectProduct(k3sconf.Node(a.g.root))
	return p
}

// completeKeys lists the keys of the command resolved from the node the flags point at,
// leaving out those already named.
func (a *app) completeKeys(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	const none = cobra.ShellCompDirectiveNoFileComp
	if fi, err := os.Stat(a.g.root); err != nil || !fi.IsDir() {
		return nil, none
	}
	var prof *profile.Profile
	if a.g.product != "" && a.g.product != "auto" {
		if prof = a.profile(); prof == nil {
			return nil, none
		}
	}
	res, err := resolve.Resolve(resolve.Options{FS: k3sconf.Node(a.g.root), Profile: prof, Command: a.g.command,
		Unit: a.g.unit, Config: a.g.config, Version: a.g.version})
	if err != nil {
		return nil, none
	}
	given := map[string]bool{}
	for _, arg := range args {
		given[strings.TrimLeft(arg, "-")] = true
	}
	var out []string
	for _, k := range res.Keys {
		if !given[k.Name()] {
			out = append(out, k.Name())
		}
	}
	sort.Strings(out)
	return filterPrefix(out, toComplete), none
}

// completeKubesprayVars lists the variables the roles of the kubespray checkout (--kubespray,
// default the current folder) define in defaults/ and vars/, and the plays in vars:.
func (a *app) completeKubesprayVars(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	const none = cobra.ShellCompDirectiveNoFileComp
	if cmd.Name() == "where" && len(args) > 0 {
		return nil, none
	}
	c, err := kubespray.Load(a.ks.dir)
	if c == nil || err != nil {
		return nil, none
	}
	seen := map[string]bool{}
	for _, arg := range args {
		seen[arg] = true
	}
	var out []string
	add := func(defs []ansible.Def) {
		for _, d := range defs {
			if !seen[d.Name] && strings.HasPrefix(d.Name, toComplete) {
				seen[d.Name] = true
				out = append(out, d.Name)
			}
		}
	}
	visited := map[*ansible.Role]bool{}
	var role func(r *ansible.Role)
	role = func(r *ansible.Role) {
		if r == nil || visited[r] {
			return
		}
		visited[r] = true
		add(r.Defaults)
		add(r.Vars)
		for _, d := range r.Deps {
			role(d)
		}
	}
	for _, p := range c.Plays {
		add(p.Vars)
		for _, r := range p.Roles {
			role(r.Role)
		}
	}
	sort.Strings(out)
	return out, none
}

// inventoryHosts are the hosts of the inventories given with -i, in their order, for
// kubespray explain --host.
func (a *app) inventoryHosts() []string {
	if len(a.ks.inventory) == 0 {
		return nil
	}
	inv, err := ansible.LoadInventory(a.ks.inventory)
	if inv == nil || err != nil {
		return nil
	}
	return inv.HostOrder
}

// completeCharts completes `values CHART`: the HelmCharts in the node's manifests folder, in
// --namespace; the paths after it are not completed.
func (a *app) completeCharts(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return filterPrefix(chartNames(a.g, args), toComplete), cobra.ShellCompDirectiveNoFileComp
}

func filterPrefix(cands []string, prefix string) []string {
	out := []string{}
	for _, s := range cands {
		if strings.HasPrefix(s, prefix) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
