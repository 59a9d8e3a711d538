package main

/*
#include "icd.h"

typedef void (CL_CALLBACK *pg_event_fn)(cl_event, cl_int, void *);

static inline void pg_call_event_fn(void *fn, cl_event e, cl_int status, void *user) {
	((pg_event_fn)fn)(e, status, user);
}
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgWaitForEvents
func pgWaitForEvents(n C.cl_uint, list *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clWaitForEvents", &ret)
	defer inPlatform()()
	if n == 0 || list == nil {
		return C.CL_INVALID_VALUE
	}
	evs, s := waitEvents(n, list)
	if s != C.CL_SUCCESS {
		return C.CL_INVALID_EVENT
	}
	return ctxStatus(evs[0].Ctx, "clWaitForEvents", opencl.WaitEvents(evs))
}

//export pgCreateUserEvent
func pgCreateUserEvent(c C.cl_context, errcode *C.cl_int) (ret C.cl_event) {
	defer guardObject("clCreateUserEvent", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_event(newObject(ctx.NewUserEvent()))
}

//export pgSetUserEventStatus
func pgSetUserEventStatus(ce C.cl_event, st C.cl_int) (ret C.cl_int) {
	defer guardStatus("clSetUserEventStatus", &ret)
	defer inPlatform()()
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	return ctxStatus(e.Ctx, "clSetUserEventStatus", e.SetUserStatus(int32(st)))
}

//export pgSetEventCallback
func pgSetEventCallback(ce C.cl_event, typ C.cl_int, fn, user unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clSetEventCallback", &ret)
	defer inPlatform()()
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	if fn == nil {
		return fail(e.Ctx, "clSetEventCallback", C.CL_INVALID_VALUE, "pfn_notify is NULL")
	}
	call := func(status int32) { C.pg_call_event_fn(fn, ce, C.cl_int(status), user) }
	return ctxStatus(e.Ctx, "clSetEventCallback", e.OnStatus(int32(typ), call))
}

//export pgGetEventInfo
func pgGetEventInfo(ce C.cl_event, param C.cl_event_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetEventInfo", &ret)
	defer inPlatform()()
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	var b []byte
	switch param {
	case C.CL_EVENT_COMMAND_QUEUE:
		b = ptr(nil)
		if e.Queue != nil {
			b = ptr(handleOf(e.Queue))
		}
	case C.CL_EVENT_CONTEXT:
		b = ptr(handleOf(e.Ctx))
	case C.CL_EVENT_COMMAND_TYPE:
		b = u32(e.Command)
	case C.CL_EVENT_COMMAND_EXECUTION_STATUS:
		b = u32(uint32(e.Status()))
	case C.CL_EVENT_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(ce))))
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

// Profiling times exist for commands of a profiling queue once they are
// complete; user events have none.
//
//export pgGetEventProfilingInfo
func pgGetEventProfilingInfo(ce C.cl_event, param C.cl_profiling_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetEventProfilingInfo", &ret)
	defer inPlatform()()
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	if e.Queue == nil || !e.Queue.Profiling || e.Status() != opencl.StatusComplete {
		return C.CL_PROFILING_INFO_NOT_AVAILABLE
	}
	var t uint64
	switch param {
	case C.CL_PROFILING_COMMAND_QUEUED:
		t = e.Queued
	case C.CL_PROFILING_COMMAND_SUBMIT:
		t = e.Submit
	case C.CL_PROFILING_COMMAND_START:
		t = e.Start
	case C.CL_PROFILING_COMMAND_END, C.CL_PROFILING_COMMAND_COMPLETE:
		t = e.End
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(u64(t), nil, size, value, sizeRet)
}

//export pgRetainEvent
func pgRetainEvent(e C.cl_event) (ret C.cl_int) {
	defer guardStatus("clRetainEvent", &ret)
	defer inPlatform()()
	return retain[*opencl.Event](unsafe.Pointer(e), C.CL_INVALID_EVENT)
}

//export pgReleaseEvent
func pgReleaseEvent(e C.cl_event) (ret C.cl_int) {
	defer guardStatus("clReleaseEvent", &ret)
	defer inPlatform()()
	return release[*opencl.Event](unsafe.Pointer(e), C.CL_INVALID_EVENT)
}
