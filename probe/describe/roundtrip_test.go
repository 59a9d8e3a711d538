package describe

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/probe"
)

// knownOff are round-trip rows that the model itself keeps from matching,
// with the reason (docs/probe.md).
var knownOff = map[string]string{
	// Rogue's texture misses go to the USC's mixed L1 (16 KiB), whose hit
	// costs the chase under 1% more than a texture-cache hit: the first
	// knee the texture chase sees is the L1's.
	"powervr-gx6250 tex size KiB": "a texture miss that hits the mixed L1 costs under 1% more: the chase sees the L1's 16 KiB",
}

// roundTripRates pairs the probe's rates with the derived figures of the
// preset they recover.
var roundTripRates = []struct{ rate, derived string }{
	{"fp32_mad", "fp32_fma_per_clock"},
	{"fp32_add", "fp32_ops_per_clock"},
	{"fp16_mad", "fp16_fma_per_clock"},
	{"fp16_add", "fp16_ops_per_clock"},
	{"int32_add", "int32_ops_per_clock"},
}

func derived(g *arch.GPU, name string) float64 {
	for _, it := range g.Derived().Items() {
		if it.Name == name {
			return it.Value
		}
	}
	return math.NaN()
}

// A row of the round trip: one quantity of one preset.
type row struct {
	gpu, what  string
	got, want  float64
	ok         bool
	unmeasured bool
}

func (r row) String() string {
	mark := "ok"
	if !r.ok {
		mark = "OFF"
	} else if why := knownOff[r.gpu+" "+r.what]; why != "" && r.got != r.want {
		mark = "known: " + why
	}
	return fmt.Sprintf("%-15s %-22s %10.1f %10.1f %+6.1f%% %s", r.gpu, r.what, r.got, r.want, 100*(r.got-r.want)/r.want, mark)
}

