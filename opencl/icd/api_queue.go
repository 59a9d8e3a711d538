package main

/*
#include "icd.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgCreateCommandQueue
func pgCreateCommandQueue(c C.cl_context, d C.cl_device_id, props C.cl_command_queue_properties, errcode *C.cl_int) (ret C.cl_command_queue) {
	defer guardObject("clCreateCommandQueue", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	dev := deviceOf(d)
	if dev == nil {
		setErr(errcode, C.CL_INVALID_DEVICE)
		return nil
	}
	q, err := ctx.NewQueue(dev, uint64(props))
	if s := status("clCreateCommandQueue", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	q.Functional, q.Detail, q.Strict = functional, detail, strict
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_command_queue(newObject(q))
}

//export pgCreateCommandQueueWithProperties
func pgCreateCommandQueueWithProperties(c C.cl_context, d C.cl_device_id, props *C.cl_queue_properties, errcode *C.cl_int) (ret C.cl_command_queue) {
	defer guardObject("clCreateCommandQueueWithProperties", errcode, &ret)
	defer inPlatform()()
	var bits C.cl_command_queue_properties
	for p := unsafe.Pointer(props); p != nil; p = unsafe.Add(p, 16) {
		key := *(*C.cl_queue_properties)(p)
		if key == 0 {
			break
		}
		val := *(*C.cl_queue_properties)(unsafe.Add(p, 8))
		if key != C.CL_QUEUE_PROPERTIES {
			setErr(errcode, C.CL_INVALID_VALUE)
			return nil
		}
		bits = C.cl_command_queue_properties(val)
	}
	return pgCreateCommandQueue(c, d, bits, errcode)
}

//export pgRetainCommandQueue
func pgRetainCommandQueue(q C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clRetainCommandQueue", &ret)
	defer inPlatform()()
	return retain[*opencl.Queue](unsafe.Pointer(q), C.CL_INVALID_COMMAND_QUEUE)
}

//export pgReleaseCommandQueue
func pgReleaseCommandQueue(q C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clReleaseCommandQueue", &ret)
	defer inPlatform()()
	return release[*opencl.Queue](unsafe.Pointer(q), C.CL_INVALID_COMMAND_QUEUE)
}

//export pgGetCommandQueueInfo
func pgGetCommandQueueInfo(cq C.cl_command_queue, param C.cl_command_queue_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetCommandQueueInfo", &ret)
	defer inPlatform()()
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	var b []byte
	switch param {
	case C.CL_QUEUE_CONTEXT:
		b = ptr(handleOf(q.Ctx))
	case C.CL_QUEUE_DEVICE:
		b = ptr(unsafe.Pointer(C.pg_device(C.int(deviceIndex(q.Device)))))
	case C.CL_QUEUE_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(cq))))
	case C.CL_QUEUE_PROPERTIES:
		var bits uint64
		if q.Profiling {
			bits |= opencl.QueueProfiling
		}
		if q.OutOfOrder {
			bits |= opencl.QueueOutOfOrder
		}
		b = u64(bits)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

// Commands run as soon as they are ready (at enqueue, or when what they
// wait for completes), so a flush has nothing to submit.

//export pgFlush
func pgFlush(q C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clFlush", &ret)
	defer inPlatform()()
	if _, ok := lookup[*opencl.Queue](unsafe.Pointer(q)); !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	return C.CL_SUCCESS
}

// clFinish waits for the queue's commands: on a virtual clock, the
// program's clocks move to when the device is done.
//
//export pgFinish
func pgFinish(cq C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clFinish", &ret)
	defer inPlatform()()
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	q.Finish()
	return C.CL_SUCCESS
}

// clSetCommandQueueProperty is OpenCL 1.0's, deprecated since 1.1: a
// queue's properties are fixed when it is made here.
//
//export pgSetCommandQueueProperty
func pgSetCommandQueueProperty(cq C.cl_command_queue, props C.cl_command_queue_properties, enable C.cl_bool, old *C.cl_command_queue_properties) (ret C.cl_int) {
	defer guardStatus("clSetCommandQueueProperty", &ret)
	defer inPlatform()()
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	if props&^C.cl_command_queue_properties(opencl.QueueOutOfOrder|opencl.QueueProfiling) != 0 {
		return fail(q.Ctx, "clSetCommandQueueProperty", C.CL_INVALID_VALUE, "unknown queue properties %#x", uint64(props))
	}
	return fail(q.Ctx, "clSetCommandQueueProperty", C.CL_INVALID_OPERATION, "deprecated since OpenCL 1.1; give the properties to clCreateCommandQueue")
}

// Markers and barriers: the queue runs in order, so both wait for every
// command before them, and for their wait list.

//export pgEnqueueMarkerWithWaitList
func pgEnqueueMarkerWithWaitList(cq C.cl_command_queue, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueMarkerWithWaitList", &ret)
	defer inPlatform()()
	return enqueueSync(cq, nw, wl, ev, "clEnqueueMarkerWithWaitList", (*opencl.Queue).Marker)
}

//export pgEnqueueBarrierWithWaitList
func pgEnqueueBarrierWithWaitList(cq C.cl_command_queue, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueBarrierWithWaitList", &ret)
	defer inPlatform()()
	return enqueueSync(cq, nw, wl, ev, "clEnqueueBarrierWithWaitList", (*opencl.Queue).Barrier)
}

//export pgEnqueueMarker
func pgEnqueueMarker(cq C.cl_command_queue, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueMarker", &ret)
	defer inPlatform()()
	if ev == nil {
		return C.CL_INVALID_VALUE
	}
	return enqueueSync(cq, 0, nil, ev, "clEnqueueMarker", (*opencl.Queue).Marker)
}

//export pgEnqueueBarrier
func pgEnqueueBarrier(cq C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clEnqueueBarrier", &ret)
	defer inPlatform()()
	return enqueueSync(cq, 0, nil, nil, "clEnqueueBarrier", (*opencl.Queue).Barrier)
}

//export pgEnqueueWaitForEvents
func pgEnqueueWaitForEvents(cq C.cl_command_queue, n C.cl_uint, list *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueWaitForEvents", &ret)
	defer inPlatform()()
	if n == 0 || list == nil {
		if _, ok := lookup[*opencl.Queue](unsafe.Pointer(cq)); !ok {
			return C.CL_INVALID_COMMAND_QUEUE
		}
		return C.CL_INVALID_VALUE
	}
	if _, s := waitEvents(n, list); s != C.CL_SUCCESS {
		return C.CL_INVALID_EVENT
	}
	return enqueueSync(cq, n, list, nil, "clEnqueueWaitForEvents", (*opencl.Queue).Barrier)
}

// enqueueSync enqueues a marker or barrier after a wait list.
func enqueueSync(cq C.cl_command_queue, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event, api string, cmd func(*opencl.Queue) (*opencl.Event, error)) C.cl_int {
	q, s := queueAfter(cq, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	e, err := cmd(q)
	if s := ctxStatus(q.Ctx, api, err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}
