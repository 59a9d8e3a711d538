package emu

import (
	"bytes"
	"sync"

	"github.com/pocketgpu/pocketgpu/ir"
)

// A parallel functional run. Work-groups that cannot observe each other's
// order (the program has no atomics on global memory, the only means
// OpenCL gives the work-groups of one launch to talk) run to completion a
// task at a time on each of the dispatch's threads, taking tasks in order.
// The run's answers do not depend on the thread count: each worker counts
// into its own Stats and adds them to the dispatch's under a lock (sums
// whose order does not matter), printf output is held per task and
// written in task order, and a fault reports the lowest-numbered task that
// faulted (no task is started after a fault, those before it run to their
// end).
//
// Go's memory model lets goroutines write distinct bytes of one []byte
// at once. A racy kernel, whose work-groups read what others write in the
// same launch without atomics (undefined in OpenCL), reads at each byte
// its old value or one another work-group wrote, as the host's timing
// has it (a value wider than a byte may mix the two); a work-group
// waiting for another's plain store waits for ever when that one runs
// after it (on one thread, always), and is stopped as stalled or by its
// budget.

// Independent reports whether the dispatch's work-groups run in parallel:
// its program cannot make them observe each other's order, and no
// callback of the caller would be called from several threads. They may
// then also run in any order with the same results (sampled simulation
// fast-forwards only such dispatches).
func (d *Dispatch) Independent() bool { return d.independent() }

func (d *Dispatch) independent() bool {
	return d.Prog.independentGroups && d.InitLane == nil && d.Builtin == nil && d.WarpDone == nil
}

// independentGroups says whether a program's work-groups cannot observe
// each other's order: no atomic reaches global memory.
func independentGroups(p *ir.Program) bool {
	for _, a := range p.Atomics {
		if a.Space == ir.SpaceGlobal {
			return false
		}
	}
	return true
}

// worker is one thread of a parallel run. The dispatch keeps its workers,
// so that their warps serve every run (RunTasks is called many times).
type worker struct {
	host
	count Stats        // its host's stats: counted since it last added them up
	out   bytes.Buffer // the running task's printf output
	last  *Warp        // the warp it ran last, for a budget's message
}

// parallelRun is what the workers of one run share, under mu.
type parallelRun struct {
	d      *Dispatch
	report bool // call Progress (Run, not RunTasks)
	base   int  // work-groups counted as done before the run

	mu       sync.Mutex
	next, hi int   // the next task to start; one past the last
	done     int   // work-groups finished
	fault    int   // the lowest task that faulted (hi: none)
	faultErr error // its error
	stop     error // why a checkpoint stopped the run
	// Printf output is written for tasks before emitted; held keeps that
	// of tasks finished after it.
	emitted int
	held    map[int][]byte
}

// runParallel runs tasks [lo, hi) as described above, on the calling
// goroutine when one thread is enough.
func (d *Dispatch) runParallel(lo, hi int, report bool) error {
	r := &parallelRun{d: d, report: report, next: lo, hi: hi, fault: hi, emitted: lo}
	if !report {
		r.base = d.tasksDone
	}
	if d.Printf != nil {
		r.held = map[int][]byte{}
	}
	n := d.threads(hi - lo)
	for len(d.workers) < n {
		d.workers = append(d.workers, &worker{host: host{reuse: true}})
	}
	for _, wk := range d.workers[:n] {
		wk.host.stats, wk.printf = &wk.count, nil
		if d.Printf != nil {
			wk.printf = &wk.out
		}
	}
	if n == 1 {
		r.work(d.workers[0])
	} else {
		var wg sync.WaitGroup
		for _, wk := range d.workers[:n] {
			wg.Go(func() { r.work(wk) })
		}
		wg.Wait()
	}
	d.countTasksDone(report, r.done)
	if r.stop != nil {
		return r.stop
	}
	return r.faultErr
}

// work runs tasks until none is left to start.
func (r *parallelRun) work(wk *worker) {
	for {
		i, ok := r.claim()
		if !ok {
			return
		}
		wk.out.Reset()
		wg := r.d.newTask(&wk.host, i)
		if rec := r.d.recording; rec != nil {
			tr := rec(i)
			for _, w := range wg.Warps {
				w.Trace = tr
			}
		}
		for {
			for _, w := range wg.Round() {
				if w.status == Running {
					wk.last = w
					w.run(slice, &wk.count)
				}
			}
			done, err := wg.Sync()
			if err != nil || done {
				r.finish(wk, i, wg, err)
				break
			}
			if !r.flush(wk) {
				break
			}
		}
		for _, w := range wg.Warps {
			w.Trace = nil
		}
		r.d.release(&wk.host, wg)
	}
}

// claim takes the next task to start, if the run goes on.
func (r *parallelRun) claim() (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next >= r.hi || r.stop != nil || r.fault < r.hi {
		return 0, false
	}
	r.next++
	return r.next - 1, true
}

// finish records task i's end (err: its fault) and its printf output.
func (r *parallelRun) finish(wk *worker, i int, wg *WorkGroup, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addCounts(wk)
	if err != nil {
		if i < r.fault {
			r.fault, r.faultErr = i, err
		}
	} else {
		r.done += wg.Groups
	}
	if r.held != nil {
		r.held[i] = bytes.Clone(wk.out.Bytes())
		r.emit()
	}
	if err == nil && r.stop == nil {
		r.checkpoint(wk)
	}
}

// flush adds up a worker's counts between two slices of a long task and
// reports whether the run goes on.
func (r *parallelRun) flush(wk *worker) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addCounts(wk)
	if r.stop == nil {
		r.checkpoint(wk)
	}
	return r.stop == nil
}

func (r *parallelRun) addCounts(wk *worker) {
	r.d.Stats.Add(wk.count)
	wk.count = Stats{}
}

// checkpoint stops the run when the dispatch's checkpoint says so.
func (r *parallelRun) checkpoint(wk *worker) {
	r.d.lastStepped = wk.last
	if err := r.d.check(r.base+r.done, 0, r.report); err != nil {
		r.stop = err
	}
}

// emit writes the held printf output of the tasks next in order, up to the
// one that faulted (its output until the fault; none after it).
func (r *parallelRun) emit() {
	for r.emitted <= r.fault {
		out, ok := r.held[r.emitted]
		if !ok {
			return
		}
		delete(r.held, r.emitted)
		r.d.Printf.Write(out)
		r.emitted++
	}
}
