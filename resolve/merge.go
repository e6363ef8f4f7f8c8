package resolve

import (
	"fmt"
	"strconv"

	"github.com/k3sconf/k3sconf/diag"
	"github.com/k3sconf/k3sconf/internal/reasonhook"
	"github.com/k3sconf/k3sconf/provenance"
	"github.com/k3sconf/k3sconf/sources"
)

// configEntry is one top-level key of one config file, as the merge sees it.
type configEntry struct {
	file  *sources.ConfigFile
	entry *sources.ConfigEntry
	// assignment records what became of the entry when it produced no argument of its own
	// (replaced by a later file, an empty list, "+" with null).
	assignment *Assignment
	order      int64
	// colonKey is RawKey + ":", the name its assignments are shown under; one string per
	// distinct key, shared by its entries (every list item's assignment carries it).
	colonKey string
}

// piece is one future argument value of a merged key, remembering the entry and list item
// it came from. Its position and raw text are looked up there (posRawOf) rather than copied:
// a list appended to by thousands of drop-ins holds a piece per item.
type piece struct {
	text  string
	from  *configEntry
	item  int // index into entry.Items, or -1 for a scalar value
	isNil bool
}

// posRawOf is where an entry's list item (or, for -1, its scalar value) was written and how:
// the item's, or the entry value's (an item beyond the parsed items has the value's
// position and no raw text).
func posRawOf(ce *configEntry, item int) (diag.Position, string) {
	e := ce.entry
	switch {
	case item < 0:
		return e.ValuePos, e.Raw
	case item < len(e.Items):
		return e.Items[item].Pos, e.Items[item].Raw
	}
	return e.ValuePos, ""
}

// mergedKey is a key after all config files were read: the value k3s turns into arguments.
type mergedKey struct {
	name   string
	list   bool // the value is a list: one argument per piece
	pieces []piece
	// entries are all entries that set this key, in file order.
	entries []*configEntry
	// live are the entries whose value is still part of the key's value: the ones since the
	// last plain assignment. Only they can be replaced next, which keeps the merge linear.
	live []*configEntry
	// left counts the pieces the entries not merged yet can add (mergeConfig).
	left int
	// nEntries counts the entries that set the key (mergeConfig's first pass).
	nEntries int
}

// entryPieces is how many pieces an entry's value can add: a list's items, else one.
func entryPieces(e *sources.ConfigEntry) int {
	if l, ok := e.Value.([]any); ok {
		return len(l)
	}
	return 1
}

