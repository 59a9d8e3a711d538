package opencl

import (
	"math"
	"sync"
	"time"

	"github.com/pocketgpu/pocketgpu/counters"
)

// CommandRecord is what one finished command did: the line a report
// (exec --report) gives it.
type CommandRecord struct {
	Seq     uint64 `json:"seq"` // the platform's count of commands, from 1
	Device  string `json:"device"`
	Command string `json:"command"` // "kernel", "read", "write", "copy", "fill", "marker", ...
	Kernel  string `json:"kernel,omitempty"`
	Global  []int  `json:"global,omitempty"`
	Local   []int  `json:"local,omitempty"`
	Offset  []int  `json:"offset,omitempty"`
	Bytes   int    `json:"bytes,omitempty"` // bytes a transfer moved
	// StartNS and EndNS are on the device clock (the profiling times);
	// TimeNS is the simulated duration, Cycles the same in GPU clocks.
	StartNS uint64  `json:"start_ns"`
	EndNS   uint64  `json:"end_ns"`
	TimeNS  float64 `json:"time_ns"`
	// LaunchNS is a kernel's launch overhead, before StartNS
	// (command_processor.kernel_launch_us): the device clock passes it
	// between the command's SUBMIT and START.
	LaunchNS float64 `json:"launch_ns,omitempty"`
	Cycles   float64 `json:"cycles,omitempty"`
	// Detail says how a kernel's figures were made: "full" (simulated in
	// detail), "sampled" (in detail until steady, the rest projected:
	// DetailedWorkgroups of its work-groups in detail, its cycles' error
	// estimated at ErrorPct) or "reused" (an identical earlier launch's,
	// from the same cache state: exact).
	Detail string `json:"detail,omitempty"`
	// LocalOutOfBounds counts the kernel's work-items' accesses to local
	// memory outside their work-group's (run on: writes dropped, reads 0).
	LocalOutOfBounds   uint64  `json:"local_out_of_bounds,omitempty"`
	DetailedWorkgroups int     `json:"detailed_workgroups,omitempty"`
	ErrorPct           float64 `json:"error_pct,omitempty"`
	// HostSeconds is the host time the simulation took.
	HostSeconds float64 `json:"host_seconds"`
	// Counters are a kernel's counters (engine and memory) or a
	// transfer's (copies), docs/counters.md.
	Counters counters.Set `json:"counters,omitempty"`
}

// commandNames name the command types in records.
var commandNames = map[uint32]string{
	CommandNDRangeKernel: "kernel",
	CommandTask:          "task",
	CommandReadBuffer:    "read",
	CommandWriteBuffer:   "write",
	CommandCopyBuffer:    "copy",
	CommandMarker:        "marker",
	CommandFillBuffer:    "fill",
	CommandBarrier:       "barrier",
	// Memory objects (buffer.go, rect.go, map.go, image.go).
	CommandReadBufferRect:    "read_rect",
	CommandWriteBufferRect:   "write_rect",
	CommandCopyBufferRect:    "copy_rect",
	CommandMapBuffer:         "map",
	CommandMapImage:          "map_image",
	CommandUnmapMemObject:    "unmap",
	CommandMigrateMemObjects: "migrate",
	CommandReadImage:         "read_image",
	CommandWriteImage:        "write_image",
	CommandCopyImage:         "copy_image",
	CommandCopyImageToBuffer: "copy_image_to_buffer",
	CommandCopyBufferToImage: "copy_buffer_to_image",
	CommandFillImage:         "fill_image",
}

// CommandName is the short name of a command type.
func CommandName(command uint32) string {
	if n, ok := commandNames[command]; ok {
		return n
	}
	return "command"
}

// run enqueues one command on the queue: it runs at once when the queue
// has nothing before it and its wait list is complete (then an error of
// work is returned here), otherwise when they are (sched.go), and fails
// with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a listed event
// failed. work fills in what it knows of the command's record (kernel,
// sizes, bytes, counters) and returns the simulated ns.
func (q *Queue) run(command uint32, work func(sim *simDevice, rec *CommandRecord) (float64, error)) (*Event, error) {
	base := q.base()
	e := newEvent(q.Ctx, base, command, StatusQueued)
	e.Queued = q.sim.clock.now()
	cmd := &pending{ev: e, waits: q.waits, work: work}
	c := q.Ctx
	c.sched.Lock()
	base.state.pending = append(base.state.pending, cmd)
	c.sched.Unlock()
	c.drain()
	e.mu.Lock()
	defer e.mu.Unlock()
	if cmd.failed != nil {
		return nil, cmd.failed
	}
	return e, nil
}

