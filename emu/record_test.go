package emu

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// describeStep is what a step gave the timing engine: its block, status,
// lanes and addresses.
func describeStep(s *Stepped, tr *Trace) string {
	b := fmt.Sprintf("%d %d %v %x", s.Block, s.Status, s.Ran, s.Active)
	for _, a := range tr.Accesses {
		b += fmt.Sprintf(" %s %v", a.Kind, tr.Addrs[a.Start:a.Start+a.N])
	}
	return b
}

// stepLive steps task i's warps as the timing engine does (each until it
// stops, then the barrier) and returns each warp's steps.
func stepLive(d *Dispatch, i int) [][]string {
	wg := d.NewTask(i)
	out := make([][]string, len(wg.Warps))
	traces := make([]Trace, len(wg.Warps))
	for {
		for j, w := range wg.Warps {
			w.Trace = &traces[j]
			for w.Status() == Running {
				blocks := w.Blocks
				st := w.Step()
				s := Stepped{Block: w.Trace.Block, Status: st, Ran: w.Blocks > blocks, Active: w.Trace.Active}
				out[j] = append(out[j], describeStep(&s, w.Trace))
			}
		}
		if done, err := wg.Sync(); done || err != nil {
			break
		}
	}
	d.Release(wg)
	return out
}

// recordLaunches are kernels with divergence, barriers and local memory,
// async copies and printf, each in work-groups of several warps.
func recordLaunches() []klaunch {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]int32, 64)
	for i := range in {
		in[i] = int32(r.IntN(40))
	}
	ramp := make([]int32, 96)
	for i := range ramp {
		ramp[i] = int32(i * 7)
	}
	return []klaunch{
		{file: "exec.spv", entry: "diverge", global: [3]int{64, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{&kbuf{data: le32(in...)}, filled(64, 0)}},
		{file: "exec.spv", entry: "local_at", global: [3]int{48, 1, 1}, local: [3]int{24, 1, 1},
			args: []any{klocal(4 * 24), filled(48, 0), kval(le32(0))}},
		{file: "async.spv", entry: "tile3", global: [3]int{32, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{&kbuf{data: le32(ramp...)}, filled(96, 0), klocal(4 * 48)}},
		{file: "exec.spv", entry: "say", global: [3]int{32, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{&kbuf{data: lef32(1, 2, 3, 4, 5, 6, 7, 8)}, &kbuf{data: []byte("hi\x00")}, kval(le32(8))}},
	}
}

// A Recorder's tasks run as a functional run runs them — the same
// buffers, counts and printf output — and each warp's recorded steps are
// those the warp gives stepped live.
func TestRecorderRunsAsRun(t *testing.T) {
	for _, l := range recordLaunches() {
		t.Run(l.entry, func(t *testing.T) {
			var runOut bytes.Buffer
			ref := l
			ref.args = cloneArgs(l.args)
			ref.setup = func(d *Dispatch) { d.Printf = &runOut }
			want := ref.mustRun(t)

			live := l
			live.args = cloneArgs(l.args)
			dl, _, err := live.dispatch(t)
			if err != nil {
				t.Fatal(err)
			}

			l.args = cloneArgs(l.args)
			var out bytes.Buffer
			l.setup = func(d *Dispatch) { d.Printf = &out }
			d, back, err := l.dispatch(t)
			if err != nil {
				t.Fatal(err)
			}
			r, err := d.NewRecorder()
			if err != nil {
				t.Fatal(err)
			}
			var stats Stats
			for i := 0; i < d.Tasks(); i++ {
				var got [][]string
				run := r.Task(i, func(warp int, s *Stepped, tr *Trace, printed []byte) bool {
					for len(got) <= warp {
						got = append(got, nil)
					}
					got[warp] = append(got[warp], describeStep(s, tr))
					out.Write(printed)
					return true
				})
				if run.Live != nil || run.Err != nil {
					t.Fatalf("task %d: %+v", i, run)
				}
				stats.Add(run.Stats)
				if want := stepLive(dl, i); !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("task %d: recorded\n%v\nstepped live\n%v", i, got, want)
				}
			}
			back()
			if stats != want.Stats || d.Stats != (Stats{}) {
				t.Errorf("recorded %+v (the dispatch's %+v), Run %+v", stats, d.Stats, want.Stats)
			}
			if out.String() != runOut.String() {
				t.Errorf("printed\n%s\nRun printed\n%s", out.String(), runOut.String())
			}
			for i := range l.args {
				if b, ok := l.args[i].(*kbuf); ok && !bytes.Equal(b.data, ref.args[i].(*kbuf).data) {
					t.Errorf("argument %d differs from Run's", i)
				}
			}
		})
	}
}

// A recording stopped early hands the task over live; finished by
// FinishTask it gives Run's buffers and counts. Replaying the recorded
// steps counts what they ran.
func TestRecorderStopsLive(t *testing.T) {
	for _, l := range recordLaunches()[:3] {
		for _, stopAfter := range []int{1, 3, 7} {
			ref := l
			ref.args = cloneArgs(l.args)
			want := ref.mustRun(t)
			l := l
			l.args = cloneArgs(l.args)
			d, back, err := l.dispatch(t)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := d.NewRecorder()
			for i := 0; i < d.Tasks(); i++ {
				var steps []Stepped
				run := r.Task(i, func(_ int, s *Stepped, _ *Trace, _ []byte) bool {
					steps = append(steps, *s)
					return len(steps) < stopAfter
				})
				before := d.Stats
				d.ReplayTask(&run)
				for k := range steps {
					d.Replay(&steps[k])
				}
				replayed := d.Stats
				replayed.WorkGroups -= before.WorkGroups
				replayed.Warps -= before.Warps
				replayed.WarpInsts -= before.WarpInsts
				replayed.ThreadInsts -= before.ThreadInsts
				replayed.Blocks -= before.Blocks
				if replayed != run.Stats {
					t.Errorf("%s task %d: replayed %+v, recorded %+v", l.entry, i, replayed, run.Stats)
				}
				if run.Live != nil {
					if err := d.FinishTask(run.Live, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
			back()
			if d.Stats != want.Stats {
				t.Errorf("%s stopped after %d: %+v, Run %+v", l.entry, stopAfter, d.Stats, want.Stats)
			}
			for i := range l.args {
				if b, ok := l.args[i].(*kbuf); ok && !bytes.Equal(b.data, ref.args[i].(*kbuf).data) {
					t.Errorf("%s stopped after %d: argument %d differs from Run's", l.entry, stopAfter, i)
				}
			}
		}
	}
}

// Faults (an out-of-bounds store, a barrier inside divergent code) and a
// barrier that cannot be passed (a warp returned) are recorded as a
// functional run reports them.
func TestRecorderFaults(t *testing.T) {
	for _, c := range []struct {
		l    klaunch
		task int
		sync bool
	}{
		{klaunch{file: "exec.spv", entry: "late_fault", global: [3]int{64, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{filled(64, 0), kval(le32(2))}}, 2, false},
		{klaunch{file: "exec.spv", entry: "exit_then_barrier", global: [3]int{32, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{filled(32, 0)}}, 0, false},
		{klaunch{file: "exec.spv", entry: "warp_exits", global: [3]int{32, 1, 1}, local: [3]int{16, 1, 1},
			args: []any{filled(32, 0)}}, 0, true},
	} {
		ref := c.l
		ref.args = cloneArgs(c.l.args)
		_, want := ref.run(t)
		if want == nil {
			t.Fatalf("%s: Run did not fail", c.l.entry)
		}
		d, _, err := c.l.dispatch(t)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := d.NewRecorder()
		faulted := false
		run := r.Task(c.task, func(_ int, s *Stepped, _ *Trace, _ []byte) bool {
			faulted = faulted || s.Status == Faulted
			return true
		})
		if run.Err == nil || run.Err.Error() != want.Error() {
			t.Errorf("%s: recorded %v, Run %v", c.l.entry, run.Err, want)
		}
		if c.sync {
			if run.SyncErr == nil || run.Syncs != 0 || faulted {
				t.Errorf("%s: %+v", c.l.entry, run)
			}
		} else if !faulted || run.Faults == nil || run.Faults[0] != run.Err {
			t.Errorf("%s: faults %v", c.l.entry, run.Faults)
		}
	}
}

// A budget's message names the block a replayed warp was left in.
func TestReplayNamesBlock(t *testing.T) {
	l := klaunch{file: "exec.spv", entry: "spin", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
		args: []any{filled(1, 0), kval(le32(1))}, setup: func(d *Dispatch) { d.MaxWarpInsts = 1000 }}
	d, _, err := l.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := d.NewRecorder()
	run := r.Task(0, func(_ int, s *Stepped, _ *Trace, _ []byte) bool {
		d.Replay(s) // (on the same goroutine here)
		return d.Stats.WarpInsts < 2000
	})
	if run.Live == nil {
		t.Fatal("a spinning task was not handed over live")
	}
	err = d.Checkpoint(0, 0)
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "it was running block %") || !strings.Contains(err.Error(), "loop") {
		t.Errorf("%v, want the budget naming the loop", err)
	}
}

// cloneArgs copies a launch's buffers, so that two runs start alike.
func cloneArgs(args []any) []any {
	out := slices.Clone(args)
	for i, a := range out {
		if b, ok := a.(*kbuf); ok {
			out[i] = &kbuf{data: bytes.Clone(b.data), ro: b.ro}
		}
	}
	return out
}
