package arch

import (
	"errors"
	"strings"
	"testing"
)

func TestOccupancy(t *testing.T) {
	tests := []struct {
		name    string
		gpu     string
		q       OccupancyQuery
		width   int
		perCore int // resident threads per core
		total   int // resident threads GPU-wide
		warps   int // resident warps GPU-wide
		limited string
	}{
		// Bifrost: 16 warps per EE up to 32 registers, half beyond (seed 000).
		{"g52 full", "mali-g52", OccupancyQuery{Regs: 32}, 8, 384, 768, 96, LimitWarpSlots},
		{"g52 33 regs halves", "mali-g52", OccupancyQuery{Regs: 33}, 8, 192, 384, 48, LimitRegisters},
		{"g52 64 regs", "mali-g52", OccupancyQuery{Regs: 64}, 8, 192, 384, 48, LimitRegisters},
		{"g52 one wg with local per core", "mali-g52", OccupancyQuery{Regs: 16, WorkgroupSize: 64, LocalBytes: 1024}, 8, 64, 128, 16, LimitLocalMemory},
		{"g52 wg 128 no local", "mali-g52", OccupancyQuery{Regs: 16, WorkgroupSize: 128}, 8, 384, 768, 96, LimitWarpSlots},
		{"g52 wg 100 rounds to warps", "mali-g52", OccupancyQuery{Regs: 8, WorkgroupSize: 100}, 8, 300, 600, 78, LimitWorkgroupSize},
		// Midgard: full / half / quarter thread capacity at 4 / 8 / 16 work registers.
		{"t760 16 regs", "mali-t760", OccupancyQuery{Regs: 16}, 4, 256, 1024, 256, LimitWarpSlots},
		{"t760 20 regs", "mali-t760", OccupancyQuery{Regs: 20}, 4, 128, 512, 128, LimitRegisters},
		{"t760 48 regs", "mali-t760", OccupancyQuery{Regs: 48}, 4, 64, 256, 64, LimitRegisters},
		{"t880 32 regs", "mali-t880", OccupancyQuery{Regs: 32}, 4, 192, 768, 192, LimitRegisters},
		// Adreno: wave128 while the registers allow, wave64 under pressure.
		{"640 8 regs wave128", "adreno-640", OccupancyQuery{Regs: 8}, 128, 2048, 12288, 96, LimitWarpSlots},
		{"640 12 regs", "adreno-640", OccupancyQuery{Regs: 12}, 128, 1280, 7680, 60, LimitRegisters},
		{"640 40 regs wave64", "adreno-640", OccupancyQuery{Regs: 40}, 64, 384, 2304, 36, LimitRegisters},
		{"640 small wg prefers wave64", "adreno-640", OccupancyQuery{Regs: 8, WorkgroupSize: 64}, 64, 1024, 6144, 96, LimitWarpSlots},
		{"640 local shared by 3 uSPTPs", "adreno-640", OccupancyQuery{Regs: 8, WorkgroupSize: 256, LocalBytes: 32768}, 128, 256, 512, 4, LimitLocalMemory},
		{"640 local 1k chunks", "adreno-640", OccupancyQuery{Regs: 8, WorkgroupSize: 128, LocalBytes: 1500}, 128, 2048, 4096, 32, LimitLocalMemory}, // 1500 B -> 2 KB: 16 per instance
		{"615 12 regs full", "adreno-615", OccupancyQuery{Regs: 12}, 64, 1024, 2048, 32, LimitWarpSlots},
		{"615 13 regs", "adreno-615", OccupancyQuery{Regs: 13}, 64, 768, 1536, 24, LimitRegisters},
		{"530 wg 32 prefers wave32", "adreno-530", OccupancyQuery{Regs: 8, WorkgroupSize: 32}, 32, 512, 2048, 64, LimitWarpSlots},
		{"730 local per uSPTP", "adreno-730", OccupancyQuery{Regs: 8, WorkgroupSize: 256, LocalBytes: 32768}, 128, 256, 2048, 16, LimitLocalMemory},
		// Rogue: 40 32-bit values = 10 128-bit registers -> 512 threads per USC (seed 003).
		{"gx6250 40 regs", "powervr-gx6250", OccupancyQuery{Regs: 40}, 32, 512, 1024, 32, LimitRegisters},
		{"gx6250 12 regs full", "powervr-gx6250", OccupancyQuery{Regs: 12}, 32, 1536, 3072, 96, LimitWarpSlots},
		{"gx6250 wg 8 packs 4 per task", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 8}, 32, 1536, 3072, 96, LimitWarpSlots},
		{"gx6250 wg 4 packs 8 per task", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 4}, 32, 1536, 3072, 96, LimitWarpSlots},
		{"gx6250 wg 16 packs 2 per task", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 16}, 32, 1536, 3072, 96, LimitWarpSlots},
		{"gx6250 barrier unpacks", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 8, Barrier: true}, 32, 384, 768, 96, LimitWorkgroupPacking},
		{"gx6250 barrier, size fixed", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 8, Barrier: true, SizeFixedAtCompile: true}, 32, 1536, 3072, 96, LimitWarpSlots},
		{"gx6250 barrier and registers", "powervr-gx6250", OccupancyQuery{Regs: 40, WorkgroupSize: 8, Barrier: true}, 32, 128, 256, 32, LimitWorkgroupPacking},
		{"gx6250 local", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 64, LocalBytes: 4096}, 32, 256, 512, 16, LimitLocalMemory},
		{"gx6250 wg 512", "powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 512}, 32, 1536, 3072, 96, LimitWarpSlots},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := mustLookup(t, tt.gpu).Occupancy(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if o.WarpWidth != tt.width || o.ResidentThreadsPerCore != tt.perCore || o.ResidentThreads != tt.total || o.ResidentWarps != tt.warps || o.LimitedBy != tt.limited {
				t.Errorf("got width %d, %d threads/core, %d threads, %d warps, limited by %q; want %d, %d, %d, %d, %q\n%s",
					o.WarpWidth, o.ResidentThreadsPerCore, o.ResidentThreads, o.ResidentWarps, o.LimitedBy,
					tt.width, tt.perCore, tt.total, tt.warps, tt.limited, o)
			}
			if len(o.Explanation) == 0 || !strings.Contains(o.String(), "limited by "+o.LimitedBy) {
				t.Errorf("explanation %q does not state the limit", o)
			}
			if o.Occupancy <= 0 || o.Occupancy > 1 {
				t.Errorf("occupancy fraction %v", o.Occupancy)
			}
		})
	}
}