// execute runs a command whose turn has come: it takes the device clock's
// current time as its start and the duration work returns as its length.
// The platform's Recorder, if any, gets its record.
func (q *Queue) execute(cmd *pending) {
	e := cmd.ev
	e.advance(StatusSubmitted, nil)
	e.advance(StatusRunning, nil)
	q.sim.mu.Lock()
	clock := q.sim.clock
	clock.mu.Lock()
	host := time.Now()
	// A kernel starts the description's launch overhead after it reaches
	// the device (command_processor.kernel_launch_us): the driver's and
	// the front end's work between SUBMIT and START, which the device
	// clock passes before the kernel's own time.
	launch := q.launchNS(e.Command)
	e.Submit = clock.ns
	clock.ns += launch
	start := clock.ns
	e.Start = start
	rec := CommandRecord{Device: q.Device.Name(), Command: CommandName(e.Command), StartNS: start, LaunchNS: float64(launch)}
	if tr := q.Device.trace; tr != nil {
		tr.SetNow(float64(start)) // a kernel's engine tracks start with the command
	}
	ns, err := cmd.work(q.sim, &rec)
	if err != nil {
		clock.mu.Unlock()
		q.sim.mu.Unlock()
		cmd.failed = err
		e.fail(err)
		return
	}
	clock.ns += uint64(math.Round(ns))
	e.End = clock.ns
	q.traceCommand(&rec, start, e.End)
	p := q.Ctx.platform
	if vc := p.Clock; vc != nil {
		e.hostEnd = vc.simulated(host, time.Now(), float64(launch)+ns, clock)
	}
	if p.Recorder != nil {
		rec.Seq = p.seq.Add(1)
		rec.EndNS = e.End
		rec.TimeNS = ns
		if rec.Cycles == 0 && ns > 0 {
			rec.Cycles = ns * q.Device.GPU.ClockMHz / 1000
		}
		rec.HostSeconds = time.Since(host).Seconds()
		p.recordMu.Lock()
		p.Recorder(rec)
		p.recordMu.Unlock()
	}
	clock.mu.Unlock()
	q.sim.mu.Unlock()
	e.advance(StatusComplete, nil)
}

// launchNS is the launch overhead, in whole ns, of a command of the given
// type on q's device: the description's kernel_launch_us for a kernel
// (clEnqueueNDRangeKernel, clEnqueueTask), nothing for other commands or
// in a functional context (which takes no simulated time).
func (q *Queue) launchNS(command uint32) uint64 {
	if q.Functional || (command != CommandNDRangeKernel && command != CommandTask) {
		return 0
	}
	return uint64(math.Round(q.Device.GPU.CommandProcessor.KernelLaunchUS * 1000))
}

// VirtualClock is the host program's clock under exec --virtual-clock:
// the real clock, less the host time spent inside pocketgpu's API calls,
// plus the simulated time the program waited for the device. While any
// call is inside the platform (Enter to Leave) the clock stands still; a
// wait (clFinish, a blocking read, clWaitForEvents) moves it to the end of
// what it waits for. It keeps, per device, the virtual time the device is
// busy until: a command starts when the device is free and the program
// has enqueued it. The offset from the real clock goes to publish (the
// clock shim the program runs with adds it to every clock the program
// reads) when the last call leaves. A thread that reads its clock while
// another is inside a call sees real time pass, then the clock step back.
type VirtualClock struct {
	mu      sync.Mutex
	epoch   time.Time
	offset  int64 // virtual minus real, in ns
	active  int   // calls inside the platform
	frozen  int64 // the virtual time while active > 0
	hidden  time.Time
	publish func(offsetNS int64)
}

// NewVirtualClock makes a virtual clock that reports its offset to publish.
func NewVirtualClock(publish func(offsetNS int64)) *VirtualClock {
	return &VirtualClock{epoch: time.Now(), publish: publish}
}

// now is the virtual time in ns since the clock was made. Callers hold mu.
func (v *VirtualClock) now() int64 {
	if v.active > 0 {
		return v.frozen
	}
	return int64(time.Since(v.epoch)) + v.offset
}

// Enter stops the clock for an API call; Leave restarts it where the
// call left it.
func (v *VirtualClock) Enter() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.active == 0 {
		v.frozen = v.now()
	}
	v.active++
}

func (v *VirtualClock) Leave() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.active == 0 {
		return
	}
	if v.active--; v.active == 0 {
		v.offset = v.frozen - int64(time.Since(v.epoch))
		v.hidden = time.Now()
		v.publish(v.offset)
	}
}

// simulated books a command of ns simulated nanoseconds on the timeline
// of a device (whose clock's mu the caller holds) and returns the
// virtual time it ends. Outside Enter/Leave the host time the simulation
// took (t0 to t1) is taken out of the clock here.
func (v *VirtualClock) simulated(t0, t1 time.Time, ns float64, sim *deviceClock) int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.active == 0 {
		// Spans of concurrent simulations are taken out once, so the
		// clock never runs backwards.
		if t0.Before(v.hidden) {
			t0 = v.hidden
		}
		if t1.After(t0) {
			v.offset -= int64(t1.Sub(t0))
			v.hidden = t1
		}
		v.publish(v.offset)
	}
	start := max(v.now(), sim.hostBusy)
	sim.hostBusy = start + int64(math.Round(ns))
	return sim.hostBusy
}

// waitUntil moves the program's clock forward to t, if it is earlier.
func (v *VirtualClock) waitUntil(t int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if now := v.now(); t > now {
		if v.active > 0 {
			v.frozen = t
			return
		}
		v.offset += t - now
		v.publish(v.offset)
	}
}

// Finish is the host waiting for every command of the queue: it blocks
// until the queue is empty, then moves a virtual clock to when the device
// is done.
func (q *Queue) Finish() {
	c := q.Ctx
	st := q.base().state
	c.sched.Lock()
	for len(st.pending) > 0 || st.busy {
		c.idle.Wait()
	}
	c.sched.Unlock()
	if vc := c.platform.Clock; vc != nil {
		q.sim.clock.mu.Lock()
		t := q.sim.clock.hostBusy
		q.sim.clock.mu.Unlock()
		vc.waitUntil(t)
	}
}
