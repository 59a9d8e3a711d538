package gfx

import (
	"strings"
	"testing"
)

// A frame's counters carry its figures under the names docs/counters.md
// gives, each once, with every placeholder counter instantiated.
func TestFrameCounters(t *testing.T) {
	st := FrameStats{Frame: 2, Cycles: 1000, DRAMRead: StreamBytes{Texture: 64}, PrimitivesCulled: Culled{BackFace: 5},
		HierarchyLevelUses: []int{7, 0, 1}, DirectRendering: true, TexCacheHitRate: 0.25}
	s := st.Counters()
	seen := map[string]bool{}
	for _, it := range s {
		if seen[it.Name] || strings.ContainsAny(it.Name, "<>") || it.Doc == "" {
			t.Errorf("counter %+v repeated, uninstantiated or undocumented", it)
		}
		seen[it.Name] = true
	}
	for name, want := range map[string]float64{"frame": 2, "cycles": 1000, "dram_read_texture_bytes": 64, "primitives_culled_back_face": 5,
		"hierarchy_level_0_primitives": 7, "hierarchy_level_2_primitives": 1, "direct_rendering": 1, "texture_cache_hit_rate_pct": 25} {
		if got, ok := s.Get(name); !ok || got != want {
			t.Errorf("%s = %v (%v), want %v", name, got, ok, want)
		}
	}
	if _, ok := s.Get("hierarchy_level_3_primitives"); ok {
		t.Error("a level the tiler does not have is reported")
	}
}
