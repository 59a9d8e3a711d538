// Package suggest finds the names a user probably meant: the nearest presets
// to an unknown GPU, the field a misspelt key was meant to be.
package suggest

import (
	"fmt"
	"sort"
	"strings"
)

// Distance is the Levenshtein distance between a and b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest returns up to n candidates closest to name, best first.
func Nearest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	name = strings.ToLower(name)
	var all []scored
	for _, c := range candidates {
		d := Distance(name, strings.ToLower(c))
		// A candidate that contains the name (or the reverse) is close
		// whatever its length.
		if strings.Contains(strings.ToLower(c), name) || strings.Contains(name, strings.ToLower(c)) {
			d = min(d, 1)
		}
		all = append(all, scored{c, d})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].s < all[j].s
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].s)
	}
	return out
}

// DidYouMean returns " (did you mean X?)" when a candidate is close to name.
func DidYouMean(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(2, len(name)/3) {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}
