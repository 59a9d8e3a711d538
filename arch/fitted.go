package arch

import "slices"

// Fitted maps each figure id that a parameter of g was fitted to (a
// value written in from it, or backed out of it: `fitted: [ID]` beside the
// parameter's source) to the paths of those parameters, sorted. A figure
// listed here calibrates the description; it does not test it.
func (g *GPU) Fitted() map[string][]string {
	out := map[string][]string{}
	for path, ids := range g.fitted {
		for _, id := range ids {
			out[id] = append(out[id], path)
		}
	}
	for _, paths := range out {
		slices.Sort(paths)
	}
	return out
}
