package arch

import (
	"fmt"
	"sort"
	"strings"
)

// ConfigError is an error in a GPU description that the user can fix. It
// names the file, the line when known, the parameter path and what is
// allowed.
type ConfigError struct {
	File string // file name, or "preset <id>"
	Line int    // 1-based; 0 when unknown
	Path string // parameter path such as "l2.size_kib"; "" for the whole file
	Msg  string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// UnknownGPUError reports a GPU name that is neither a preset id, a GPU ID
// nor a readable file.
type UnknownGPUError struct {
	Name    string
	Nearest []string // nearest preset ids by edit distance
}

func (e *UnknownGPUError) Error() string {
	msg := fmt.Sprintf("unknown GPU %q: not a preset id, a Panfrost GPU ID (like 7212 or 0x6221), an Adreno number (like 640) or a YAML file", e.Name)
	if len(e.Nearest) > 0 {
		msg += "; nearest presets: " + strings.Join(e.Nearest, ", ")
	}
	return msg
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
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

// nearest returns up to n candidates closest to name, best first.
func nearest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	name = strings.ToLower(name)
	var all []scored
	for _, c := range candidates {
		d := editDistance(name, strings.ToLower(c))
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

// didYouMean returns " (did you mean X?)" when a candidate is close to name.
func didYouMean(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(2, len(name)/3) {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}
