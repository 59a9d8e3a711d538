package timing

import (
	"bytes"
	"testing"
	"time"

	"github.com/pocketgpu/pocketgpu/emu"
)

// engineSide takes a producer's tasks in order as the engine does: a
// record when the producer has one, or else runs the task itself
// (RunTasks, beside the producer). Patient, it first waits for the
// producer to start each task (so that it gets a record of each). It
// checks each record and that the producer stays within its bounds, and
// returns how many records it got.
func engineSide(t *testing.T, p *producer, d *emu.Dispatch, from, to int, patient bool) (recorded int) {
	t.Helper()
	for i := from; i < to; i++ {
		for patient {
			p.mu.Lock()
			started := p.next > i
			p.mu.Unlock()
			if started {
				break
			}
			time.Sleep(10 * time.Microsecond)
		}
		r, err := p.take(i)
		if err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		ahead, held := p.next-p.taken, p.bytes
		p.mu.Unlock()
		if ahead > p.lookahead || held > p.maxBytes+p.taskBytes {
			t.Fatalf("task %d: the producer is %d tasks ahead (at most %d), holds %d bytes (at most %d)", i, ahead, p.lookahead, held, p.maxBytes)
		}
		if r == nil {
			if err := d.RunTasks(i, i+1); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if r.task != i || r.run.Live != nil || r.run.Err != nil || len(r.warps) != 1 || len(r.warps[0]) == 0 {
			t.Fatalf("task %d: record of task %d, %+v", i, r.task, r.run)
		}
		d.Stats.Add(r.run.Stats)
		recorded++
		p.recycle(r)
	}
	return recorded
}

// The producer records tasks in order ahead of the engine, within its
// lookahead and byte budget, from its first; the engine runs the others
// (those before, those the producer had not started, and with a lead
// those it skipped to keep ahead); every task runs once, so the results
// and counts are a functional run's.
func TestProducerRunsEachTaskOnce(t *testing.T) {
	for _, c := range []struct {
		lookahead, maxBytes, lead int
		patient                   bool
	}{{4, aheadBytes, 0, true}, {64, aheadBytes, 0, true}, {8, 1, 0, true}, {8, aheadBytes, 3, false}, {8, aheadBytes, 3, true}} {
		want, _ := vecadd(t, 512)
		if err := want.Run(); err != nil {
			t.Fatal(err)
		}
		d, _ := vecadd(t, 512)
		const first = 2
		p, err := newProducer(d, d.Tasks(), 2, first)
		if err != nil {
			t.Fatal(err)
		}
		p.lookahead, p.maxBytes, p.lead = c.lookahead, c.maxBytes, c.lead
		go p.run()
		recorded := engineSide(t, p, d, 0, d.Tasks(), c.patient)
		p.stop()
		if d.Stats != want.Stats {
			t.Errorf("%+v: %+v, a functional run %+v", c, d.Stats, want.Stats)
		}
		for i, b := range d.Mem.Buffers() {
			if !bytes.Equal(b.Data, want.Mem.Buffers()[i].Data) {
				t.Errorf("%+v: buffer %d differs from a functional run's", c, i)
			}
		}
		if c.patient && c.lead == 0 && recorded != d.Tasks()-first {
			t.Errorf("%+v: %d tasks recorded, want all %d from the first", c, recorded, d.Tasks()-first)
		}
	}
}

// Paused, the producer finishes the task it is recording and starts no
// other; its records are taken over in order, and resumed from a later
// task it skips those between.
func TestProducerPauseSkip(t *testing.T) {
	d, _ := vecadd(t, 512)
	p, err := newProducer(d, d.Tasks(), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	p.lead = 0
	go p.run()
	defer p.stop()
	for p.firstReady() == p.total {
		time.Sleep(time.Millisecond) // until it has recorded one
	}
	p.pause()
	p.mu.Lock()
	next := p.next
	p.mu.Unlock()
	for i := 0; i < next; i++ {
		r := p.takeReady(i)
		if r == nil || r.task != i {
			t.Fatalf("paused after %d tasks: task %d's record is %v", next, i, r)
		}
		p.recycle(r)
	}
	if p.takeReady(next) != nil || p.firstReady() != p.total {
		t.Fatalf("paused after %d tasks, task %d was recorded", next, next)
	}
	const from = 40
	if err := d.RunTasks(next, from); err != nil {
		t.Fatal(err)
	}
	p.resume(from)
	engineSide(t, p, d, from, d.Tasks(), false)
	want, _ := vecadd(t, 512)
	if err := want.Run(); err != nil {
		t.Fatal(err)
	}
	if d.Stats.WorkGroups != want.Stats.WorkGroups-uint64(next) {
		t.Errorf("%d work-groups besides the %d taken over, want %d", d.Stats.WorkGroups, next, want.Stats.WorkGroups-uint64(next))
	}
}

// Stopped while it records, the producer returns and records no more.
func TestProducerStops(t *testing.T) {
	d, _ := vecadd(t, 512)
	p, err := newProducer(d, d.Tasks(), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	p.lookahead = d.Tasks()
	go p.run()
	done := make(chan struct{})
	go func() { p.stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not return")
	}
	p.mu.Lock()
	next := p.next
	p.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	if p.mu.Lock(); p.next != next || p.busy {
		t.Errorf("stopped at task %d, the producer went on to %d", next, p.next)
	}
	p.mu.Unlock()
}
