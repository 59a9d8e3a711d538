package timing

import (
	"fmt"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/emu"
)

// taskRecord is one task of a compute dispatch as the producer ran it
// (ahead.go): each warp's blocks in order, with the accesses and printf
// output they made, and how the task ended. The engine replays a warp's
// blocks as it would step the live warp (replayRecorded); sampled
// simulation may take a record over instead (sampling.go).
type taskRecord struct {
	task  int
	run   emu.TaskRun
	warps [][]recordedBlock // per warp of the task
	// Every block's accesses and printf output, in the order the blocks
	// ran; an access's Start is its place in addrs. printed has the
	// blocks that printed (few do): warp and block index, to out's span.
	acc     []emu.Access
	addrs   []uint64
	out     []byte
	printed map[[2]int32][2]int32
	// last is the active lanes of the last block run (what a trace that
	// gathers the whole task's accesses holds; see warming).
	last  emu.Mask
	bytes int // what the record holds, for the producer's bound
}

// recordedBlock is one block a warp ran. (32 bytes: the engine reads
// them back from memory the producer's core wrote.)
type recordedBlock struct {
	emu.Stepped
	acc0, acc1 int32 // its accesses: acc[acc0:acc1]
}

// noBlocks is a recorded warp without blocks: not nil, so that the warp
// is replayed (and fails, unless it goes on live).
var noBlocks = []recordedBlock{}

// Sizes for a record's bytes.
const (
	blockBytes  = int(unsafe.Sizeof(recordedBlock{}))
	accessBytes = int(unsafe.Sizeof(emu.Access{}))
)

// reset empties the record for task i, keeping its buffers.
func (r *taskRecord) reset(i int) {
	for j := range r.warps {
		r.warps[j] = r.warps[j][:0]
	}
	r.warps = r.warps[:0]
	clear(r.printed)
	*r = taskRecord{task: i, warps: r.warps, acc: r.acc[:0], addrs: r.addrs[:0], out: r.out[:0], printed: r.printed}
}

// reserve sizes the record's buffers for a task like the last: blocks
// per warp, accesses and addresses.
func (r *taskRecord) reserve(blocks []int, acc, addrs int) {
	r.warps = r.warps[:cap(r.warps)]
	for len(r.warps) < len(blocks) {
		r.warps = append(r.warps, nil)
	}
	for j, n := range blocks {
		if cap(r.warps[j]) < n {
			r.warps[j] = make([]recordedBlock, 0, n)
		}
	}
	r.warps = r.warps[:0]
	if cap(r.acc) < acc {
		r.acc = make([]emu.Access, 0, acc)
	}
	if cap(r.addrs) < addrs {
		r.addrs = make([]uint64, 0, addrs)
	}
}

// add appends a block warp ran (emu.Recorder.Task's step).
func (r *taskRecord) add(warp int, s *emu.Stepped, tr *emu.Trace, printed []byte) {
	for len(r.warps) <= warp {
		if len(r.warps) < cap(r.warps) {
			r.warps = r.warps[:len(r.warps)+1]
		} else {
			r.warps = append(r.warps, nil)
		}
	}
	b := recordedBlock{Stepped: *s, acc0: int32(len(r.acc))}
	base := len(r.addrs)
	r.addrs = append(r.addrs, tr.Addrs...)
	for _, a := range tr.Accesses {
		a.Start += base
		r.acc = append(r.acc, a)
	}
	b.acc1 = int32(len(r.acc))
	if len(printed) > 0 {
		if r.printed == nil {
			r.printed = map[[2]int32][2]int32{}
		}
		r.printed[[2]int32{int32(warp), int32(len(r.warps[warp]))}] = [2]int32{int32(len(r.out)), int32(len(r.out) + len(printed))}
		r.out = append(r.out, printed...)
	}
	r.warps[warp] = append(r.warps[warp], b)
	if s.Ran {
		r.last = s.Active
	}
	r.bytes += blockBytes + accessBytes*len(tr.Accesses) + 8*len(tr.Addrs) + len(printed)
}

// capacity is the bytes the record's buffers hold, used or not.
func (r *taskRecord) capacity() int {
	n := accessBytes*cap(r.acc) + 8*cap(r.addrs) + cap(r.out)
	for _, w := range r.warps[:cap(r.warps)] {
		n += blockBytes * cap(w)
	}
	return n
}

