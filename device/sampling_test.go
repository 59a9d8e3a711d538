package device

import (
	"bytes"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// sampledCase is a launch big enough to be sampled.
type sampledCase struct {
	file          string
	global, local int
	args          []string
}

// sampledCases are an ALU-bound, a streaming and a clpeak-style bandwidth
// kernel, each with hundreds of work-groups.
var sampledCases = []sampledCase{
	{"madloop.spv", 262144, 64, madArgs(262144, 16)},
	{"stream.spv", 262144, 64, []string{"buf:f32x4:262144", "buf:f32x4:262144", "u32:262144"}},
	{"bandwidth.spv", 524288, 256, []string{"buf:f32:8388608=random:3", "buf:f32:524288"}},
}

// TestSampledMatchesFull: a sampled launch gives the buffers, the warp
// instructions and (within 2%) the cycles of the same launch simulated in
// full, and its main counters within 5%; it says how much ran in detail.
func TestSampledMatchesFull(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range sampledCases {
			t.Run(gpu+"/"+c.file, func(t *testing.T) {
				full, fb := setupBound(t, g, c)
				auto, ab := setupBound(t, g, c)
				rf, ra := full(Options{Detail: DetailFull}), auto(Options{})
				if ra.Detail.Mode != "sampled" {
					t.Fatalf("not sampled: %+v", ra.Detail)
				}
				d := ra.Detail
				if d.Detailed <= 0 || d.Detailed >= d.WorkGroups || d.ErrorPct < 0 || d.ErrorPct > 2 {
					t.Errorf("detail %+v", d)
				}
				for i := range fb {
					if fb[i] != nil && !bytes.Equal(fb[i].Bytes(), ab[i].Bytes()) {
						t.Errorf("argument %d differs from the full run's", i)
					}
				}
				if ra.Stats.WarpInsts != rf.Stats.WarpInsts {
					t.Errorf("%d warp instructions, in full %d", ra.Stats.WarpInsts, rf.Stats.WarpInsts)
				}
				if e := ra.Timing.Cycles/rf.Timing.Cycles - 1; math.Abs(e) > 0.02 {
					t.Errorf("cycles %v, in full %v (%+.2f%%, estimated ±%.2f%%)", ra.Timing.Cycles, rf.Timing.Cycles, 100*e, d.ErrorPct)
				}
				engineCycles := rf.Timing.Cycles * float64(g.Cores*g.EnginesPerCore)
				for _, name := range []string{"warp_instructions", "thread_instructions", "groups_issued", "issue_utilization_pct",
					"occupancy_avg_pct", "dram_read_bytes", "dram_write_bytes", "l2_accesses", "l2_hit_rate_pct", "stall_memory_cycles", "mem_loads"} {
					want, got := rf.Timing.Counters.Value(name), ra.Timing.Counters.Value(name)
					scale := math.Abs(want)
					if name == "stall_memory_cycles" {
						scale = engineCycles // a share of the engines' time
					}
					if scale > 0 && math.Abs(got-want)/scale > 0.05 {
						t.Errorf("%s %v, in full %v", name, got, want)
					}
				}
			})
		}
	}
}

// setupBound loads c on a fresh device of g and returns a launcher and
// the bound buffers.
func setupBound(t *testing.T, g *arch.GPU, c sampledCase) (func(Options) *TimedResult, []*Buffer) {
	t.Helper()
	dev := Open(g)
	k := loadTestKernel(t, dev, c.file)
	b := bindSpecs(t, dev, k, c.args)
	nd := NDRange{Dims: 1, Global: [3]int{c.global, 1, 1}, Local: [3]int{c.local, 1, 1}}
	return func(o Options) *TimedResult {
		r, err := dev.Time(k, nd, b.Args, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, b.Buffers
}

// TestSampledSameWhateverThreads: the fast-forward's functional runs use
// the host's threads; the results and every counter are the same on one
// thread or three.
func TestSampledSameWhateverThreads(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	c := sampledCases[1]
	var first *TimedResult
	var firstBufs []*Buffer
	for _, threads := range []int{1, 2, 3} {
		run, bufs := setupBound(t, g, c)
		r := run(Options{Threads: threads})
		if r.Detail.Mode != "sampled" {
			t.Fatalf("not sampled: %+v", r.Detail)
		}
		if first == nil {
			first, firstBufs = r, bufs
			continue
		}
		if r.Timing.Cycles != first.Timing.Cycles || !r.Timing.Counters.Equal(first.Timing.Counters) || r.Detail != first.Detail {
			t.Errorf("%d threads: %v cycles %+v, 1 thread %v %+v", threads, r.Timing.Cycles, r.Detail, first.Timing.Cycles, first.Detail)
		}
		for i := range bufs {
			if bufs[i] != nil && !bytes.Equal(bufs[i].Bytes(), firstBufs[i].Bytes()) {
				t.Errorf("%d threads: argument %d differs", threads, i)
			}
		}
	}
}

// TestAtomicsNotSampled: work-groups that meet through global atomics
// must run in the engine's order, so their dispatch is never
// fast-forwarded.
func TestAtomicsNotSampled(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	run, _ := setupBound(t, g, sampledCase{"cas.spv", 65536, 64, []string{"buf:u32:1", "buf:u32:65536", "buf:u32:1024"}})
	if r := run(Options{}); r.Detail.Mode != "full" {
		t.Errorf("a kernel with global atomics: %+v", r.Detail)
	}
}
