package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/counters"
)

// allLevels is a Counters with every optional level present.
func allLevels() Counters {
	return Counters{Cores: 1, CoreRequests: []int64{0}, L2PathBytes: []int64{0}, L1: []CacheCounters{{}}, SLC: &CacheCounters{}, Local: []LocalCounters{{}}}
}

// Every level's counters are produced in the order the part defines them,
// each once, so reports list them as docs/counters.md does.
func TestItemsFollowTheirDefs(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		defs []string
	}{
		{allLevels().Items(1).Names(), defNames(memoryCounters.Defs)},
		{allLevels().CoreItems(0).Names(), defNames(memoryCoreCounters.Defs)},
	} {
		if len(tc.set) != len(tc.defs) {
			t.Fatalf("%d counters produced, %d defined:\n%v\n%v", len(tc.set), len(tc.defs), tc.set, tc.defs)
		}
		for i := range tc.set {
			if tc.set[i] != tc.defs[i] {
				t.Errorf("counter %d is %s, defined %s", i, tc.set[i], tc.defs[i])
			}
		}
	}
}

func defNames(defs []counters.Def) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}