func TestOccupancyErrors(t *testing.T) {
	tests := []struct {
		gpu   string
		q     OccupancyQuery
		field string
		msg   string
	}{
		{"mali-g52", OccupancyQuery{Regs: 0}, "regs", "1 to 64"},
		{"mali-g52", OccupancyQuery{Regs: 65}, "regs", "spills"},
		{"mali-g52", OccupancyQuery{Regs: 8, WorkgroupSize: -1}, "workgroup_size", "1 to 384"},
		{"mali-g52", OccupancyQuery{Regs: 8, WorkgroupSize: 385}, "workgroup_size", "1 to 384"},
		{"mali-g52", OccupancyQuery{Regs: 8, LocalBytes: 64}, "workgroup_size", "per work-group"},
		{"mali-g52", OccupancyQuery{Regs: 8, WorkgroupSize: 64, LocalBytes: 40000}, "local_bytes", "0 to 32768"},
		{"mali-g52", OccupancyQuery{Regs: 8, WorkgroupSize: 64, LocalBytes: -1}, "local_bytes", "0 to 32768"},
		{"mali-g52", OccupancyQuery{Regs: 40, WorkgroupSize: 384}, "workgroup_size", "only 24 fit"},
		{"powervr-gx6250", OccupancyQuery{Regs: 8, WorkgroupSize: 513}, "workgroup_size", "1 to 512"},
		{"powervr-gx6250", OccupancyQuery{Regs: 160, WorkgroupSize: 512}, "workgroup_size", "16 warps"},
		{"adreno-640", OccupancyQuery{Regs: 8, WorkgroupSize: 64, LocalBytes: 32769}, "local_bytes", "0 to 32768"},
	}
	for _, tt := range tests {
		_, err := mustLookup(t, tt.gpu).Occupancy(tt.q)
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Field != tt.field || !strings.Contains(qe.Msg, tt.msg) {
			t.Errorf("%s %+v: got %v, want a %s error mentioning %q", tt.gpu, tt.q, err, tt.field, tt.msg)
		}
	}
}

