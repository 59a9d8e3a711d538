package timing

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/emu"
)

// This file runs a compute dispatch's executor ahead of the engine, on a
// second host thread. The blocks an Independent dispatch's warps run, and
// the addresses they touch, do not depend on when the engine issues them,
// so a producer goroutine runs the tasks functionally in task order
// (emu.Recorder) and records each warp's blocks (taskRecord), while the
// engine, as it launches each task, replays the recorded blocks instead
// of stepping live warps: the same blocks in the same simulated order, so
// the same results, cycles and counters, with the executor's half of the
// work off the engine's thread. The producer keeps at most a few waves of
// tasks ahead, within a byte budget, and reuses their records.

// producer runs a dispatch's tasks ahead of the engine.
//
// The engine takes tasks in order as it launches them (take): a task the
// producer has recorded is replayed; one it is recording is waited for;
// one it has not started the engine runs live itself. So the engine never
// waits for more than the task in hand, and when the producer falls
// behind (an executor-bound kernel, or a host whose other core is busy)
// the engine does part of the executor's work, as it did before; the
// producer then starts its next task lead tasks ahead of the engine. It
// starts after the first wave, which the engine launches at once and
// runs live.
type producer struct {
	rec   *emu.Recorder
	total int
	// lookahead is the most tasks recorded and not yet taken; maxBytes
	// the most bytes of records held (taken records included, until
	// they are recycled) before it waits; taskBytes how much one task
	// may record before it is handed over live. lead is how far ahead of
	// the engine the producer starts a task: when it has fallen behind,
	// it skips to there and the engine runs the tasks between live, so
	// that the engine seldom has to wait for the task it needs.
	lookahead, maxBytes, taskBytes, lead int
	// patient: the engine waits for every task from the producer's
	// first rather than run those it has not started (tests).
	patient bool
	// sizes are the last task's blocks per warp, and its accesses and
	// addresses, to size the next one's buffers.
	sizes struct {
		blocks     []int
		acc, addrs int
	}

	quit   atomic.Bool // stop the task being recorded (stop)
	exited chan struct{}

	mu    sync.Mutex
	more  sync.Cond // a record is published, or the producer is idle
	room  sync.Cond // the engine took or recycled a record, or resumed or stopped it
	ready []*taskRecord
	free  []*taskRecord
	// next is the next task the producer records (busy: it is recording
	// next-1); the engine has taken every task before taken. Recorded
	// tasks wait in ready, in order.
	next, taken int
	busy        bool
	paused      bool
	stopped     bool
	bytes       int // bytes of records published and not yet recycled
	// recorded counts the tasks recorded, handedOver those of them
	// handed over live.
	recorded, handedOver int
	// parked: the producer waits for room, until half its lookahead and
	// half its bytes are free (waking it for each task freed would cost
	// more than a small task).
	parked bool
}

// Bounds of a producer's records.
const (
	aheadBytes     = 32 << 20 // records held at once
	aheadTaskBytes = 8 << 20  // one task, before it is handed over live
)

// newProducer prepares a producer for dispatch d of total tasks, resident
// of which the GPU holds at once, starting at task first; run starts it.
func newProducer(d *emu.Dispatch, total, resident, first int) (*producer, error) {
	rec, err := d.NewRecorder()
	if err != nil {
		return nil, err
	}
	p := &producer{rec: rec, total: total, lookahead: 2*resident + 2, maxBytes: aheadBytes, taskBytes: aheadTaskBytes,
		lead: 2 + resident/8, exited: make(chan struct{}), next: first}
	p.more.L, p.room.L = &p.mu, &p.mu
	return p, nil
}

// run records tasks until stopped or none is left.
func (p *producer) run() {
	defer close(p.exited)
	for {
		r, ok := p.claim()
		if !ok {
			return
		}
		r.reserve(p.sizes.blocks, p.sizes.acc, p.sizes.addrs)
		r.run = p.rec.Task(r.task, func(warp int, s *emu.Stepped, tr *emu.Trace, printed []byte) bool {
			r.add(warp, s, tr, printed)
			return r.bytes < p.taskBytes && !p.quit.Load()
		})
		p.sizes.blocks = p.sizes.blocks[:0]
		for _, w := range r.warps {
			p.sizes.blocks = append(p.sizes.blocks, len(w))
		}
		p.sizes.acc, p.sizes.addrs = len(r.acc), len(r.addrs)
		p.publish(r)
	}
}

// claim waits until the next task may be recorded and returns an empty
// record for it, or false once stopped or done.
func (p *producer) claim() (*taskRecord, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.stopped && (p.paused || p.next >= p.total || p.full()) {
		if p.next >= p.total && !p.paused {
			return nil, false // nothing left (a fast-forward only moves next on)
		}
		p.parked = !p.paused
		p.room.Wait()
	}
	p.parked = false
	if p.stopped {
		return nil, false
	}
	if !p.patient {
		p.next = max(p.next, p.taken+p.lead)
		if p.next >= p.total {
			return nil, false
		}
	}
	var r *taskRecord
	if n := len(p.free); n > 0 {
		r = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		r = &taskRecord{}
	}
	r.reset(p.next)
	p.next++
	p.busy = true
	return r, true
}