// roundTrip probes a preset, writes its description, loads it back and
// compares what the probe recovered with the preset.
func roundTrip(t *testing.T, id string) []row {
	t.Helper()
	want, err := arch.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := probe.OpenSim(id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := probe.Run(b, probe.SimOptions())
	if err != nil {
		t.Fatal(err)
	}
	baseID, why := Base(res.Device, res.WarpWidth)
	if baseID != id {
		t.Errorf("base %s, want %s (%s)", baseID, id, why)
	}
	y, err := YAML(res, baseID, why)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), id+"-probed.yaml")
	if err := os.WriteFile(path, y, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := arch.Lookup(path)
	if err != nil {
		t.Fatalf("the description does not load: %v\n%s", err, y)
	}
	var rows []row
	add := func(what string, g, w float64) {
		rows = append(rows, row{gpu: id, what: what, got: g, want: w, ok: math.Abs(g-w) <= 0.1*w || knownOff[id+" "+what] != ""})
	}
	// What the probe measured, placed (not the base's values: a level the
	// probe did not find would fall back to the base, so check the levels).
	h := Place(res.Caches.Levels, want)
	if want.L1 != nil {
		if h.L1 == nil {
			t.Errorf("%s: no L1 found", id)
		} else {
			add("l1 size KiB", float64(got.L1.SizeKiB), float64(want.L1.SizeKiB))
			add("l1 line B", float64(h.L1.LineBytes), float64(want.L1.LineBytes))
			add("l1 ways", float64(h.L1.Ways), float64(want.L1.Ways))
		}
	}
	if h.L2 == nil {
		t.Errorf("%s: no L2 found", id)
	} else {
		add("l2 size KiB", float64(got.L2.SizeKiB), float64(want.L2.SizeKiB))
		add("l2 line B", float64(h.L2.LineBytes), float64(want.L2.LineBytes))
		add("l2 ways", float64(h.L2.Ways), float64(want.L2.Ways))
	}
	// The SoC's system-level cache, where the preset has one (Snapdragon).
	if want.SLC != nil {
		if h.SLC == nil {
			t.Errorf("%s: no system-level cache found", id)
		} else {
			add("slc size KiB", float64(got.SLC.SizeKiB), float64(want.SLC.SizeKiB))
		}
	}
	// The texture cache, from the read_imageui chase.
	if res.Texture == nil || len(res.Texture.Levels) < 2 {
		t.Errorf("%s: the texture chase found no level", id)
	} else {
		add("tex size KiB", float64(got.TextureCache.SizeKiB), float64(want.TextureCache.SizeKiB))
		add("tex line B", float64(res.Texture.Levels[0].LineBytes), float64(want.TextureCache.LineBytes))
		add("tex ways", float64(res.Texture.Levels[0].Ways), float64(want.TextureCache.Ways))
	}
	// Register occupancy: every point of the sweep against the preset's
	// rule at the registers the simulated compiler counts for the kernel
	// (the probe does not know them), and the register file the loaded
	// description has.
	if sw := res.Registers; sw == nil || len(sw.Points) == 0 {
		t.Errorf("%s: no register sweep", id)
	} else {
		dev := device.Open(want)
		match, steps, prev := 0, 0, 0
		for _, p := range sw.Points {
			k, err := dev.Load(probeSPV(t), fmt.Sprintf("occupy_%d", p.Values), device.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			o, err := want.Occupancy(arch.OccupancyQuery{Regs: min(k.Regs, want.MaxRegistersPerThread), WorkgroupSize: sw.WorkGroup})
			if err != nil {
				t.Fatalf("%s: occupancy at %d registers: %v", id, k.Regs, err)
			}
			if prev > 0 && float64(o.ResidentThreads) < 0.95*float64(prev) {
				steps++
			}
			prev = o.ResidentThreads
			if o.ResidentThreads == p.Resident {
				match++
			} else {
				t.Errorf("%s: occupy_%d (%d registers): %d work-items resident, the preset's rule says %d", id, p.Values, k.Regs, p.Resident, o.ResidentThreads)
			}
		}
		rows = append(rows, row{gpu: id, what: "occupancy points", got: float64(match), want: float64(len(sw.Points)), ok: match == len(sw.Points)})
		rows = append(rows, row{gpu: id, what: "occupancy steps", got: float64(len(sw.Steps)), want: float64(steps), ok: len(sw.Steps) == steps})
		add("register file KiB", float64(got.RegisterFileBytesPerCore())/1024, float64(want.RegisterFileBytesPerCore())/1024)
		add("register granule", float64(got.RegisterGranule), float64(want.RegisterGranule))
		add("warp slots", float64(got.MaxWarpsPerEngine), float64(want.MaxWarpsPerEngine))
		b2i := map[bool]float64{false: 0, true: 1}
		rows = append(rows, row{gpu: id, what: "register pow2", got: b2i[got.RegisterAllocPow2], want: b2i[want.RegisterAllocPow2], ok: got.RegisterAllocPow2 == want.RegisterAllocPow2})
	}
	w := float64(res.WarpWidth)
	rows = append(rows, row{gpu: id, what: "warp width", got: w, want: float64(want.WarpSizes[len(want.WarpSizes)-1]), ok: slices.Contains(want.WarpSizes, res.WarpWidth)})
	for _, rr := range roundTripRates {
		for _, r := range res.Rates {
			if r.Name == rr.rate {
				add(rr.rate+"/clk", r.PerClock, derived(want, rr.derived))
			}
		}
	}
	return rows
}

var spv []byte

// probeSPV is the probe's prebuilt SPIR-V, for the simulated compiler's
// register counts.
func probeSPV(t *testing.T) []byte {
	if spv == nil {
		b, err := os.ReadFile("../kernels/probe.spv")
		if err != nil {
			t.Fatal(err)
		}
		spv = b
	}
	return spv
}

// shortPresets are the round trip in -short mode: one GPU per family.
var shortPresets = []string{"adreno-640", "mali-g52", "mali-t760", "powervr-gx6250"}

// TestRoundTrip probes every preset and recovers its cache sizes (L1, L2
// and the SoC's SLC where there is one), line sizes, warp width and
// clock-normalised ALU rates within 10% (about 50 s
// on this project's 2-core VM; one preset per family with -short).
func TestRoundTrip(t *testing.T) {
	var all []string
	ids := arch.PresetIDs()
	if testing.Short() {
		ids = shortPresets
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			for _, r := range roundTrip(t, id) {
				all = append(all, r.String())
				if !r.ok {
					t.Errorf("%s", r)
				}
			}
		})
	}
	t.Log("\n" + strings.Join(all, "\n"))
}
