package opencl

import "sync"

// Execution statuses (cl_int): they only go down, and a negative one is an
// error that ended the command.
const (
	StatusComplete  = 0
	StatusRunning   = 1
	StatusSubmitted = 2
	StatusQueued    = 3
)

// CommandUser is CL_COMMAND_USER, the command type of a user event.
const CommandUser = 0x1204

// Event is a cl_event: a command's state and, on a profiling queue, its
// times on the simulated device clock (nanoseconds). The times are set
// before the event completes and do not change after.
type Event struct {
	Queue                      *Queue // nil for a user event
	Ctx                        *Context
	Command                    uint32 // CL_COMMAND_*
	Queued, Submit, Start, End uint64
	// hostEnd is when the command ends on the program's virtual clock.
	hostEnd int64

	mu        sync.Mutex
	status    int32
	err       error // why the command failed, if it did
	done      chan struct{}
	callbacks []eventCallback
}

type eventCallback struct {
	state int32
	fn    func(status int32)
}

func newEvent(c *Context, q *Queue, command uint32, status int32) *Event {
	return &Event{Ctx: c, Queue: q, Command: command, status: status, done: make(chan struct{})}
}

// NewUserEvent makes a user event (clCreateUserEvent): submitted until the
// host sets its status.
func (c *Context) NewUserEvent() *Event {
	return newEvent(c, nil, CommandUser, StatusSubmitted)
}

// Status is the event's execution status.
func (e *Event) Status() int32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status
}

// Err is why a failed command failed, or nil.
func (e *Event) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// IsUser reports whether e is a user event.
func (e *Event) IsUser() bool { return e.Command == CommandUser && e.Queue == nil }

// SetUserStatus is clSetUserEventStatus: CL_COMPLETE or a negative error,
// once. Commands waiting for the event then run (or fail).
func (e *Event) SetUserStatus(status int32) error {
	if !e.IsUser() {
		return errorf(InvalidEvent, "not a user event")
	}
	if status > 0 {
		return errorf(InvalidValue, "a user event's status is CL_COMPLETE or a negative error, not %d", status)
	}
	if !e.advance(status, nil) {
		return errorf(InvalidOperation, "the user event's status was already set")
	}
	e.Ctx.drain()
	return nil
}

// OnStatus registers fn for when the event reaches state (CL_SUBMITTED,
// CL_RUNNING or CL_COMPLETE): fn gets state, or the error that ended the
// command. A state already reached calls fn now. Each fn is called once.
func (e *Event) OnStatus(state int32, fn func(status int32)) error {
	if state != StatusComplete && state != StatusRunning && state != StatusSubmitted {
		return errorf(InvalidValue, "callback type %d: CL_SUBMITTED, CL_RUNNING or CL_COMPLETE", state)
	}
	e.mu.Lock()
	cur := e.status
	if cur > state {
		e.callbacks = append(e.callbacks, eventCallback{state, fn})
		e.mu.Unlock()
		return nil
	}
	e.mu.Unlock()
	fn(reported(state, cur))
	return nil
}

// advance moves the event to status and calls the callbacks that now
// apply, with no lock held (a callback may call the API). It reports
// false when the event is already at or past status's finality.
func (e *Event) advance(status int32, err error) bool {
	e.mu.Lock()
	if e.status <= StatusComplete || status >= e.status {
		e.mu.Unlock()
		return false
	}
	e.status, e.err = status, err
	var call []eventCallback
	kept := e.callbacks[:0]
	for _, cb := range e.callbacks {
		if cb.state >= status {
			call = append(call, cb)
		} else {
			kept = append(kept, cb)
		}
	}
	e.callbacks = kept
	if status <= StatusComplete {
		close(e.done)
	}
	e.mu.Unlock()
	for _, cb := range call {
		cb.fn(reported(cb.state, status))
	}
	return true
}

// reported is what a callback for state is told when the event is at
// status: the state itself, or the error that ended the command.
func reported(state, status int32) int32 {
	if status < 0 {
		return status
	}
	return state
}

// Wait is the host waiting for the command to finish (clWaitForEvents, a
// blocking call): it blocks until the event completes, then moves a
// virtual clock to when the device finished it. It returns the status.
func (e *Event) Wait() int32 {
	<-e.done
	if vc := e.Ctx.platform.Clock; vc != nil && e.Queue != nil {
		vc.waitUntil(e.hostEnd)
	}
	return e.Status()
}

// WaitEvents waits for every event (clWaitForEvents): they must share a
// context; any that failed makes the answer
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
func WaitEvents(evs []*Event) error {
	if len(evs) == 0 {
		return errorf(InvalidValue, "no events to wait for")
	}
	for _, e := range evs[1:] {
		if e.Ctx != evs[0].Ctx {
			return errorf(InvalidContext, "the events belong to different contexts")
		}
	}
	failed := false
	for _, e := range evs {
		if e.Wait() < 0 {
			failed = true
		}
	}
	if failed {
		return errorf(ExecStatusErrorForEvents, "a command waited for failed")
	}
	return nil
}