// full reports whether the producer is as far ahead as it may be: its
// lookahead or its bytes used up (or, parked, not yet half free), unless
// the engine waits for the task it would record.
func (p *producer) full() bool {
	if p.next <= p.taken {
		return false
	}
	if p.parked {
		return 2*(p.next-p.taken) > p.lookahead || 2*p.bytes > p.maxBytes
	}
	return p.next-p.taken >= p.lookahead || p.bytes >= p.maxBytes
}

// wake lets a parked producer go on once it has room.
func (p *producer) wake() {
	if p.parked && !p.full() {
		p.room.Signal()
	}
}

// publish hands a recorded task to the engine.
func (p *producer) publish(r *taskRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy = false
	p.ready = append(p.ready, r)
	p.bytes += r.bytes
	p.recorded++
	if r.run.Live != nil {
		p.handedOver++
	}
	p.more.Broadcast()
}

// take is task i's record, once recorded, or nil when the engine is to
// run the task live (the producer has not started it). The engine
// launches tasks in order: i follows the last taken.
func (p *producer) take(i int) (*taskRecord, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i < p.taken {
		return nil, fmt.Errorf("internal: task %d launched after %d", i, p.taken-1)
	}
	for len(p.ready) == 0 && !p.stopped && (p.busy && p.next == i+1 || p.patient && p.next <= i) {
		p.wake()
		p.more.Wait() // being recorded
	}
	p.taken = i + 1
	p.wake()
	if len(p.ready) == 0 || p.ready[0].task > i {
		// Not started (or before the producer's first): the engine's.
		p.next = max(p.next, i+1)
		return nil, nil
	}
	r := p.ready[0]
	if r.task != i {
		return nil, fmt.Errorf("internal: task %d asked, %d recorded", i, r.task)
	}
	p.ready[0] = nil
	p.ready = p.ready[1:]
	return r, nil
}

// recycle returns a record the engine is done with. A record grown past
// its share of the byte budget gives its buffers up, so that the records
// kept for reuse stay within the budget too.
func (p *producer) recycle(r *taskRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bytes -= r.bytes
	if r.capacity() > p.maxBytes/p.lookahead {
		*r = taskRecord{}
	}
	p.free = append(p.free, r)
	p.wake()
}

// pause has the producer start no new task and waits for the one it is
// recording: the tasks it has recorded are in ready, from taken on.
// resume undoes it.
func (p *producer) pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	for p.busy {
		p.more.Wait()
	}
}

// takeReady is task i's record while paused, or nil when it was not
// recorded.
func (p *producer) takeReady(i int) *taskRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ready) == 0 || p.ready[0].task != i {
		return nil
	}
	r := p.ready[0]
	p.ready[0] = nil
	p.ready = p.ready[1:]
	p.taken = i + 1
	return r
}

// firstReady is the first task recorded and not yet taken (total if
// none).
func (p *producer) firstReady() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ready) == 0 {
		return p.total
	}
	return p.ready[0].task
}

// resume lets a paused producer go on, from task from if it had not got
// that far (the tasks between were run another way).
func (p *producer) resume(from int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	p.next = max(p.next, from)
	p.taken = max(p.taken, from)
	p.room.Broadcast()
}

// stop ends the producer and waits for it: the task it is recording
// stops at the end of its round.
func (p *producer) stop() {
	p.mu.Lock()
	p.stopped = true
	p.quit.Store(true)
	p.room.Broadcast()
	p.more.Broadcast()
	p.mu.Unlock()
	<-p.exited
}

// startAhead starts a producer for the engine's dispatch when it pays: a
// compute dispatch alone on the engine, Independent, with more than one
// host thread to run on. (A dispatch beside other kernels stays live: a
// renderer's shaders and a compute kernel may share buffers, and their
// functional order is the engine's.)
func (e *Engine) startAhead() error {
	ks := e.disp.kernels
	if len(ks) != 1 || ks[0].d == nil {
		return nil
	}
	k := ks[0]
	// The first wave launches at once: the engine runs it live, so a
	// dispatch of one wave has nothing to run ahead.
	first := min(e.disp.resident(k), k.total)
	if e.noAhead || !k.d.Independent() || k.d.HostThreads() < 2 || k.ahead == nil && first == k.total {
		k.ahead = nil
		return nil
	}
	if k.ahead == nil {
		p, err := newProducer(k.d, k.total, first, first)
		if err != nil {
			return err
		}
		k.ahead = p
	}
	go k.ahead.run()
	return nil
}

// stopAhead stops the producer, if any.
func (e *Engine) stopAhead() {
	for _, k := range e.disp.kernels {
		if k.ahead != nil {
			k.ahead.stop()
		}
	}
}

// DisableAhead keeps the engine from running a dispatch's executor ahead
// on another host thread: every block is run when its warp reaches it
// (the answers are the same; tests and benchmarks compare the two).
func (e *Engine) DisableAhead() { e.noAhead = true }
