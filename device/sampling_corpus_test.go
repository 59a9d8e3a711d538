package device

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

// TestCorpusSampledAgainstFull times every corpus kernel on every preset
// as a user gets it (--detail auto) and in full: cycles within 2% and the
// counters that describe the run within 5% (a percentage counter within 5
// points), the same warp instructions, and it logs how many launches were
// sampled and the distribution of their cycle errors. Most corpus launches
// are too small to sample; those must come out identical.
func TestCorpusSampledAgainstFull(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping every corpus kernel on every preset twice in -short mode")
	}
	var errs []float64
	n := 0
	for _, g := range arch.Presets() {
		for _, c := range corpus.Cases() {
			if c.SPIRV == nil {
				continue
			}
			full, ferr := corpusTimed(t, g, c, Options{Detail: DetailFull})
			auto, aerr := corpusTimed(t, g, c, Options{Detail: DetailAuto})
			if (ferr == nil) != (aerr == nil) {
				t.Errorf("%s %s: full gave %v, auto %v", g.ID, c.Name, ferr, aerr)
				continue
			}
			if ferr != nil {
				continue
			}
			n++
			e := auto.Timing.Cycles/full.Timing.Cycles - 1
			if auto.Detail.Mode == "sampled" {
				errs = append(errs, 100*e)
			} else if e != 0 {
				t.Errorf("%s %s: ran %s, yet cycles %v against %v in full", g.ID, c.Name, auto.Detail.Mode, auto.Timing.Cycles, full.Timing.Cycles)
			}
			if math.Abs(e) > 0.02 {
				t.Errorf("%s %s: cycles %v, in full %v (%+.2f%%)", g.ID, c.Name, auto.Timing.Cycles, full.Timing.Cycles, 100*e)
			}
			if auto.Stats.WarpInsts != full.Stats.WarpInsts {
				t.Errorf("%s %s: %d warp instructions, in full %d", g.ID, c.Name, auto.Stats.WarpInsts, full.Stats.WarpInsts)
			}
			for _, it := range full.Timing.Counters {
				got, want := auto.Timing.Counters.Value(it.Name), it.Value
				off := math.Abs(got - want)
				if it.Unit != "%" {
					off /= math.Max(math.Abs(want), 1)
					off *= 100
				}
				if off > 5 {
					t.Errorf("%s %s: %s %v, in full %v", g.ID, c.Name, it.Name, got, want)
				}
			}
		}
	}
	sort.Float64s(errs)
	if len(errs) == 0 {
		t.Logf("%d launches, none sampled: every one identical to the full run", n)
		return
	}
	t.Logf("%d launches, %d sampled; their cycle errors: min %+.2f%%, median %+.2f%%, max %+.2f%%",
		n, len(errs), errs[0], errs[len(errs)/2], errs[len(errs)-1])
}

// corpusTimed times corpus case c on a fresh device of g; an error says
// which step failed.
func corpusTimed(t *testing.T, g *arch.GPU, c corpus.Case, o Options) (*TimedResult, error) {
	dev := Open(g)
	k, nd, b, err := loadCorpusCase(t, dev, c)
	if err != nil {
		return nil, err
	}
	r, err := dev.Time(k, nd, b.Args, o)
	if err != nil {
		return nil, fmt.Errorf("time: %w", err)
	}
	return r, nil
}
