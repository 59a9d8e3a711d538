package main

/*
#include "icd.h"
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

// Every object a program holds is a small C struct whose first word is the
// dispatch table (the ICD loader calls through it); the Go object behind it
// is found by the struct's address in this registry, so a pointer the
// program made up, or one it already released, is an invalid-object error
// and never a dereference.
var registry = struct {
	sync.Mutex
	objs    map[unsafe.Pointer]*entry
	handles map[any]unsafe.Pointer // the handle of each live object
	// gone holds the most recently released handles, oldest first: their
	// C structs stay allocated for a while, so a release too many or a
	// use after release still reaches pocketgpu through the dispatch table
	// (the loader reads it) and gets an invalid-object error instead of a
	// crash on freed memory; older ones are freed, so a program that makes
	// and releases objects forever runs in constant memory.
	gone []unsafe.Pointer
}{objs: map[unsafe.Pointer]*entry{}, handles: map[any]unsafe.Pointer{}}

// quarantine is how many released handles stay recognisable.
const quarantine = 4096

type entry struct {
	v    any
	refs int
}

// newObject allocates the C struct of a new object holding v.
func newObject(v any) unsafe.Pointer {
	p := C.calloc(1, C.size_t(unsafe.Sizeof(uintptr(0))))
	*(**C.cl_icd_dispatch)(p) = C.pg_table()
	registry.Lock()
	registry.objs[p] = &entry{v: v, refs: 1}
	registry.handles[v] = p
	registry.Unlock()
	return p
}

// lookup finds the Go object of type T behind a handle.
func lookup[T any](p unsafe.Pointer) (T, bool) {
	registry.Lock()
	defer registry.Unlock()
	var zero T
	e := registry.objs[p]
	if e == nil {
		return zero, false
	}
	v, ok := e.v.(T)
	return v, ok
}

// retain and release count a handle's references; release frees the C
// struct when the last goes.
func retain[T any](p unsafe.Pointer, invalid C.cl_int) C.cl_int {
	registry.Lock()
	defer registry.Unlock()
	e := live[T](p)
	if e == nil {
		return invalid
	}
	e.refs++
	return C.CL_SUCCESS
}

// live is the registry entry of a handle to a T, or nil. The caller holds
// the registry's lock.
func live[T any](p unsafe.Pointer) *entry {
	e := registry.objs[p]
	if e == nil {
		return nil
	}
	if _, ok := e.v.(T); !ok {
		return nil
	}
	return e
}

func release[T any](p unsafe.Pointer, invalid C.cl_int) C.cl_int {
	registry.Lock()
	defer registry.Unlock()
	e := live[T](p)
	if e == nil {
		return invalid
	}
	if e.refs--; e.refs == 0 {
		if k, ok := e.v.(*opencl.Kernel); ok {
			k.Program.KernelReleased() // the program may be built again
		}
		if registry.handles[e.v] == p {
			delete(registry.handles, e.v)
		}
		e.v = released{}
		registry.gone = append(registry.gone, p)
		if len(registry.gone) > quarantine {
			old := registry.gone[0]
			registry.gone = registry.gone[1:]
			delete(registry.objs, old)
			C.free(old)
		}
	}
	return C.CL_SUCCESS
}

// released marks a handle whose object is gone.
type released struct{}

func refCount(p unsafe.Pointer) int {
	registry.Lock()
	defer registry.Unlock()
	if e := registry.objs[p]; e != nil {
		return e.refs
	}
	return 0
}

// handleOf finds the handle of a Go object (contexts and queues point to
// each other by handle in info queries).
func handleOf(v any) unsafe.Pointer {
	registry.Lock()
	defer registry.Unlock()
	return registry.handles[v]
}

// deviceOf maps a cl_device_id to the platform's device.
func deviceOf(d C.cl_device_id) *opencl.Device {
	i := int(C.pg_device_index(d))
	if pgInit() == 0 || i < 0 || i >= len(platform.Devices) {
		return nil
	}
	return platform.Devices[i]
}

// status reports an error to stderr and returns its OpenCL code; for an
// object of a context use ctxStatus, which also tells the context.
func status(api string, err error) C.cl_int {
	return ctxStatus(nil, api, err)
}

// ctxStatus reports an error to stderr and to the context's pfn_notify
// (build failures only through the build log, as drivers do) and returns
// its OpenCL code.
func ctxStatus(ctx *opencl.Context, api string, err error) C.cl_int {
	if err == nil {
		return C.CL_SUCCESS
	}
	var e *opencl.Error
	if errors.As(err, &e) {
		if e.Status != opencl.BuildProgramFailure && e.Status != opencl.CompileProgramFailure && e.Status != opencl.LinkProgramFailure {
			msg := fmt.Sprintf("%s: %s", api, e.Msg)
			fmt.Fprintf(os.Stderr, "pocketgpu: %s\n", msg)
			ctx.Report(msg)
		}
		return C.cl_int(e.Status)
	}
	msg := fmt.Sprintf("%s: %v", api, err)
	fmt.Fprintf(os.Stderr, "pocketgpu: %s\n", msg)
	ctx.Report(msg)
	return C.CL_OUT_OF_RESOURCES
}

// fail reports an error the entry point found itself (a bad argument)
// and returns code.
func fail(ctx *opencl.Context, api string, code C.cl_int, format string, args ...any) C.cl_int {
	msg := fmt.Sprintf("%s: %s", api, fmt.Sprintf(format, args...))
	fmt.Fprintf(os.Stderr, "pocketgpu: %s\n", msg)
	ctx.Report(msg)
	return code
}

// setErr stores a creator's status in errcode_ret, if given.
func setErr(errcode *C.cl_int, s C.cl_int) {
	if errcode != nil {
		*errcode = s
	}
}

// setEvent returns a command's event through the event argument.
func setEvent(out *C.cl_event, ev *opencl.Event) {
	if out != nil && ev != nil {
		*out = C.cl_event(newObject(ev))
	}
}

// waitList checks an event wait list.
func waitList(n C.cl_uint, list *C.cl_event) C.cl_int {
	_, s := waitEvents(n, list)
	return s
}

// waitEvents is an event wait list's events; queue.After(evs) makes a
// command wait for them.
func waitEvents(n C.cl_uint, list *C.cl_event) ([]*opencl.Event, C.cl_int) {
	if (n == 0) != (list == nil) {
		return nil, C.CL_INVALID_EVENT_WAIT_LIST
	}
	var evs []*opencl.Event
	for _, ce := range unsafe.Slice(list, int(n)) {
		e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
		if !ok {
			return nil, C.CL_INVALID_EVENT_WAIT_LIST
		}
		evs = append(evs, e)
	}
	return evs, C.CL_SUCCESS
}

// queueAfter is the queue behind a handle with an event wait list, as
// enqueue calls take them: the command waits for the list's events.
func queueAfter(cq C.cl_command_queue, n C.cl_uint, list *C.cl_event) (*opencl.Queue, C.cl_int) {
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return nil, C.CL_INVALID_COMMAND_QUEUE
	}
	evs, s := waitEvents(n, list)
	if s != C.CL_SUCCESS {
		return nil, s
	}
	v, err := q.After(evs)
	if err != nil {
		return nil, ctxStatus(q.Ctx, "event wait list", err)
	}
	return v, C.CL_SUCCESS
}

// after is q as a command with the wait list (nw, wl) sees it: the
// command waits for those events.
func after(q *opencl.Queue, n C.cl_uint, list *C.cl_event) (*opencl.Queue, C.cl_int) {
	evs, s := waitEvents(n, list)
	if s != C.CL_SUCCESS {
		return nil, s
	}
	v, err := q.After(evs)
	if err != nil {
		return nil, ctxStatus(q.Ctx, "event wait list", err)
	}
	return v, C.CL_SUCCESS
}

// bytesAt views n bytes of the program's memory.
func bytesAt(p unsafe.Pointer, n C.size_t) []byte {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), int(n))
}

func u32(v uint32) []byte         { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
func u64(v uint64) []byte         { return append(u32(uint32(v)), u32(uint32(v>>32))...) }
func ptr(p unsafe.Pointer) []byte { return u64(uint64(uintptr(p))) }
func cstr(s string) []byte        { return append([]byte(s), 0) }

// guardStatus and guardObject turn a panic inside an entry point into an
// error code and a message: whatever the program passes, pocketgpu never
// takes the host process down.
func guardStatus(api string, s *C.cl_int) {
	if r := recover(); r != nil {
		fmt.Fprintf(os.Stderr, "pocketgpu: %s: internal error (please report it): %v\n", api, r)
		*s = C.CL_OUT_OF_RESOURCES
	}
}

func guardObject[T any](api string, errcode *C.cl_int, ret *T) {
	if r := recover(); r != nil {
		fmt.Fprintf(os.Stderr, "pocketgpu: %s: internal error (please report it): %v\n", api, r)
		var zero T
		*ret = zero
		setErr(errcode, C.CL_OUT_OF_RESOURCES)
	}
}

// liveContexts is the number of contexts not yet released.
func liveContexts() int {
	registry.Lock()
	defer registry.Unlock()
	n := 0
	for v := range registry.handles {
		if _, ok := v.(*opencl.Context); ok {
			n++
		}
	}
	return n
}