// mergeConfig reproduces readConfigFile in k3s pkg/configfilearg/parser.go: for each file in
// order and each key in document order, "key+" appends to what came before (toSlice on both
// sides) and a plain key replaces it; keys keep the order in which they were first seen.
//
// program is the product's program name when it is not k3s: reasons kept as compact data
// are worded for it when rendered, as productize words the others.
func mergeConfig(files []*sources.ConfigFile, seq *int, program string) []*mergedKey {
	var order []*mergedKey
	byName := map[string]*mergedKey{}
	// A first pass finds each entry's key (the only map lookup per entry) and counts, per
	// key, the pieces its entries can add: a list appended to by every drop-in grows to that
	// size at most, so it is allocated once instead of being copied as append grows it
	// (62 MB of garbage on 2,000 drop-ins of flow lists).
	n := 0
	for _, f := range files {
		n += len(f.Entries)
	}
	keyOf := make([]*mergedKey, 0, n)
	for _, f := range files {
		for i := range f.Entries {
			e := &f.Entries[i]
			mk := byName[e.Key]
			if mk == nil {
				mk = &mergedKey{name: e.Key}
				byName[e.Key] = mk
				order = append(order, mk)
			}
			mk.left += entryPieces(e)
			mk.nEntries++
			keyOf = append(keyOf, mk)
		}
	}
	for _, mk := range order {
		mk.entries = make([]*configEntry, 0, mk.nEntries)
	}
	// The entries' records in one array, and the replacers in arrays of 1,024, rather than
	// one allocation apiece (50,000 and 28,000 of them on 2,000 drop-ins).
	ces := make([]configEntry, n)
	var repls []replacer
	var arena assignmentArena
	colonKeys := map[string]string{}
	replKeys := map[string]*replKey{}
	j := 0
	for _, f := range files {
		for i := range f.Entries {
			e := &f.Entries[i]
			*seq++
			ck, ok := colonKeys[e.RawKey]
			if !ok {
				ck = e.RawKey + ":"
				colonKeys[e.RawKey] = ck
			}
			ce := &ces[j]
			*ce = configEntry{file: f, entry: e, order: int64(*seq), colonKey: ck}
			mk := keyOf[j]
			j++
			seen := len(mk.entries) > 0
			exists := seen // a previous value exists, even a null one
			_, newIsList := e.Value.([]any)
			rest := mk.left
			n := entryPieces(e)
			mk.left -= n
			if exists && e.Append {
				old := toSlicePieces(mk)
				if len(old)+n > cap(old) {
					grown := make([]piece, len(old), len(old)+max(rest, n))
					copy(grown, old)
					old = grown
				}
				// The entry's pieces go straight into the key's list (no slice per entry).
				start := len(old)
				old, _ = appendValuePieces(old, ce)
				if !newIsList && len(toSliceScalar(old[start:])) == 0 {
					old = old[:start]
				}
				mk.pieces = old
				mk.list = true
				if len(old) == start {
					ce.assignment = entryAssignment(&arena, ce, provenance.Ignored,
						fmt.Sprintf("%s appends nothing: a null value adds no item (k3s toSlice)", e.RawKey))
				}
			} else {
				var by *replacer
				for _, prev := range mk.live {
					if prev.assignment == nil {
						if by == nil {
							rk := replKeys[e.RawKey]
							if rk == nil {
								rk = &replKey{rawKey: e.RawKey, key: e.Key, program: program}
								replKeys[e.RawKey] = rk
							}
							if len(repls) == cap(repls) {
								repls = make([]replacer, 0, min(n, 1024))
							}
							repls = append(repls, replacer{k: rk, pos: valuePos(e), list: mk.list || newIsList})
							by = &repls[len(repls)-1]
						}
						prev.assignment = entryAssignment(&arena, prev, provenance.Replaced, "")
						prev.assignment.by = by
					}
				}
				mk.live = mk.live[:0]
				newPieces, _ := valuePieces(ce)
				mk.pieces = newPieces
				mk.list = newIsList
				if newIsList && len(newPieces) == 0 {
					ce.assignment = entryAssignment(&arena, ce, provenance.Ignored,
						fmt.Sprintf("%s is an empty list: k3s emits no argument for it, so the flag stays unset here", e.RawKey))
				}
			}
			// Pieces that no longer survive belong to entries that were replaced; the
			// assignment above records that. Surviving pieces become arguments.
			mk.entries = append(mk.entries, ce)
			mk.live = append(mk.live, ce)
		}
	}
	return order
}

// replacer is what a replaced entry keeps of the entry that replaced it: enough to render
// the reason when it is shown (Assignment.Why), instead of a sentence per replaced entry.
// One replacer is shared by every entry one assignment replaces; what it shares with every
// other replacer by the same key spelling is in replKey (a node's scalar keys are replaced
// by every drop-in: 28,000 replacers on 2,000 drop-ins, 48 bytes each instead of 96).
type replacer struct {
	k    *replKey
	pos  diag.Position
	list bool
}

// replKey is the key of a replacing entry as written and as k3s names it.
type replKey struct {
	rawKey, key string
	// program is set for products other than k3s (see productize).
	program string
}

// reason renders the sentence; the words are those of the merge in k3s's readConfigFile.
//
// It is rendered once per replaced entry by every output (tens of thousands on a large
// node), so it is built in one allocation: the head and the position were three more.
func (rp *replacer) reason() string {
	var buf [256]byte // on the stack: the string is the one allocation
	s := string(rp.appendReason(buf[:0]))
	if rp.k.program != "" {
		s = k3sWord.ReplaceAllString(s, rp.k.program+"$1")
	}
	return s
}

const (
	scalarTail = ": a later config file wins"
	listMid    = ": a key without '+' replaces the earlier value, lists included (write "
	listTail   = "+: there to append)"
)

