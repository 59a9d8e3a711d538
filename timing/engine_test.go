package timing_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// An engine with neither kernels nor events has nothing to run; one with
// only events runs them and reports their time and the memory counters.
func TestRunEventsOnly(t *testing.T) {
	j := aluJob(t, "mali-g52")
	if _, err := timing.NewEngine(j.g, nil).Run(); err == nil || !strings.Contains(err.Error(), "nothing to run") {
		t.Errorf("an empty engine: %v", err)
	}
	e := timing.NewEngine(j.g, nil)
	var at []float64
	e.At(300, func(t float64) { at = append(at, t) })
	e.At(100, func(t float64) {
		at = append(at, t)
		e.At(t+50, func(t float64) { at = append(at, t) })
	})
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(at) != 3 || at[0] != 100 || at[1] != 150 || at[2] != 300 || r.Cycles != 300 {
		t.Errorf("events at %v, run of %v cycles", at, r.Cycles)
	}
	if r.Counters.Value("warp_instructions") != 0 || r.Counters.Value("mem_loads") != 0 {
		t.Errorf("counters of an idle run: %v", r.Counters)
	}
}

// A checkpoint that says stop ends the run there: Run returns its error
// and the counters so far.
func TestCheckpointStopsRun(t *testing.T) {
	j := fmaJob(t, "mali-g52", 16384, 64)
	full, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
	if err != nil {
		t.Fatal(err)
	}
	all, err := full.Run()
	if err != nil {
		t.Fatal(err)
	}
	e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	calls := 0
	e.SetCheckpoint(func(float64) error {
		if calls++; calls == 3 {
			return stop
		}
		return nil
	})
	r, err := e.Run()
	if !errors.Is(err, stop) || r == nil {
		t.Fatalf("Run = %v, %v; want the counters so far and the checkpoint's error", r, err)
	}
	if r.Cycles <= 0 || r.Cycles >= all.Cycles || r.Counters.Value("groups_issued") >= all.Counters.Value("groups_issued") {
		t.Errorf("stopped at %v cycles, %v groups; the whole run %v, %v", r.Cycles, r.Counters.Value("groups_issued"), all.Cycles, all.Counters.Value("groups_issued"))
	}
}

// A gated kernel launches nothing until it is released, then runs to its
// end, and OnDone is called when its last work-group retires. (That is
// the last the engine processes: a work-group retired earlier whose stores
// complete later can end after it, so End may be later than OnDone's
// time.)
func TestGateRelease(t *testing.T) {
	j := aluJob(t, "adreno-640")
	e := timing.NewEngine(j.g, mem.New(j.g))
	k, err := e.AddCompute(j.dispatch(t), j.low, j.occ)
	if err != nil {
		t.Fatal(err)
	}
	k.Gate()
	var done float64
	k.OnDone = func(t float64) { done = t }
	e.At(5000, func(t float64) { e.Release(k, t) })
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if k.Start != 5000 || k.End <= k.Start || done <= k.Start || done > k.End || r.Cycles < k.End {
		t.Errorf("started %v, ended %v, OnDone at %v, run %v cycles", k.Start, k.End, done, r.Cycles)
	}
}

// A traced run reports the same counters; its engine slices hold every
// group issued (their groups arguments add up to groups_issued), and a
// caller's slice lands on its own track.
func TestTraceAddsUp(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		for _, mk := range []func(*testing.T, string) *job{streamJob, aluJob} {
			j := mk(t, gpu)
			run := func(tr *trace.Trace) (*timing.Engine, *timing.Result) {
				e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
				if err != nil {
					t.Fatal(err)
				}
				if tr != nil {
					e.EnableTrace(tr)
				}
				r, err := e.Run()
				if err != nil {
					t.Fatal(err)
				}
				return e, r
			}
			_, plain := run(nil)
			tr := trace.New("gpu", 200)
			e, r := run(tr)
			name := gpu + " " + j.low.IR.Entry
			if !e.Tracing() || !plain.Counters.Equal(r.Counters) {
				t.Errorf("%s: tracing %v; counters the same: %v", name, e.Tracing(), plain.Counters.Equal(r.Counters))
			}
			e.TraceSlice([]string{"Jobs", "compute"}, 0, r.Cycles, "job")
			var b bytes.Buffer
			if _, err := tr.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			d, slices, err := trace.DecodeSlices(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			var groups uint64
			jobs := 0
			for _, s := range slices {
				p := d.Path(s.Track)
				if strings.Contains(p, "/engine ") {
					groups += s.Args["groups"].(uint64)
				}
				if p == "Jobs/compute" {
					jobs++
				}
			}
			if float64(groups) != r.Counters.Value("groups_issued") || jobs != 1 {
				t.Errorf("%s: slices hold %d groups of %v issued; %d job slices", name, groups, r.Counters.Value("groups_issued"), jobs)
			}
		}
	}
}
