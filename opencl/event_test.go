package opencl

import (
	"errors"
	"testing"
)

func testQueue(t *testing.T, props uint64) (*Context, *Queue) {
	t.Helper()
	return testQueueWith(t, "mali-g52", props)
}

// testQueueWith is a context and queue on one preset.
func testQueueWith(t *testing.T, gpu string, props uint64) (*Context, *Queue) {
	t.Helper()
	p, err := NewPlatform([]string{gpu})
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := p.NewContext(p.Devices)
	if err != nil {
		t.Fatal(err)
	}
	q, err := ctx.NewQueue(p.Devices[0], props)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, q
}

// Commands behind an incomplete user event wait, in order, with the
// commands after them; setting the event runs them, and callbacks see
// each state once.
func TestEventUserEventDefersInOrder(t *testing.T) {
	ctx, q := testQueue(t, QueueProfiling)
	b, err := ctx.NewBuffer(MemReadWrite, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	ue := ctx.NewUserEvent()
	if ue.Status() != StatusSubmitted {
		t.Fatalf("a new user event is %d, want CL_SUBMITTED", ue.Status())
	}
	var log []string
	qa, err := q.After([]*Event{ue})
	if err != nil {
		t.Fatal(err)
	}
	w, err := qa.Write(b, 0, []byte{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []int32{StatusComplete, StatusRunning, StatusSubmitted} {
		name := map[int32]string{0: "complete", 1: "running", 2: "submitted"}[st]
		if err := w.OnStatus(st, func(s int32) { log = append(log, name) }); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]byte, 4)
	r, err := q.Read(b, 0, got) // no wait list: behind the write anyway
	if err != nil {
		t.Fatal(err)
	}
	if w.Status() != StatusQueued || r.Status() != StatusQueued {
		t.Fatalf("before the user event: write %d, read %d; want both queued (3)", w.Status(), r.Status())
	}
	if err := ue.SetUserStatus(StatusComplete); err != nil {
		t.Fatal(err)
	}
	if r.Wait() != StatusComplete || string(got) != "\x01\x02\x03\x04" {
		t.Fatalf("read %v, status %d", got, r.Status())
	}
	if len(log) != 3 || log[0] != "submitted" || log[1] != "running" || log[2] != "complete" {
		t.Errorf("callbacks %v, want submitted, running, complete once each", log)
	}
	if !(w.Queued <= w.Submit && w.Submit <= w.Start && w.Start <= w.End && w.End <= r.Start) {
		t.Errorf("times: write %d %d %d %d, read start %d", w.Queued, w.Submit, w.Start, w.End, r.Start)
	}
	if err := ue.SetUserStatus(StatusComplete); err == nil {
		t.Error("setting a user event twice succeeded")
	}
	late := -1
	w.OnStatus(StatusSubmitted, func(s int32) { late = int(s) })
	if late != StatusSubmitted {
		t.Errorf("a callback for a state already passed got %d, want it at once with CL_SUBMITTED", late)
	}
}

// A user event set to an error fails the commands that list it, with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and the failure goes on
// to their own dependents; WaitEvents reports it.
func TestEventFailurePropagates(t *testing.T) {
	ctx, q := testQueue(t, 0)
	ue := ctx.NewUserEvent()
	qa, _ := q.After([]*Event{ue})
	m1, err := qa.Marker()
	if err != nil {
		t.Fatal(err)
	}
	qb, _ := q.After([]*Event{m1})
	m2, _ := qb.Marker()
	m3, _ := q.Marker() // in order, but not a dependent
	var cb int32 = 99
	m1.OnStatus(StatusComplete, func(s int32) { cb = s })
	if err := ue.SetUserStatus(-1234); err != nil {
		t.Fatal(err)
	}
	if m1.Status() != int32(ExecStatusErrorForEvents) || m2.Status() != int32(ExecStatusErrorForEvents) {
		t.Errorf("dependents: %d, %d; want %d", m1.Status(), m2.Status(), ExecStatusErrorForEvents)
	}
	if cb != int32(ExecStatusErrorForEvents) {
		t.Errorf("COMPLETE callback got %d", cb)
	}
	if m3.Wait() != StatusComplete {
		t.Errorf("a later command without the failed event in its list: %d", m3.Status())
	}
	var e *Error
	if err := WaitEvents([]*Event{m3, m2}); !errors.As(err, &e) || e.Status != ExecStatusErrorForEvents {
		t.Errorf("WaitEvents: %v", err)
	}
	q.Finish()
}

// A command of one queue waiting for a user event holds back only its
// queue; a second queue runs, and its commands can be waited for.
func TestEventCrossQueue(t *testing.T) {
	ctx, q1 := testQueue(t, 0)
	q2, err := ctx.NewQueue(ctx.Devices[0], QueueOutOfOrder)
	if err != nil {
		t.Fatal(err)
	}
	ue := ctx.NewUserEvent()
	qa, _ := q1.After([]*Event{ue})
	m1, _ := qa.Marker()
	qb, _ := q2.After([]*Event{m1})
	m2, _ := qb.Barrier()
	m3, _ := q2.Marker()
	if m2.Status() != StatusQueued || m3.Status() != StatusQueued {
		t.Fatalf("q2 ran past a command waiting for q1: %d %d", m2.Status(), m3.Status())
	}
	go ue.SetUserStatus(StatusComplete)
	if err := WaitEvents([]*Event{m3}); err != nil {
		t.Fatal(err)
	}
	q1.Finish()
	q2.Finish()
	if m1.Status() != 0 || m2.Status() != 0 {
		t.Errorf("statuses %d %d", m1.Status(), m2.Status())
	}
	other, _ := testQueue(t, 0)
	if _, err := q1.After([]*Event{other.NewUserEvent()}); err == nil {
		t.Error("an event of another context was accepted in a wait list")
	}
}

// A device has one timer: a second context's commands start where the
// first context's ended, as profiling times are the device's time counter
// (CLBlast's program-binary path makes a second context on the device).
func TestEventDeviceClockSharedByContexts(t *testing.T) {
	p, err := NewPlatform([]string{"mali-g52"})
	if err != nil {
		t.Fatal(err)
	}
	var last *Event
	for i := 0; i < 2; i++ {
		ctx, err := p.NewContext(p.Devices)
		if err != nil {
			t.Fatal(err)
		}
		q, err := ctx.NewQueue(p.Devices[0], QueueProfiling)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ctx.NewBuffer(MemReadWrite, 4096, nil)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := q.Write(b, 0, make([]byte, 4096))
		if err != nil {
			t.Fatal(err)
		}
		if ev.End <= ev.Start {
			t.Fatalf("context %d: a write of 4 KiB took %d to %d ns", i, ev.Start, ev.End)
		}
		if last != nil && ev.Start != last.End {
			t.Errorf("the second context's write starts at %d ns, the first's ended at %d", ev.Start, last.End)
		}
		last = ev
	}
}

// A kernel's profiling START comes the description's launch overhead
// (command_processor.kernel_launch_us) after its QUEUED on an idle queue,
// as clpeak's kernel-latency test reads it; END - START stays the
// kernel's own time, and an overhead of 0 gives START == QUEUED.
func TestKernelLaunchOverhead(t *testing.T) {
	needCompilers(t)
	const src = "__kernel void nop(__global int *a) { if (a[0] == 12345) a[1] = 1; }"
	run := func(launchUS float64) (latency, length uint64) {
		ctx, q := testQueue(t, QueueProfiling)
		q.Device.GPU.CommandProcessor.KernelLaunchUS = launchUS
		b, err := ctx.NewBuffer(MemReadWrite, 8, nil)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := ctx.NewProgram(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := prog.Build(nil, ""); err != nil {
			t.Fatal(err)
		}
		k, err := prog.NewKernel("nop")
		if err != nil {
			t.Fatal(err)
		}
		if err := k.SetArg(0, 8, nil, b); err != nil {
			t.Fatal(err)
		}
		ev, err := q.NDRange(k, 1, []int{64}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !(ev.Queued <= ev.Submit && ev.Submit <= ev.Start && ev.Start <= ev.End) {
			t.Fatalf("times out of order: %d %d %d %d", ev.Queued, ev.Submit, ev.Start, ev.End)
		}
		return ev.Start - ev.Queued, ev.End - ev.Start
	}
	lat0, len0 := run(0)
	if lat0 != 0 {
		t.Errorf("no launch overhead: START - QUEUED = %d ns, want 0", lat0)
	}
	lat, n := run(25.5)
	if lat != 25500 {
		t.Errorf("kernel_launch_us 25.5: START - QUEUED = %d ns, want 25500", lat)
	}
	if n != len0 || n == 0 {
		t.Errorf("END - START is %d ns with the overhead and %d without; the overhead must not change the kernel's own time", n, len0)
	}
}
