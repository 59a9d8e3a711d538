package mem

import (
	"fmt"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// userGPU parses a user description, as a user's YAML file would give it.
func userGPU(t testing.TB, src string) *arch.GPU {
	t.Helper()
	g, err := arch.Parse([]byte(src), "user.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// level is the load-to-use latency configured for a level, as a pointer
// chase should see it.
func level(g *arch.GPU, name string) float64 {
	switch name {
	case "l1":
		return float64(g.L1.LatencyCycles)
	case "tex":
		return float64(g.TextureCache.LatencyCycles)
	case "l2":
		return float64(g.L2.LatencyCycles)
	case "tex-l2": // a texture miss served by L2: the texture path adds its extra latency
		extra := float64(g.TextureCache.LatencyCycles)
		if g.L1 != nil {
			extra -= float64(g.L1.LatencyCycles)
		}
		return float64(g.L2.LatencyCycles) + extra
	case "slc":
		return g.NSToCycles(g.SLC.LatencyNS)
	case "dram":
		return g.NSToCycles(g.DRAM.LatencyNS)
	case "dram+tlb":
		return g.NSToCycles(g.DRAM.LatencyNS) + float64(g.TLB.MissLatencyCycles)
	}
	panic(name)
}

// A pointer chase with footprint F sees the L1 latency for F up to the L1
// size, the L2 latency up to the L2 size, then the SLC and DRAM; past the
// TLB's reach every step also pays a page walk. The chase is random over
// the footprint at a 64-byte stride (128 on Rogue, whose lines hold two
// elements otherwise); the TLB cases use a page-and-a-line stride so that
// every step lands on another page.
func TestLatencySteps(t *testing.T) {
	const K, M = 1 << 10, 1 << 20
	tests := []struct {
		gpu       string
		kind      Kind
		footprint int
		stride    int
		want      string
		source    string
	}{
		{"mali-g52", Load, 4 * K, 64, "l1", "seed 000 §Memory Pipeline: load/store step at 16 KB"},
		{"mali-g52", Load, 16 * K, 64, "l1", "seed 000 §Memory Pipeline"},
		{"mali-g52", Load, 32 * K, 64, "l2", "seed 000 §Memory Pipeline"},
		{"mali-g52", Load, 128 * K, 64, "l2", "seed 000 §L2 Cache and System Level: 128 KB L2"},
		{"mali-g52", Load, 512 * K, 64, "dram", "seed 000 §L2 Cache and System Level"},
		{"mali-g52", Texture, 8 * K, 64, "tex", "seed 000 §Memory Pipeline: texture step at 8 KB"},
		{"mali-g52", Texture, 16 * K, 64, "tex-l2", "seed 000 §Memory Pipeline"},
		{"adreno-640", Load, 1 * K, 64, "l2", "seed 001 §L2 Cache and Beyond: about 47 cycles, no L1 for global loads"},
		{"adreno-640", Load, 128 * K, 64, "l2", "seed 001 §L2 Cache and Beyond: 128 KB L2"},
		{"adreno-640", Load, 256 * K, 64, "slc", "seed 001 §L2 Cache and Beyond: SLC between 128 KB and 2 MB"},
		{"adreno-640", Load, 2 * M, 64, "slc", "seed 001 §L2 Cache and Beyond"},
		{"adreno-640", Load, 8 * M, 64, "dram", "seed 001 §L2 Cache and Beyond"},
		{"adreno-640", Load, 32 * M, 4096 + 64, "slc", "within the TLB's 64 MB reach: no page walks (the lines fit the SLC)"},
		{"adreno-640", Load, 256 * M, 4096 + 64, "dram+tlb", "seed 001 §Final Words: latency staggeringly high past 64 MB"},
		{"adreno-640", Texture, 1 * K, 64, "tex", "seed 001 §Texture Caches: 1 KB"},
		{"adreno-640", Texture, 4 * K, 64, "tex-l2", "seed 001 §Texture Caches"},
		{"adreno-615", Load, 64 * K, 64, "l2", "seed 000 §L2 Cache and System Level: half the G52's 128 KB"},
		{"adreno-615", Load, 256 * K, 64, "slc", "seed 000 §L2 Cache and System Level: 1 MB system level cache"},
		{"powervr-gx6250", Load, 16 * K, 128, "l1", "seed 003 §L1 Mixed Cache"},
		{"powervr-gx6250", Load, 64 * K, 128, "l2", "seed 003 §System Level Cache (the l2 of the preset)"},
		{"powervr-gx6250", Load, 1 * M, 128, "dram", "seed 003 §System Memory Access"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s/%s/%dK", tt.gpu, tt.kind, tt.footprint/K)
		t.Run(name, func(t *testing.T) {
			g := lookup(t, tt.gpu)
			h := New(g)
			got := chase(h, tt.kind, ir.SpaceGlobal, tt.footprint, tt.stride, 2)
			want := level(g, tt.want)
			// The configured latency includes the first cycle of transfer; a
			// line fill through a narrower link adds its remaining cycles.
			if got < want-0.5 || got > want+16 {
				t.Errorf("latency %.1f cycles, want %s latency %.1f (+ up to 16 transfer cycles); %s", got, tt.want, want, tt.source)
			}
		})
	}
}

// Physics: the latency step sits at the configured size and moves with it.
// A user GPU with twice the L2 (or L1) keeps L2 (L1) latency at twice the
// footprint; doubling the clock doubles the DRAM latency in cycles.
func TestStepsMoveWithParameters(t *testing.T) {
	const K = 1 << 10
	tests := []struct {
		name      string
		src       string
		footprint int
		before    string // latency level on the preset
		after     string // on the user GPU
	}{
		{"double L2 (mali-g52)", "base: mali-g52\nl2: {size_kib: 256}\n", 256 * K, "dram", "l2"},
		{"double L2 (adreno-640)", "base: adreno-640\nl2: {size_kib: 256}\n", 256 * K, "slc", "l2"},
		{"double L1 (mali-g52)", "base: mali-g52\nl1: {size_kib: 32}\n", 32 * K, "l2", "l1"},
		{"half L2 (mali-g52)", "base: mali-g52\nl2: {size_kib: 64}\n", 128 * K, "l2", "dram"},
		{"no SLC (adreno-640)", "base: adreno-640\nslc: null\n", 512 * K, "slc", "dram"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := userGPU(t, tt.src)
			base := lookup(t, user.Base)
			for _, c := range []struct {
				g    *arch.GPU
				want string
			}{{base, tt.before}, {user, tt.after}} {
				got := chase(New(c.g), Load, ir.SpaceGlobal, tt.footprint, 64, 2)
				want := level(c.g, c.want)
				if got < want-0.5 || got > want+16 {
					t.Errorf("%s: latency at %d KB is %.1f, want %s (%.1f)", c.g.ID, tt.footprint/K, got, c.want, want)
				}
			}
		})
	}

	// SLC and DRAM latencies are in ns: at twice the clock they take twice
	// the cycles.
	g := lookup(t, "adreno-640")
	fast := userGPU(t, "base: adreno-640\nclock_mhz: 1170\n")
	slow := chase(New(g), Load, ir.SpaceGlobal, 8<<20, 64, 2)
	quick := chase(New(fast), Load, ir.SpaceGlobal, 8<<20, 64, 2)
	if r := quick / slow; r < 1.95 || r > 2.05 {
		t.Errorf("DRAM chase: %.1f cycles at 585 MHz, %.1f at 1170 MHz; want twice the cycles", slow, quick)
	}
	l2a := chase(New(g), Load, ir.SpaceGlobal, 64<<10, 64, 2)
	l2b := chase(New(fast), Load, ir.SpaceGlobal, 64<<10, 64, 2)
	if math.Abs(l2a-l2b) > 1e-6 {
		t.Errorf("L2 chase: %.1f cycles at 585 MHz, %.1f at 1170 MHz; want the same cycles", l2a, l2b)
	}
}