// Occupancy never exceeds the hardware's slots, and more registers never
// raise it.
func TestOccupancyMonotonicInRegisters(t *testing.T) {
	for _, g := range Presets() {
		prev := 1 << 30
		for r := 1; r <= g.MaxRegistersPerThread; r++ {
			o, err := g.Occupancy(OccupancyQuery{Regs: r})
			if err != nil {
				t.Errorf("%s regs %d: %v", g.ID, r, err)
				break
			}
			if o.ResidentThreadsPerCore > o.MaxThreadsPerCore || o.ResidentThreads > prev {
				t.Errorf("%s regs %d: %d threads/core (max %d), %d GPU-wide after %d", g.ID, r, o.ResidentThreadsPerCore, o.MaxThreadsPerCore, o.ResidentThreads, prev)
			}
			prev = o.ResidentThreads
		}
	}
}

// workgroup_spans_cluster: a work-group one Adreno 640 uSPTP cannot hold
// spreads over the SP's three, which then hold it alone; past what the
// three hold it is refused, naming the cluster.
func TestOccupancySpansCluster(t *testing.T) {
	g, err := Lookup("adreno-640")
	if err != nil {
		t.Fatal(err)
	}
	o, err := g.Occupancy(OccupancyQuery{Regs: 34, WorkgroupSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if o.CoresPerWorkgroup != 3 || o.ResidentWorkgroups != g.Cores/g.CoresPerCluster || o.WorkgroupsPerCore != 1 {
		t.Errorf("34 registers, 1024 work-items: %d cores a work-group, %d resident GPU-wide, %d a core; want 3, %d, 1", o.CoresPerWorkgroup, o.ResidentWorkgroups, o.WorkgroupsPerCore, g.Cores/g.CoresPerCluster)
	}
	// 18 registers: a work-group's 8 wave128 warps deal 3, 3 and 2 over
	// the SP's uSPTPs, each of which holds 6, so an SP holds two.
	if o, err := g.Occupancy(OccupancyQuery{Regs: 18, WorkgroupSize: 1024}); err != nil || o.CoresPerWorkgroup != 3 || o.WorkgroupsPerCore != 2 || o.ResidentWorkgroups != 4 {
		t.Errorf("18 registers, 1024 work-items: %d cores a work-group, %d a cluster, %d GPU-wide (%v); want 3, 2, 4", o.CoresPerWorkgroup, o.WorkgroupsPerCore, o.ResidentWorkgroups, err)
	}
	if o, err := g.Occupancy(OccupancyQuery{Regs: 10, WorkgroupSize: 1024}); err != nil || o.CoresPerWorkgroup > 1 {
		t.Errorf("10 registers, 1024 work-items: %+v, %v; one uSPTP holds it", o.CoresPerWorkgroup, err)
	}
	if _, err := g.Occupancy(OccupancyQuery{Regs: 60, WorkgroupSize: 1024}); err == nil || !strings.Contains(err.Error(), "cluster") {
		t.Errorf("60 registers, 1024 work-items: %v, want a refusal naming the cluster", err)
	}
	g.WorkgroupSpansCluster = false
	if _, err := g.Occupancy(OccupancyQuery{Regs: 34, WorkgroupSize: 1024}); err == nil {
		t.Error("without workgroup_spans_cluster, 34 registers × 1024 work-items fit one uSPTP")
	}
}
