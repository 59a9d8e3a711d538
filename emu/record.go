package emu

import (
	"bytes"
	"fmt"
)

// Recording tasks for a timed run on another goroutine. The timing
// engine runs a warp's next block when the warp reaches it in simulated
// time; for an Independent dispatch the blocks do not depend on that time,
// so a Recorder can run the tasks ahead, on a goroutine of its own, and
// report every block each warp runs. The caller then replays them in its
// own order, counting each as Step would have (Replay, ReplayTask): its
// Stats and budget then move exactly as if it had stepped the warps
// itself, and the Recorder's own counts stay on the Recorder's side.

// Stepped is what one Step of a warp did, less its memory accesses (those
// are in the warp's Trace).
type Stepped struct {
	Block  int32 // the block it ran (as Trace.Block)
	Status Status
	// Ran says the step ran Block to its end and counted it; a step that
	// finds the warp's lanes all finished runs none (and leaves the trace
	// as it was).
	Ran    bool
	Active Mask // as Trace.Active
}

// TaskRun is how a Recorder's task ended.
type TaskRun struct {
	// Stats are what the recording ran: the task's work-groups and warps,
	// and every block it reported.
	Stats Stats
	// Faults holds, per warp, the fault of a warp whose last step
	// Faulted (nil for the others, or no faults at all).
	Faults []error
	// Syncs is how many barriers the work-group passed. SyncErr, when
	// set, is why the one after them cannot be passed (some work-items
	// returned before it): the caller's barrier fails with it.
	Syncs   int
	SyncErr error
	// Err is what a functional run (RunTasks) reports of the task, its
	// first fault or SyncErr, and ErrOutput how many bytes of its printf
	// output that run would have written by then.
	Err       error
	ErrOutput int
	// Live, when the recording was stopped before the task's end, is the
	// task with its warps where the recording left them, after a round
	// (and its barrier, if it passed one). The caller runs them on (Step,
	// calling Sync for barriers after the first Syncs) and releases it
	// (Release), or runs it to its end with FinishTask.
	Live *WorkGroup
}

// Recorder runs tasks of an Independent dispatch with warps, counts and
// printf output of its own, so that it may run on another goroutine than
// the caller's while the caller uses the dispatch (Replay, Step on other
// tasks' warps, RunTasks on other tasks).
type Recorder struct {
	d      *Dispatch
	h      host
	stats  Stats
	out    bytes.Buffer
	traces []Trace // per warp of the task: each warp's own, as a timed warp has
	step   Stepped // what step is told
}

// NewRecorder makes a Recorder for the dispatch, whose work-groups must
// be Independent.
func (d *Dispatch) NewRecorder() (*Recorder, error) {
	if !d.independent() {
		return nil, fmt.Errorf("kernel %s: its work-groups are not independent; they cannot be run ahead", d.Prog.Entry)
	}
	r := &Recorder{d: d}
	r.h = host{reuse: true, stats: &r.stats}
	if d.Printf != nil {
		r.h.printf = &r.out
	}
	return r, nil
}

// Task runs task i as a functional run does (its warps in turn, a slice of
// blocks each, the work-group synchronised after each round) and calls
// step after every block a warp runs: the warp's index, what the block
// did, the warp's trace of it and its printf output (both reused after
// the call). When step returns false the recording stops at the end of
// the round and the task comes back live (TaskRun.Live), unless it ended.
//
// A warp that faults does not stop the others: they run on to their next
// barrier or their end, as they would in a timed run until the fault is
// reached.
func (r *Recorder) Task(i int, step func(warp int, s *Stepped, tr *Trace, printed []byte) bool) TaskRun {
	d := r.d
	r.stats = Stats{}
	wg := d.newTask(&r.h, i)
	for len(r.traces) < len(wg.Warps) {
		r.traces = append(r.traces, Trace{})
	}
	var run TaskRun
	more, printed := true, 0
	for {
		for j, w := range wg.Round() {
			w.Trace = &r.traces[j]
			for n := 0; n < slice && w.status == Running; n++ {
				blocks := w.Blocks
				st := w.run(1, &r.stats)
				r.step = Stepped{Block: w.Trace.Block, Status: st, Ran: w.Blocks > blocks, Active: w.Trace.Active}
				out := r.out.Bytes()
				printed += len(out)
				if !step(j, &r.step, w.Trace, out) {
					more = false
				}
				r.out.Reset()
			}
		}
		if run.Err == nil {
			if err := firstFault(wg); err != nil {
				run.Err, run.ErrOutput = err, printed
			}
		}
		if run.Err != nil {
			// A fault: the barrier will not open; the other warps run on.
			if !anyRunning(wg) {
				break
			}
			if !more {
				run.Live = wg
				break
			}
			continue
		}
		full := barrierFull(wg)
		done, err := wg.Sync()
		if err != nil {
			run.SyncErr, run.Err, run.ErrOutput = err, err, printed
			break
		}
		if done {
			break
		}
		if full {
			run.Syncs++
		} else if !anyRunning(wg) {
			run.Err = fmt.Errorf("internal: work-group %d stopped with no warp running", wg.Index)
			break
		}
		if !more {
			run.Live = wg
			break
		}
	}
	run.Stats = r.stats
	for j, w := range wg.Warps {
		if w.status == Faulted {
			if run.Faults == nil {
				run.Faults = make([]error, len(wg.Warps))
			}
			run.Faults[j] = w.err
		}
		w.Trace = nil
		w.out = d.Printf // a live task's warps print on the caller's side
	}
	if run.Live == nil {
		d.release(&r.h, wg)
	}
	return run
}