// replayRecorded points w at its next recorded block, as stepping the
// live warp would have: its trace (a view of the record's accesses), the
// executor's counts, its printf output. It returns the warp's status
// after the block and, when it faulted, the fault. Past the record of a
// task handed over live, it steps the live warp.
func (e *Engine) replayRecorded(w *warpState) (emu.Status, error) {
	at := w.rpAt
	if at == len(w.blocks) {
		return e.goLive(w)
	}
	b := &w.blocks[at]
	w.rpAt++
	r := w.wg.rec
	w.trace.Block, w.trace.Active = b.Block, b.Active
	w.trace.Accesses = r.acc[b.acc0:b.acc1:b.acc1]
	w.trace.Addrs = r.addrs[:len(r.addrs):len(r.addrs)]
	w.view = true
	d := w.k.d
	d.Replay(&b.Stepped)
	if len(r.printed) > 0 || b.Status == emu.Faulted {
		// Rare: find the warp's place in its task.
		warp := 0
		for i, x := range w.wg.warps {
			if x == w {
				warp = i
			}
		}
		if s, ok := r.printed[[2]int32{int32(warp), int32(at)}]; ok && d.Printf != nil {
			d.Printf.Write(r.out[s[0]:s[1]])
		}
		if b.Status == emu.Faulted {
			if warp < len(r.run.Faults) && r.run.Faults[warp] != nil {
				return b.Status, r.run.Faults[warp]
			}
			return b.Status, fmt.Errorf("internal: a warp of task %d of %s faulted without a fault", r.task, w.k.Name)
		}
	}
	return b.Status, nil
}

// goLive has a warp whose record is used up go on live: its task was
// handed over live (wgState.wg) where the record ends.
func (e *Engine) goLive(w *warpState) (emu.Status, error) {
	if w.w == nil {
		return emu.Faulted, fmt.Errorf("internal: a warp of task %d of %s ran past its record", w.wg.rec.task, w.k.Name)
	}
	w.blocks = nil
	// The executor must not write into the record.
	w.trace.Accesses, w.trace.Addrs, w.view = nil, nil, false
	w.w.Trace = &w.trace
	st := w.w.Step()
	if st == emu.Faulted {
		return st, w.w.Err()
	}
	return st, nil
}

// passBarrier lets the executor pass a work-group's barrier, the
// engine's next: a live work-group's warps are synchronised (Sync); a
// recorded one's producer passed its barriers already, up to the one
// that cannot be passed or the end of its recording (a task handed over
// live from there).
func (e *Engine) passBarrier(wg *wgState) error {
	if r := wg.rec; r != nil {
		wg.passed++
		switch {
		case wg.passed <= r.run.Syncs:
			return nil
		case r.run.SyncErr != nil:
			return r.run.SyncErr
		case r.run.Live == nil:
			return fmt.Errorf("internal: task %d of %s passed %d barriers; its record holds %d", r.task, wg.k.Name, wg.passed, r.run.Syncs)
		}
	}
	_, err := wg.wg.Sync()
	return err
}

// warming is a trace holding every access of the record's task, in the
// order they ran, as emu.Dispatch.RunTasksWarming hands a task's accesses
// to sampled simulation.
func (r *taskRecord) warming() emu.Trace {
	return emu.Trace{Active: r.last, Accesses: r.acc, Addrs: r.addrs}
}

// finish completes the record's task for sampled simulation, which skips
// it: what RunTasksWarming would have done had it run the task (counts,
// printf output, its fault), the rest of a task handed over live run
// functionally, and warm, when set, called with every access the task
// made.
func (r *taskRecord) finish(d *emu.Dispatch, warm func(task int, tr *emu.Trace)) error {
	d.Stats.Add(r.run.Stats)
	out := r.out
	if r.run.Err != nil {
		out = out[:r.run.ErrOutput]
	}
	if len(out) > 0 && d.Printf != nil {
		d.Printf.Write(out)
	}
	if r.run.Err != nil {
		return r.run.Err
	}
	tr := r.warming()
	if live := r.run.Live; live != nil {
		var gather *emu.Trace
		if warm != nil {
			gather = &tr
		}
		if err := d.FinishTask(live, gather); err != nil {
			return err
		}
	}
	if warm != nil {
		warm(r.task, &tr)
	}
	return nil
}
