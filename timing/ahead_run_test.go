package timing_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// aheadRun is what a timed run gives: counters, the executor's counts and
// the buffers.
type aheadRun struct {
	r     *timing.Result
	stats emu.Stats
	bufs  [][]byte
	// Tasks the producer recorded, and handed over live.
	recorded, handedOver int
}

// runAhead times the job live (the engine steps every warp), ahead (a
// producer runs the executor on a second thread), or ahead with the
// producer handing every task over live after a few blocks and keeping
// three tasks ahead at most.
func runAhead(t *testing.T, j *job, mode string, sampled bool) aheadRun {
	t.Helper()
	e, d := aheadEngine(t, j, mode)
	if sampled {
		e.EnableSampling()
	}
	r, err := e.Run()
	if err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	run := aheadRun{r: r, stats: d.Stats}
	run.recorded, run.handedOver = e.AheadTasks()
	for _, b := range d.Mem.Buffers() {
		run.bufs = append(run.bufs, bytes.Clone(b.Data))
	}
	return run
}

// sameRun fails unless b is a's run to the last digit.
func sameRun(t *testing.T, what string, a, b aheadRun) {
	t.Helper()
	if a.r.Cycles != b.r.Cycles || a.stats != b.stats {
		t.Errorf("%s: %v cycles, %+v; live %v, %+v", what, b.r.Cycles, b.stats, a.r.Cycles, a.stats)
	}
	if len(a.r.Counters) != len(b.r.Counters) {
		t.Fatalf("%s: %d counters, live %d", what, len(b.r.Counters), len(a.r.Counters))
	}
	for i, c := range a.r.Counters {
		if o := b.r.Counters[i]; o.Name != c.Name || o.Value != c.Value {
			t.Errorf("%s: %s %v, live %s %v", what, o.Name, o.Value, c.Name, c.Value)
		}
	}
	for core := range a.r.PerCore {
		for i, c := range a.r.PerCore[core] {
			if o := b.r.PerCore[core][i]; o.Value != c.Value {
				t.Errorf("%s: core %d %s %v, live %v", what, core, c.Name, o.Value, c.Value)
			}
		}
	}
	if (a.r.Sampling == nil) != (b.r.Sampling == nil) || a.r.Sampling != nil && *a.r.Sampling != *b.r.Sampling {
		t.Errorf("%s: sampling %+v, live %+v", what, b.r.Sampling, a.r.Sampling)
	}
	for i := range a.bufs {
		if !bytes.Equal(a.bufs[i], b.bufs[i]) {
			t.Errorf("%s: buffer %d differs from the live run's", what, i)
		}
	}
}

// reduceJob sums n values in work-groups of 128 (a barrier after each
// halving step: several warps a work-group on every family).
func reduceJob(t *testing.T, gpu string, n int) *job {
	g, err := arch.Lookup(gpu)
	if err != nil {
		t.Fatal(err)
	}
	return newJobOn(t, g, "reduce", n, 128, func(m *emu.Memory) []emu.ParamValue {
		in := m.Alloc(4*n, "in", true)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(in.Data[4*i:], uint32(i))
		}
		out := m.Alloc(4*(n/128), "out", false)
		return []emu.ParamValue{{Slots: []uint64{in.Base}}, {Slots: []uint64{out.Base}}, {LocalBytes: 512}, {Slots: []uint64{uint64(n)}}}
	})
}

// divergentJob runs each work-item its own trip counts.
func divergentJob(t *testing.T, gpu string, n int) *job {
	return newJob(t, gpu, "divergent", n, func(m *emu.Memory) []emu.ParamValue {
		trips := m.Alloc(4*n, "trips", true)
		r := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(trips.Data[4*i:], r.Uint32())
		}
		out := m.Alloc(4*n, "out", false)
		return []emu.ParamValue{{Slots: []uint64{trips.Base}}, {Slots: []uint64{out.Base}}}
	})
}

// A dispatch whose executor runs ahead on another thread, replayed by the
// engine, gives the live run's cycles, counters, counts and buffers, to
// the last digit: with barriers, divergence and memory- and ALU-bound
// work on every family, and with every task handed over live part-way.
func TestAheadMatchesLive(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		long := fmaJob(t, gpu, 1024, 700) // warps of more than a round's blocks
		for _, j := range []*job{streamJob(t, gpu), aluJob(t, gpu), reduceJob(t, gpu, 4096), divergentJob(t, gpu, 2048), long} {
			live := runAhead(t, j, "live", false)
			for _, mode := range []string{"ahead", "handover"} {
				what := gpu + " " + j.low.IR.Entry + " " + mode
				r := runAhead(t, j, mode, false)
				sameRun(t, what, live, r)
				if mode == "handover" && (j == long || j.low.IR.Entry == "reduce" && j.low.WarpWidth < 128) && r.handedOver == 0 {
					t.Errorf("%s: no task handed over (%d recorded)", what, r.recorded)
				}
			}
		}
	}
}

// A sampled run whose producer ran ahead of the fast-forward takes the
// tasks it recorded over instead of running them again: the same
// projection, counters and buffers as sampled live.
func TestAheadSampledMatchesLive(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		j := streamJobN(t, gpu, 1<<18)
		live := runAhead(t, j, "live", true)
		if live.r.Sampling == nil {
			t.Fatalf("%s: not sampled", gpu)
		}
		for _, mode := range []string{"ahead", "handover"} {
			sameRun(t, gpu+" sampled "+mode, live, runAhead(t, j, mode, true))
		}
	}
}

// A kernel that faults part-way (vecadd storing past its output buffer
// from the middle of the grid on) stops the run with the fault the live
// run reports: the engine reports a recorded fault when it reaches it.
func TestAheadFaultsAsLive(t *testing.T) {
	const n = 8192
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		j := newJob(t, gpu, "vecadd", n, func(m *emu.Memory) []emu.ParamValue {
			a, b, c := m.Alloc(4*n, "a", true), m.Alloc(4*n, "b", true), m.Alloc(2*n, "c", false)
			return []emu.ParamValue{{Slots: []uint64{a.Base}}, {Slots: []uint64{b.Base}}, {Slots: []uint64{c.Base}}, {Slots: []uint64{n}}}
		})
		var want string
		for _, mode := range []string{"live", "ahead", "handover"} {
			e, _ := aheadEngine(t, j, mode)
			_, err := e.Run()
			var f *emu.Fault
			if !errors.As(err, &f) {
				t.Fatalf("%s %s: %v, want a fault", gpu, mode, err)
			}
			if want == "" {
				want = err.Error()
			} else if err.Error() != want {
				t.Errorf("%s %s: %v, live: %s", gpu, mode, err, want)
			}
		}
	}
}

// aheadEngine makes the job's engine on two host threads in the given
// mode: live, ahead, or handover (every task handed over live after 2 KiB
// of records, three tasks ahead at most).
func aheadEngine(t *testing.T, j *job, mode string) (*timing.Engine, *emu.Dispatch) {
	t.Helper()
	d := j.dispatch(t)
	d.Threads = 2
	e, err := timing.New(timing.Config{GPU: j.g, Dispatch: d, Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "live":
		e.DisableAhead()
	case "handover":
		if err := e.LimitAhead(2<<10, 3); err != nil {
			t.Fatal(err)
		}
	}
	return e, d
}