// firstFault is the fault of the first warp, in order, that faulted.
func firstFault(wg *WorkGroup) error {
	for _, w := range wg.Warps {
		if w.status == Faulted {
			return w.err
		}
	}
	return nil
}

func anyRunning(wg *WorkGroup) bool {
	for _, w := range wg.Warps {
		if w.status == Running {
			return true
		}
	}
	return false
}

// barrierFull reports whether every warp not done waits at a barrier.
func barrierFull(wg *WorkGroup) bool {
	waiting := 0
	for _, w := range wg.Warps {
		switch w.status {
		case AtBarrier:
			waiting++
		case Running, Faulted:
			return false
		}
	}
	return waiting > 0
}

// Replay counts on the caller's side a block a Recorder ran, as Step
// counts one it runs (Stats), and has a budget's message name it as the
// block the warp run last is in.
func (d *Dispatch) Replay(s *Stepped) {
	if s.Ran && int(s.Block) < len(d.Prog.Blocks) {
		// As block counts: its instructions and its terminator.
		b := &d.Prog.Blocks[s.Block]
		n := uint64(b.End-b.Start) + 1
		d.Stats.WarpInsts += n
		d.Stats.ThreadInsts += n * uint64(s.Active.Count())
		d.Stats.Blocks++
	}
	d.lastStepped = nil
	d.replayed, d.running = s.Block, s.Status == Running || s.Status == AtBarrier
}

// ReplayTask counts on the caller's side a task a Recorder ran, as
// NewTask counts the task it makes (its blocks are counted by Replay).
//
// Its local accesses out of bounds are counted here too, for the whole
// recording, so a run stopped part-way may count some a live run would
// not have reached yet.
func (d *Dispatch) ReplayTask(t *TaskRun) {
	d.Stats.WorkGroups += t.Stats.WorkGroups
	d.Stats.Warps += t.Stats.Warps
	d.Stats.addOutOfBounds(t.Stats.LocalOutOfBounds, t.Stats.LocalOutOfBoundsSite)
}

// FinishTask runs a task a Recorder stopped (TaskRun.Live) to its end
// functionally, on the caller's side, as a functional run would have gone
// on with it: counted in Stats, printing to Printf, stopped by the
// budget, the stall check and the context as RunTasks is. It releases
// the task. tr, when set, gathers the accesses it makes after those it
// holds (sampled simulation warms the caches with them).
func (d *Dispatch) FinishTask(wg *WorkGroup, tr *Trace) error {
	h := d.own()
	if tr != nil {
		tr.keep = true
		defer func() { tr.keep = false }()
	}
	defer func() {
		for _, w := range wg.Warps {
			w.Trace = nil
		}
		d.release(h, wg)
	}()
	for {
		for _, w := range wg.Round() {
			if w.status == Running {
				w.Trace = tr
				d.lastStepped = w
				w.run(slice, h.stats)
			}
		}
		done, err := wg.Sync()
		if err != nil || done {
			return err
		}
		if err := d.check(d.tasksDone, 0, false); err != nil {
			return err
		}
	}
}

// HostThreads is how many host threads the dispatch's runs use
// (Threads, or runtime.GOMAXPROCS when it is 0).
func (d *Dispatch) HostThreads() int { return d.threads(int(^uint(0) >> 1)) }

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.WorkGroups += o.WorkGroups
	s.Warps += o.Warps
	s.WarpInsts += o.WarpInsts
	s.ThreadInsts += o.ThreadInsts
	s.Blocks += o.Blocks
	s.addOutOfBounds(o.LocalOutOfBounds, o.LocalOutOfBoundsSite)
}
