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
	objs map[unsafe.Pointer]*entry
}{objs: map[unsafe.Pointer]*entry{}}

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
	e := registry.objs[p]
	if e == nil {
		return invalid
	}
	if _, ok := e.v.(T); !ok {
		return invalid
	}
	e.refs++
	return C.CL_SUCCESS
}

func release[T any](p unsafe.Pointer, invalid C.cl_int) C.cl_int {
	registry.Lock()
	defer registry.Unlock()
	e := registry.objs[p]
	if e == nil {
		return invalid
	}
	if _, ok := e.v.(T); !ok {
		return invalid
	}
	if e.refs--; e.refs == 0 {
		// The Go object goes; the C struct stays, so a release too many
		// still reaches pocketgpu through its dispatch table (the loader
		// reads it) and gets an invalid-object error instead of a crash
		// on freed memory. It costs one word per released object.
		e.v = released{}
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
	for p, e := range registry.objs {
		if e.v == v {
			return p
		}
	}
	return nil
}

// deviceOf maps a cl_device_id to the platform's device.
func deviceOf(d C.cl_device_id) *opencl.Device {
	i := int(C.pg_device_index(d))
	if pgInit() == 0 || i < 0 || i >= len(platform.Devices) {
		return nil
	}
	return platform.Devices[i]
}

// status reports an error to stderr (the platform's build log and
// pfn_notify come later) and returns its OpenCL code.
func status(api string, err error) C.cl_int {
	if err == nil {
		return C.CL_SUCCESS
	}
	var e *opencl.Error
	if errors.As(err, &e) {
		if e.Status != opencl.BuildProgramFailure {
			fmt.Fprintf(os.Stderr, "pocketgpu: %s: %s\n", api, e.Msg)
		}
		return C.cl_int(e.Status)
	}
	fmt.Fprintf(os.Stderr, "pocketgpu: %s: %v\n", api, err)
	return C.CL_OUT_OF_RESOURCES
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

// waitList checks an event wait list (the queue runs each command when it
// is enqueued, so every listed event is complete).
func waitList(n C.cl_uint, list *C.cl_event) C.cl_int {
	if (n == 0) != (list == nil) {
		return C.CL_INVALID_EVENT_WAIT_LIST
	}
	for _, e := range unsafe.Slice(list, int(n)) {
		if _, ok := lookup[*opencl.Event](unsafe.Pointer(e)); !ok {
			return C.CL_INVALID_EVENT_WAIT_LIST
		}
	}
	return C.CL_SUCCESS
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
