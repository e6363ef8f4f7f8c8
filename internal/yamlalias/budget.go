package yamlalias

// Excessive is yaml.v2's message when the budget is exceeded.
const Excessive = "document contains excessive aliasing"

// Budget counts decode operations as yaml.v2's decoder does. The zero value is ready; use
// one per document (yaml.v2 keeps one decoder per Unmarshal).
type Budget struct {
	decodes, aliased, depth int
}

// Step counts one decode operation (one node visited, as yaml.v2's decoder.unmarshal does on
// entry) and reports whether the document now exceeds the limit: more than 100 operations
// made inside alias expansions, more than 1,000 in all, and a share of aliased ones above
// the allowed ratio.
func (b *Budget) Step() (exceeded bool) {
	b.decodes++
	if b.depth > 0 {
		b.aliased++
	}
	return b.aliased > 100 && b.decodes > 1000 && float64(b.aliased)/float64(b.decodes) > allowedRatio(b.decodes)
}

// Enter marks the start of an alias's expansion; Leave its end.
func (b *Budget) Enter() { b.depth++ }

// Leave ends what Enter started.
func (b *Budget) Leave() { b.depth-- }

// allowedRatio is yaml.v2's allowedAliasRatio: 99% of the operations may come from
// aliases in a small document, falling linearly to 10% between 400,000 and 4,000,000
// operations.
func allowedRatio(decodes int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodes <= low:
		return 0.99
	case decodes >= high:
		return 0.10
	default:
		return 0.99 - 0.89*(float64(decodes-low)/float64(high-low))
	}
}
