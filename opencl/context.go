package opencl

import (
	"sync"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Context is a cl_context: its devices, each with the simulated GPU the
// context's commands run on (memory and caches persist across commands,
// as on hardware).
type Context struct {
	Devices []*Device
	// Properties are clCreateContext's properties as given (key, value
	// pairs, without the terminating 0), for CL_CONTEXT_PROPERTIES.
	Properties []uint64
	// Notify, if set, gets every error the platform reports for the
	// context (clCreateContext's pfn_notify). It may be called from any
	// goroutine, one call at a time.
	Notify   func(msg string)
	notifyMu sync.Mutex
	sims     map[*Device]*simDevice
	platform *Platform

	sched  sync.Mutex // guards queues and their lists (sched.go)
	idle   *sync.Cond // signalled when a queue's command finishes
	queues []*Queue
}

// Report sends an error message to the context's pfn_notify, if it has one.
func (c *Context) Report(msg string) {
	if c == nil || c.Notify == nil {
		return
	}
	c.notifyMu.Lock()
	defer c.notifyMu.Unlock()
	c.Notify(msg)
}

// simDevice is one device of a context: the simulator, and the device's
// clock it shares with the device's other contexts.
type simDevice struct {
	mu    sync.Mutex // one command at a time, in order
	dev   *device.Device
	clock *deviceClock
}

// deviceClock is a device's timer. A command holds mu while it runs (after
// its context's simDevice.mu), so commands of all the device's contexts
// follow one another on one timeline.
type deviceClock struct {
	mu sync.Mutex
	// ns is the simulated device time in nanoseconds (the profiling
	// timer's resolution): every command starts when the one before it
	// ended, and takes its simulated time, rounded to the nanosecond.
	ns uint64
	// hostBusy is when the device is free on the host program's virtual
	// clock (VirtualClock), in its ns.
	hostBusy int64
}

func (c *deviceClock) now() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ns
}

// NewContext makes a context of some of the platform's devices.
func (p *Platform) NewContext(devs []*Device) (*Context, error) {
	if len(devs) == 0 {
		return nil, errorf(InvalidValue, "a context needs at least one device")
	}
	c := &Context{sims: map[*Device]*simDevice{}, platform: p}
	c.idle = sync.NewCond(&c.sched)
	for _, d := range devs {
		if !p.has(d) {
			return nil, errorf(InvalidDevice, "not a pocketgpu device")
		}
		if _, dup := c.sims[d]; dup {
			continue
		}
		c.Devices = append(c.Devices, d)
		c.sims[d] = &simDevice{dev: device.Open(d.GPU), clock: &d.clock}
	}
	return c, nil
}

func (p *Platform) has(d *Device) bool {
	for _, x := range p.Devices {
		if x == d {
			return true
		}
	}
	return false
}

// Queue is a cl_command_queue: commands run in order on one device of a
// context, each as soon as it is enqueued and what it waits for is
// complete (out-of-order queues are accepted and run in order too).
type Queue struct {
	Ctx        *Context
	Device     *Device
	Profiling  bool
	OutOfOrder bool
	// Functional runs kernels without the timing model: results only, no
	// simulated time.
	Functional bool
	// Detail is how much of each timed kernel the simulator runs in
	// detail (device.DetailAuto: a repeat of a launch reuses its figures).
	Detail device.Detail
	// Strict faults a kernel that reaches local memory outside its
	// work-group's (CL_OUT_OF_RESOURCES); unset, it runs on, as on a GPU,
	// and the platform's Warn says where.
	Strict bool
	sim    *simDevice
	state  *queueState
	track  *trace.Track // the queue's commands on the trace, or nil
	// waits and parent are set on a view made by After.
	waits  []*Event
	parent *Queue
}

// Queue property bits (cl_command_queue_properties).
const (
	QueueOutOfOrder      = 1 << 0
	QueueProfiling       = 1 << 1
	queueOnDevice        = 1 << 2
	queueOnDeviceDefault = 1 << 3
)

// NewQueue makes a command queue on one of the context's devices.
func (c *Context) NewQueue(d *Device, props uint64) (*Queue, error) {
	sim, ok := c.sims[d]
	if !ok {
		return nil, errorf(InvalidDevice, "the device is not in the context")
	}
	// On-device queues (OpenCL 2.0 bits 2 and 3) are valid but not
	// offered; other bits are not properties at all.
	if props&^uint64(QueueOutOfOrder|QueueProfiling|queueOnDevice|queueOnDeviceDefault) != 0 {
		return nil, errorf(InvalidValue, "unknown queue properties %#x", props)
	}
	if props&(queueOnDevice|queueOnDeviceDefault) != 0 {
		return nil, errorf(InvalidQueueProperties, "on-device queues are not supported")
	}
	q := &Queue{Ctx: c, Device: d, Profiling: props&QueueProfiling != 0, OutOfOrder: props&QueueOutOfOrder != 0,
		sim: sim, state: &queueState{}, track: d.queueTrack()}
	c.sched.Lock()
	c.queues = append(c.queues, q)
	c.sched.Unlock()
	return q, nil
}

// Command types (cl_command_type).
const (
	CommandNDRangeKernel = 0x11F0
	CommandTask          = 0x11F1
	CommandReadBuffer    = 0x11F3
	CommandWriteBuffer   = 0x11F4
	CommandCopyBuffer    = 0x11F5
	CommandMarker        = 0x11FE
	CommandFillBuffer    = 0x1207
	CommandBarrier       = 0x1205
)

// Marker is a command that does nothing, at the device's current time,
// after every command before it (the queue runs in order) and its view's
// wait list.
func (q *Queue) Marker() (*Event, error) {
	return q.run(CommandMarker, func(*simDevice, *CommandRecord) (float64, error) { return 0, nil })
}

// Barrier is Marker as clEnqueueBarrierWithWaitList names it.
func (q *Queue) Barrier() (*Event, error) {
	return q.run(CommandBarrier, func(*simDevice, *CommandRecord) (float64, error) { return 0, nil })
}
