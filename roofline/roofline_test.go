package roofline

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
)

func lookup(t *testing.T, id string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func roof(t *testing.T, rs []Roof, name string) Roof {
	t.Helper()
	for _, r := range rs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no roof %s in %+v", name, rs)
	return Roof{}
}

// The roofs come from the description: the G52's figures as spec derives
// them, and a changed parameter moves its roof.
func TestRoofsFromDescription(t *testing.T) {
	g := lookup(t, "mali-g52")
	r := For(g)
	d := g.Derived()
	for _, c := range []struct {
		name string
		want float64
	}{{"fp32_fma", 2 * d.FP32FMAPerClock}, {"fp16_fma", 2 * d.FP16FMAPerClock}, {"int32", d.INT32OpsPerClock}} {
		if got := roof(t, r.Compute, c.name).PerClock; got != c.want {
			t.Errorf("%s roof %v, want %v", c.name, got, c.want)
		}
	}
	if got := roof(t, r.Memory, L1).PerClock; got != 64 {
		t.Errorf("L1 roof %v B/clk, want 2 cores × 32", got)
	}
	if got := roof(t, r.Memory, L2).PerClock; got != 32 {
		t.Errorf("L2 roof %v B/clk, want the cores' paths, 2 × 16", got)
	}
	if got := roof(t, r.Memory, DRAM).PerClock; got != d.DRAMBytesPerClock {
		t.Errorf("DRAM roof %v B/clk, want %v", got, d.DRAMBytesPerClock)
	}
	c := *g
	l1 := *g.L1
	l1.BytesPerCycle *= 2
	c.L1 = &l1
	c.ClockMHz *= 2
	r2 := For(&c)
	if got := roof(t, r2.Memory, L1).PerClock; got != 128 {
		t.Errorf("L1 roof with twice the bytes per cycle: %v", got)
	}
	if a, b := roof(t, r.Compute, "fp32_fma"), roof(t, r2.Compute, "fp32_fma"); b.Giga != 2*a.Giga || b.PerClock != a.PerClock {
		t.Errorf("twice the clock: %v GFLOP/s from %v, per clock %v from %v", b.Giga, a.Giga, b.PerClock, a.PerClock)
	}
	// Levels a GPU lacks have no roof: Adreno has no L1 and an SLC.
	a := For(lookup(t, "adreno-640"))
	for _, m := range a.Memory {
		if m.Name == L1 {
			t.Error("adreno-640 has an L1 roof")
		}
	}
	roof(t, a.Memory, SLC)
}

// A measured point from counters: FLOPs weighted (a mad counts two), the
// ceiling from the busiest pipe, intensities per level, the bound the
// nearest ceiling.
func TestMeasure(t *testing.T) {
	g := lookup(t, "mali-g52")
	r := For(g)
	eng := counters.Register(&counters.Part{Key: "roofline_test", Title: "test", Rank: 1000, Scope: counters.Kernel, Defs: []counters.Def{
		counters.New("thread_ops_<class>", "ops", "x"), counters.New("pipe_<name>_busy_cycles", "cycles", "x"),
		counters.New("l1_read_bytes", "B", "x"), counters.New("l1_accesses", "lines", "x"), counters.New("dram_read_bytes", "B", "x"),
	}})
	cs := counters.Set{
		eng.Def("thread_ops_<class>").With("fp32_mad", 1000), eng.Def("thread_ops_<class>").With("int32_add", 100),
		eng.Def("pipe_<name>_busy_cycles").With("fma", 60), eng.Def("pipe_<name>_busy_cycles").With("fadd", 20),
		eng.Of("l1_read_bytes", 640), eng.Of("l1_accesses", 10), eng.Of("dram_read_bytes", 64),
	}
	w := r.FromCounters(cs)
	p := r.Measure("k", w, 100)
	if p.Type != FP32 || p.Ops != 2000 || p.PerClock != 20 {
		t.Fatalf("point %+v, want 2000 FP32 FLOPs, 20 a clock", p)
	}
	// 6 engines: the fma pipe needs 10 clocks for 2000 FLOPs.
	if p.Ceiling != 200 || math.Abs(p.ComputeUse-0.1) > 1e-12 {
		t.Errorf("ceiling %v, use %v; want 200 FLOP/clk, 0.1", p.Ceiling, p.ComputeUse)
	}
	if p.Roof != "fp32_fma" {
		t.Errorf("roof %s, want fp32_fma", p.Roof)
	}
	if len(p.Levels) != 2 || p.Levels[0].Intensity != 2000.0/640 || p.Levels[1].Level != DRAM || p.Levels[1].BytesPerClock != 0.64 {
		t.Errorf("levels %+v", p.Levels)
	}
	// DRAM: 0.64 of 5.0 B/clk, a use of 0.128, above compute's 0.1.
	if p.Bound != DRAM || math.Abs(p.Use-0.64/r.d.DRAMBytesPerClock) > 1e-12 {
		t.Errorf("bound %s at %v, want dram", p.Bound, p.Use)
	}
}

// Rogue's L1 ceiling follows the bytes each lookup moved: 4-byte lanes
// make one transaction each, so 2 USCs × 1 lookup × 4 B.
func TestRogueL1Ceiling(t *testing.T) {
	g := lookup(t, "powervr-gx6250")
	r := For(g)
	w := Work{Ops: map[string]float64{"int32_add": 10}, Bytes: map[string]float64{L1: 4000}, L1Lookups: 1000}
	p := r.Measure("k", w, 1000)
	if len(p.Levels) != 1 || p.Levels[0].Ceiling != 8 || p.Levels[0].Roof != roof(t, r.Memory, L1).PerClock {
		t.Errorf("levels %+v, want the L1 ceiling at 8 B/clk under its roof", p.Levels)
	}
}

// A prediction is bound by DRAM when its intensity is low, by compute when
// high.
func TestPredict(t *testing.T) {
	g := lookup(t, "mali-g52")
	r := For(g)
	low := r.Predict("copy", StaticWork(g, map[string]float64{"fp32_add": 1}, 8, 0, 0))
	if low.Bound != DRAM || low.PerClock != 1.0/8*r.d.DRAMBytesPerClock {
		t.Errorf("low intensity: %+v", low)
	}
	high := r.Predict("alu", StaticWork(g, map[string]float64{"fp32_fma": 1000}, 8, 0, 0))
	if high.Bound != "compute" || high.PerClock != 2*r.d.FP32FMAPerClock {
		t.Errorf("high intensity: bound %s at %v", high.Bound, high.PerClock)
	}
}

// Charts are written as PNG and SVG; other names are refused.
func TestChart(t *testing.T) {
	g := lookup(t, "adreno-640")
	r := For(g)
	p := r.Measure("k", Work{Ops: map[string]float64{"fp32_mad": 1e6}, Bytes: map[string]float64{L2: 1e5, DRAM: 1e4}}, 1e4)
	dir := t.TempDir()
	for _, name := range []string{"r.png", "r.svg"} {
		path := filepath.Join(dir, name)
		if err := r.Save(path, []Point{p}); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{filepath.Join(dir, "r.jpg"), filepath.Join(dir, "missing", "r.png")} {
		if err := r.Save(bad, []Point{p}); err == nil || !strings.Contains(err.Error(), "roofline chart") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := r.Chart(nil); err == nil {
		t.Error("a chart without points")
	}
}
