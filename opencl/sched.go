package opencl

import "errors"

// The scheduler. A command runs in whichever host goroutine finds it
// ready: the one enqueuing it when nothing is before it (so most commands
// still run at enqueue and report their errors there), or the one that
// completes what it waits for (a user event's status, a command of
// another queue). Each queue runs one command at a time, in order; the
// context's sched lock guards every queue's list, and no lock is held
// while a command runs or a callback is called.

// pending is a command waiting for its turn.
type pending struct {
	ev     *Event
	waits  []*Event
	work   func(sim *simDevice, rec *CommandRecord) (float64, error)
	failed error // work's error, set before ev completes
}

// queueState is what a queue and its views (After) share.
type queueState struct {
	pending []*pending
	busy    bool // a command of the queue is running
}

// After is the queue seen by a command with an event wait list: commands
// enqueued through it also wait for evs. The events must be of the
// queue's context.
func (q *Queue) After(evs []*Event) (*Queue, error) {
	for _, e := range evs {
		if e == nil {
			return nil, errorf(InvalidEventWaitList, "a NULL event in the wait list")
		}
		if e.Ctx != q.Ctx {
			return nil, errorf(InvalidContext, "an event of the wait list belongs to another context")
		}
	}
	if len(evs) == 0 {
		return q, nil
	}
	v := *q
	v.waits = append([]*Event(nil), evs...)
	v.parent = q.base()
	return &v, nil
}

// base is the queue a view was made from.
func (q *Queue) base() *Queue {
	if q.parent != nil {
		return q.parent
	}
	return q
}

// drain runs every command of the context that is ready, until none is.
func (c *Context) drain() {
	for {
		c.sched.Lock()
		var q *Queue
		var cmd *pending
		dep := int32(StatusComplete)
		for _, x := range c.queues {
			st := x.state
			if st.busy || len(st.pending) == 0 {
				continue
			}
			head := st.pending[0]
			ready := true
			for _, w := range head.waits {
				s := w.Status()
				if s > StatusComplete {
					ready = false
					break
				}
				dep = min(dep, s)
			}
			if !ready {
				dep = StatusComplete
				continue
			}
			st.pending = st.pending[1:]
			st.busy = true
			q, cmd = x, head
			break
		}
		c.sched.Unlock()
		if cmd == nil {
			return
		}
		if dep < 0 {
			cmd.ev.fail(errorf(ExecStatusErrorForEvents, "an event in the command's wait list failed (%d)", dep))
		} else {
			q.execute(cmd)
		}
		c.sched.Lock()
		q.state.busy = false
		c.idle.Broadcast()
		c.sched.Unlock()
	}
}

// fail ends the event with err's status.
func (e *Event) fail(err error) {
	st := OutOfResources
	var ce *Error
	if errors.As(err, &ce) {
		st = ce.Status
	}
	e.advance(int32(st), err)
}
