// Package fuzzy finds the name someone probably meant: the did-you-mean of unknown config
// keys, unknown `explain` keys and unknown `disable` items.
package fuzzy
