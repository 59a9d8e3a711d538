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
	q.Functional = functional
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_command_queue(newObject(q))
}

//export pgCreateCommandQueueWithProperties
func pgCreateCommandQueueWithProperties(c C.cl_context, d C.cl_device_id, props *C.cl_queue_properties, errcode *C.cl_int) (ret C.cl_command_queue) {
	defer guardObject("clCreateCommandQueueWithProperties", errcode, &ret)
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
	return retain[*opencl.Queue](unsafe.Pointer(q), C.CL_INVALID_COMMAND_QUEUE)
}

//export pgReleaseCommandQueue
func pgReleaseCommandQueue(q C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clReleaseCommandQueue", &ret)
	return release[*opencl.Queue](unsafe.Pointer(q), C.CL_INVALID_COMMAND_QUEUE)
}

//export pgGetCommandQueueInfo
func pgGetCommandQueueInfo(cq C.cl_command_queue, param C.cl_command_queue_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetCommandQueueInfo", &ret)
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
		b = u64(bits)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

// Commands run when they are enqueued, so flushing and finishing have
// nothing left to wait for.

//export pgFlush
func pgFlush(q C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clFlush", &ret)
	if _, ok := lookup[*opencl.Queue](unsafe.Pointer(q)); !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	return C.CL_SUCCESS
}

// clFinish waits for the queue's device: on a virtual clock, the program's
// clocks move to when the device is done.
//
//export pgFinish
func pgFinish(cq C.cl_command_queue) (ret C.cl_int) {
	defer guardStatus("clFinish", &ret)
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	q.Finish()
	return C.CL_SUCCESS
}
