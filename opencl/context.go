package opencl

import (
	"sync"

	"github.com/pocketgpu/pocketgpu/device"
)

// Context is a cl_context: its devices, each with the simulated GPU the
// context's commands run on (memory and caches persist across commands,
// as on hardware).
type Context struct {
	Devices  []*Device
	sims     map[*Device]*simDevice
	platform *Platform
}

// simDevice is one device of a context: the simulator and its clock.
type simDevice struct {
	mu  sync.Mutex // one command at a time, in order
	dev *device.Device
	// clockNS is the simulated device time in nanoseconds (the profiling
	// timer's resolution): every command starts when the one before it
	// ended, and takes its simulated time, rounded to the nanosecond.
	clockNS uint64
	// hostBusy is when the device is free on the host program's virtual
	// clock (VirtualClock), in its ns.
	hostBusy int64
}

// NewContext makes a context of some of the platform's devices.
func (p *Platform) NewContext(devs []*Device) (*Context, error) {
	if len(devs) == 0 {
		return nil, errorf(InvalidValue, "a context needs at least one device")
	}
	c := &Context{sims: map[*Device]*simDevice{}, platform: p}
	for _, d := range devs {
		if !p.has(d) {
			return nil, errorf(InvalidDevice, "not a pocketgpu device")
		}
		if _, dup := c.sims[d]; dup {
			continue
		}
		c.Devices = append(c.Devices, d)
		c.sims[d] = &simDevice{dev: device.Open(d.GPU)}
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
// context, each as soon as it is enqueued (out-of-order queues are accepted
// and run in order too).
type Queue struct {
	Ctx       *Context
	Device    *Device
	Profiling bool
	// Functional runs kernels without the timing model: results only, no
	// simulated time.
	Functional bool
	sim        *simDevice
}

// Queue property bits (cl_command_queue_properties).
const (
	QueueOutOfOrder = 1 << 0
	QueueProfiling  = 1 << 1
)

// NewQueue makes a command queue on one of the context's devices.
func (c *Context) NewQueue(d *Device, props uint64) (*Queue, error) {
	sim, ok := c.sims[d]
	if !ok {
		return nil, errorf(InvalidDevice, "the device is not in the context")
	}
	if props&^uint64(QueueOutOfOrder|QueueProfiling) != 0 {
		return nil, errorf(InvalidQueueProperties, "unknown queue properties %#x", props)
	}
	return &Queue{Ctx: c, Device: d, Profiling: props&QueueProfiling != 0, sim: sim}, nil
}

// Event is a cl_event: a command's state and, on a profiling queue, its
// times on the simulated device clock (nanoseconds).
type Event struct {
	Queue                      *Queue
	Command                    uint32 // CL_COMMAND_*
	Queued, Submit, Start, End uint64
	// Status is CL_COMPLETE (0) or a negative error.
	Status int32
	// hostEnd is when the command ends on the program's virtual clock.
	hostEnd int64
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

// Marker is a command that does nothing, at the device's current time.
func (q *Queue) Marker() (*Event, error) {
	return q.run(CommandMarker, func(*simDevice, *CommandRecord) (float64, error) { return 0, nil })
}