// appendReason appends the sentence as k3s words it (reason rewords it for other products).
func (rp *replacer) appendReason(b []byte) []byte {
	b = append(b, "replaced by "...)
	b = append(b, rp.k.rawKey...)
	b = append(b, ": at "...)
	b = append(b, rp.pos.File...)
	if rp.pos.Line > 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(rp.pos.Line), 10)
		if rp.pos.Column > 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(rp.pos.Column), 10)
		}
	}
	if rp.list {
		b = append(b, listMid...)
		b = append(b, rp.k.key...)
		b = append(b, listTail...)
	} else {
		b = append(b, scalarTail...)
	}
	return b
}

func init() { reasonhook.AppendReason = appendCompactReason }

// appendCompactReason is reasonhook.AppendReason: the reason of a replaced entry kept as
// its replacer, for k3s (another product's words are rewritten by a regexp: Why).
func appendCompactReason(dst []byte, x any) ([]byte, bool) {
	a, ok := x.(*Assignment)
	if !ok || a.Reason != "" || a.by == nil || a.by.k.program != "" {
		return dst, false
	}
	return a.by.appendReason(dst), true
}

// entryAssignment makes the assignment record of an entry that produced no argument.
func entryAssignment(arena *assignmentArena, ce *configEntry, out provenance.Outcome, reason string) *Assignment {
	e := ce.entry
	a := arena.new()
	*a = Assignment{Assignment: provenance.Assignment[string]{Source: provenance.Source{Kind: sources.KindConfig, Pos: valuePos(e)}, Value: sources.ToString(e.Value), Outcome: out, Reason: reason}, Name: ce.colonKey, Raw: e.Raw, order: rankConfig + ce.order*1000}
	for _, it := range e.Items {
		a.Items = append(a.Items, sources.ToString(it.Value))
	}
	return a
}

// valuePieces turns an entry's value into pieces, as the emitting loop of readConfigFile
// would: a list gives one piece per item, anything else one piece.
func valuePieces(ce *configEntry) ([]piece, bool) {
	return appendValuePieces(make([]piece, 0, entryPieces(ce.entry)), ce)
}

// appendValuePieces appends the entry's pieces (valuePieces) to ps.
func appendValuePieces(ps []piece, ce *configEntry) ([]piece, bool) {
	e := ce.entry
	if list, ok := e.Value.([]any); ok {
		for i, v := range list {
			ps = append(ps, piece{text: sources.ToString(v), from: ce, item: i, isNil: v == nil})
		}
		return ps, true
	}
	_, isString := e.Value.(string)
	return append(ps, piece{text: sources.ToString(e.Value), from: ce, item: -1,
		isNil: e.Value == nil || (!isString && sources.ToString(e.Value) == "")}), false
}

// toSlicePieces is k3s's toSlice applied to the value built so far.
func toSlicePieces(mk *mergedKey) []piece {
	if mk.list {
		return mk.pieces
	}
	return toSliceScalar(mk.pieces)
}

// toSliceScalar: a string becomes a one-item list (not split, not trimmed — trimming happens
// when it is rendered); any other scalar becomes its trimmed string, or nothing when that is
// empty (null).
func toSliceScalar(ps []piece) []piece {
	if len(ps) == 1 && ps[0].isNil {
		return nil
	}
	return ps
}

// valuePos is where an entry's value starts (its first item for a list), the position its
// arguments carry; the key's position when the value is empty.
func valuePos(e *sources.ConfigEntry) diag.Position {
	if len(e.Items) > 0 {
		return e.Items[0].Pos
	}
	if e.ValuePos.Line > 0 {
		return e.ValuePos
	}
	return e.KeyPos
}

// assignmentArena hands out Assignment records from arrays of 1,024 instead of one
// allocation each: a node of 2,000 drop-ins makes about 80,000 of them, all kept in the
// result. A record may keep its array alive; the records of one array live as long as the
// result anyway.
type assignmentArena struct{ buf []Assignment }

func (p *assignmentArena) new() *Assignment {
	if len(p.buf) == cap(p.buf) {
		p.buf = make([]Assignment, 0, 1024)
	}
	p.buf = p.buf[:len(p.buf)+1]
	return &p.buf[len(p.buf)-1]
}
