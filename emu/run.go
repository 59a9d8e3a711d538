package emu

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrBudget reports a kernel that ran past its instruction budget.
var ErrBudget = errors.New("instruction budget exhausted")

// slice is how many blocks a functional run lets a warp run at a time,
// between looking at its work-group's barrier and at the run's budget,
// context and progress.
const slice = 256

// Run executes the whole NDRange functionally. Work-groups that cannot
// observe each other's order run in parallel on Threads host threads
// (parallel.go); the others in order, a window of them interleaved, each
// warp run for a slice of blocks at a time.
func (d *Dispatch) Run() error {
	if d.independent() {
		return d.runParallel(0, d.Tasks(), true)
	}
	return d.runWindowed(0, d.Tasks(), true)
}

// RunTasks runs tasks [lo, hi) of the dispatch (see Tasks and NewTask) to
// completion functionally, in parallel where Run would be. It may be
// called while other tasks of the dispatch are live (made by NewTask and
// stepped by the caller, who does not step them during the call): the
// tasks it runs use warps of their own and add their counts to Stats. It
// stops on the context, the budget and the stall check as Run does, but
// calls no Progress: the caller reports its own. Tasks that wait through
// global atomics on a live task the caller holds would wait for ever (and
// be stopped as stalled).
func (d *Dispatch) RunTasks(lo, hi int) error {
	if lo < 0 || hi > d.Tasks() || lo > hi {
		return fmt.Errorf("kernel %s: tasks [%d, %d) are not within the dispatch's %d", d.Prog.Entry, lo, hi, d.Tasks())
	}
	if d.independent() {
		return d.runParallel(lo, hi, false)
	}
	return d.runWindowed(lo, hi, false)
}

// RunTasksWarming is RunTasks recording every memory access the tasks
// make: after each batch of tasks it calls warm with each task's accesses,
// in task order, on the calling goroutine (sampled simulation warms the
// caches with them). Only for a dispatch whose work-groups are
// Independent.
func (d *Dispatch) RunTasksWarming(lo, hi int, warm func(task int, tr *Trace)) error {
	if lo < 0 || hi > d.Tasks() || lo > hi {
		return fmt.Errorf("kernel %s: tasks [%d, %d) are not within the dispatch's %d", d.Prog.Entry, lo, hi, d.Tasks())
	}
	if !d.independent() {
		return fmt.Errorf("kernel %s: its work-groups are not independent; they cannot be run out of order", d.Prog.Entry)
	}
	batch := 4 * d.threads(hi-lo)
	traces := make([]Trace, batch)
	for i := range traces {
		traces[i].keep = true
	}
	for at := lo; at < hi; at += batch {
		end := min(at+batch, hi)
		for i := range traces {
			traces[i].Accesses, traces[i].Addrs = traces[i].Accesses[:0], traces[i].Addrs[:0]
		}
		d.recording = func(task int) *Trace { return &traces[task-at] }
		err := d.runParallel(at, end, false)
		d.recording = nil
		if err != nil {
			return err
		}
		for i := at; i < end; i++ {
			warm(i, &traces[i-at])
		}
	}
	return nil
}

// threads is how many host threads a run of n tasks uses.
func (d *Dispatch) threads(n int) int {
	t := d.Threads
	if t <= 0 {
		t = runtime.GOMAXPROCS(0)
	}
	return max(min(t, n), 1)
}

// runWindowed runs tasks [lo, hi) in order, Window of them interleaved so
// that work-groups waiting on each other through atomics progress.
// Progress is reported when report is set (Run).
func (d *Dispatch) runWindowed(lo, hi int, report bool) error {
	window := max(d.Window, 1)
	h := d.own()
	base := 0
	if !report {
		base = d.tasksDone
	}
	var active []*WorkGroup
	next, groupsDone := lo, 0
	defer func() { d.countTasksDone(report, groupsDone) }()
	for next < hi || len(active) > 0 {
		for len(active) < window && next < hi {
			active = append(active, d.newTask(h, next))
			next++
		}
		keep := active[:0]
		for _, wg := range active {
			for _, w := range wg.Round() {
				if w.status == Running {
					d.lastStepped = w
					w.run(slice, h.stats)
				}
			}
			done, err := wg.Sync()
			if err != nil {
				return err
			}
			if done {
				groupsDone += wg.Groups
				d.Release(wg)
			} else {
				keep = append(keep, wg)
			}
		}
		active = keep
		if err := d.check(base+groupsDone, 0, report); err != nil {
			return err
		}
	}
	return nil
}

// countTasksDone adds the work-groups a RunTasks call finished to those
// its checkpoints count from.
func (d *Dispatch) countTasksDone(report bool, groups int) {
	if !report {
		d.tasksDone += groups
	}
}
