package emu

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Only atomics on global memory let work-groups observe each other's
// order; local ones stay within a work-group.
func TestIndependentGroups(t *testing.T) {
	for _, c := range []struct {
		spaces []ir.Space
		want   bool
	}{{nil, true}, {[]ir.Space{ir.SpaceLocal}, true}, {[]ir.Space{ir.SpaceLocal, ir.SpaceGlobal}, false}} {
		p := &ir.Program{}
		for _, s := range c.spaces {
			p.Atomics = append(p.Atomics, ir.AtomicInfo{Space: s})
		}
		if got := independentGroups(p); got != c.want {
			t.Errorf("atomics in %v: independent %v, want %v", c.spaces, got, c.want)
		}
	}
	if p := loadKernel(t, "exec.spv", "order"); p.independentGroups {
		t.Error("order (global atomics) may run its work-groups in parallel")
	}
	if p := loadKernel(t, "exec.spv", "diverge"); !p.independentGroups {
		t.Error("diverge may not run its work-groups in parallel")
	}
}

// A fault reports the lowest-numbered work-group that faults whatever the
// thread count, though with several threads a later one faults first.
func TestParallelReportsLowestFault(t *testing.T) {
	var first string
	for _, threads := range []int{1, 2, 3} {
		l := klaunch{file: "exec.spv", entry: "late_fault", global: [3]int{128, 1, 1}, local: [3]int{8, 1, 1},
			args:  []any{filled(128, 0), kval(le32(5))},
			setup: func(d *Dispatch) { d.Threads = threads }}
		_, err := l.run(t)
		var f *Fault
		if !errors.As(err, &f) || f.Group != [3]int{5, 0, 0} {
			t.Fatalf("%d threads: %v, want a fault in work-group 5", threads, err)
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Errorf("%d threads: %q, one thread: %q", threads, err, first)
		}
	}
}

// RunTasks runs some tasks to completion while another, made by NewTask,
// is live and stepped by the caller: together they give what Run gives,
// buffers and counters.
func TestRunTasksBesideLiveTask(t *testing.T) {
	const n, local = 256, 16
	r := rand.New(rand.NewPCG(1, 2))
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(r.IntN(40))
	}
	launch := func(threads int) klaunch {
		return klaunch{file: "exec.spv", entry: "diverge", global: [3]int{n, 1, 1}, local: [3]int{local, 1, 1},
			args:  []any{&kbuf{data: le32(in...)}, filled(n, 0)},
			setup: func(d *Dispatch) { d.Threads = threads }}
	}
	l := launch(1)
	want := l.mustRun(t)
	wantOut := bytes.Clone(l.args[1].(*kbuf).data)
	for _, threads := range []int{1, 2, 3} {
		l := launch(threads)
		d, back, err := l.dispatch(t)
		if err != nil {
			t.Fatal(err)
		}
		live := d.NewTask(0)
		for _, w := range live.Warps {
			w.Step()
		}
		if err := d.RunTasks(1, 9); err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			for _, w := range live.Warps {
				if w.Status() == Running {
					w.Step()
				}
			}
			if done, err = live.Sync(); err != nil {
				t.Fatal(err)
			}
		}
		d.Release(live)
		if err := d.RunTasks(9, d.Tasks()); err != nil {
			t.Fatal(err)
		}
		back()
		if d.Stats != want.Stats {
			t.Errorf("%d threads: RunTasks beside a live task counted %+v, Run %+v", threads, d.Stats, want.Stats)
		}
		if !bytes.Equal(l.args[1].(*kbuf).data, wantOut) {
			t.Errorf("%d threads: RunTasks beside a live task wrote other results than Run", threads)
		}
	}
}

// RunTasks refuses a range outside the dispatch, and runs a kernel whose
// work-groups talk through global atomics in order, as Run does.
func TestRunTasksRanges(t *testing.T) {
	l := klaunch{file: "exec.spv", entry: "order", global: [3]int{32, 1, 1}, local: [3]int{8, 1, 1},
		args: []any{filled(1, 0), filled(32, -1), &kbuf{data: make([]byte, 16)}}}
	d, back, err := l.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int{{-1, 2}, {3, 2}, {0, 5}} {
		if err := d.RunTasks(r[0], r[1]); err == nil || !strings.Contains(err.Error(), "not within the dispatch's 4") {
			t.Errorf("RunTasks(%d, %d): %v", r[0], r[1], err)
		}
	}
	if err := d.RunTasks(2, 4); err != nil {
		t.Fatal(err)
	}
	back()
	if d.Stats.WorkGroups != 2 || at32(l.args[0].(*kbuf).data, 0) != 16 {
		t.Errorf("RunTasks(2, 4) of order: %+v, counter %d", d.Stats, at32(l.args[0].(*kbuf).data, 0))
	}
	for i := 0; i < 16; i++ {
		if at32(l.args[1].(*kbuf).data, i) != -1 || at32(l.args[1].(*kbuf).data, 16+i) != int32(i) {
			t.Fatalf("RunTasks(2, 4) of order saw %v", l.args[1].(*kbuf).data)
		}
	}
}
