package main

/*
#include "icd.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgWaitForEvents
func pgWaitForEvents(n C.cl_uint, list *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clWaitForEvents", &ret)
	if n == 0 || list == nil {
		return C.CL_INVALID_VALUE
	}
	if waitList(n, list) != C.CL_SUCCESS {
		return C.CL_INVALID_EVENT
	}
	for _, ce := range unsafe.Slice(list, int(n)) {
		e, _ := lookup[*opencl.Event](unsafe.Pointer(ce))
		e.Wait()
	}
	return C.CL_SUCCESS
}

//export pgGetEventInfo
func pgGetEventInfo(ce C.cl_event, param C.cl_event_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetEventInfo", &ret)
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	var b []byte
	switch param {
	case C.CL_EVENT_COMMAND_QUEUE:
		b = ptr(handleOf(e.Queue))
	case C.CL_EVENT_CONTEXT:
		b = ptr(handleOf(e.Queue.Ctx))
	case C.CL_EVENT_COMMAND_TYPE:
		b = u32(e.Command)
	case C.CL_EVENT_COMMAND_EXECUTION_STATUS:
		b = u32(uint32(e.Status))
	case C.CL_EVENT_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(ce))))
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgGetEventProfilingInfo
func pgGetEventProfilingInfo(ce C.cl_event, param C.cl_profiling_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetEventProfilingInfo", &ret)
	e, ok := lookup[*opencl.Event](unsafe.Pointer(ce))
	if !ok {
		return C.CL_INVALID_EVENT
	}
	if !e.Queue.Profiling {
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
	return retain[*opencl.Event](unsafe.Pointer(e), C.CL_INVALID_EVENT)
}

//export pgReleaseEvent
func pgReleaseEvent(e C.cl_event) (ret C.cl_int) {
	defer guardStatus("clReleaseEvent", &ret)
	return release[*opencl.Event](unsafe.Pointer(e), C.CL_INVALID_EVENT)
}
