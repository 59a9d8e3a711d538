package main

/*
#include "icd.h"
#include <stdlib.h>

typedef void (CL_CALLBACK *pg_context_fn)(const char *, const void *, size_t, void *);

static inline void pg_call_context_fn(void *fn, const char *msg, void *user) {
	((pg_context_fn)fn)(msg, NULL, 0, user);
}
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

// The OpenCL entry points pocketgpu implements in Go, one file per area
// (api_*.go). Each is exported as pgX for the table slot clX (stubgen
// wires them up), checks its handles, calls package opencl and returns the
// status the specification gives.

//export pgCreateContext
func pgCreateContext(props *C.cl_context_properties, n C.cl_uint, devs *C.cl_device_id, notify, user unsafe.Pointer, errcode *C.cl_int) (ret C.cl_context) {
	defer guardObject("clCreateContext", errcode, &ret)
	defer inPlatform()()
	if pgInit() == 0 {
		setErr(errcode, C.CL_INVALID_PLATFORM)
		return nil
	}
	if n == 0 || devs == nil || (notify == nil && user != nil) {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	saved, s := contextProps(props)
	if s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	var list []*opencl.Device
	for _, d := range unsafe.Slice(devs, int(n)) {
		dev := deviceOf(d)
		if dev == nil {
			setErr(errcode, C.CL_INVALID_DEVICE)
			return nil
		}
		list = append(list, dev)
	}
	ctx, err := platform.NewContext(list)
	if s := status("clCreateContext", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	ctx.Properties = saved
	if notify != nil {
		ctx.Notify = func(msg string) {
			cs := C.CString(msg)
			defer C.free(unsafe.Pointer(cs))
			C.pg_call_context_fn(notify, cs, user)
		}
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_context(newObject(ctx))
}

// contextProps checks a context's properties and returns them as given:
// CL_CONTEXT_PLATFORM naming this platform and CL_CONTEXT_INTEROP_USER_SYNC
// (a cl_bool), each at most once.
func contextProps(props *C.cl_context_properties) ([]uint64, C.cl_int) {
	if props == nil {
		return nil, C.CL_SUCCESS
	}
	var saved []uint64
	seen := map[C.cl_context_properties]bool{}
	for p := unsafe.Pointer(props); ; p = unsafe.Add(p, 16) {
		key := *(*C.cl_context_properties)(p)
		if key == 0 {
			return saved, C.CL_SUCCESS
		}
		val := *(*C.cl_context_properties)(unsafe.Add(p, 8))
		if seen[key] {
			return nil, C.CL_INVALID_PROPERTY
		}
		seen[key] = true
		switch key {
		case C.CL_CONTEXT_PLATFORM:
			if uintptr(val) != uintptr(unsafe.Pointer(C.pg_platform())) {
				return nil, C.CL_INVALID_PLATFORM
			}
		case C.CL_CONTEXT_INTEROP_USER_SYNC:
			if val != 0 && val != 1 {
				return nil, C.CL_INVALID_PROPERTY
			}
		default:
			return nil, C.CL_INVALID_PROPERTY
		}
		saved = append(saved, uint64(key), uint64(val))
	}
}

//export pgCreateContextFromType
func pgCreateContextFromType(props *C.cl_context_properties, typ C.cl_device_type, notify, user unsafe.Pointer, errcode *C.cl_int) (ret C.cl_context) {
	defer guardObject("clCreateContextFromType", errcode, &ret)
	defer inPlatform()()
	if pgInit() == 0 {
		setErr(errcode, C.CL_INVALID_PLATFORM)
		return nil
	}
	if typ&(C.CL_DEVICE_TYPE_GPU|C.CL_DEVICE_TYPE_DEFAULT) == 0 {
		setErr(errcode, C.CL_DEVICE_NOT_FOUND)
		return nil
	}
	n := len(platform.Devices)
	if typ == C.CL_DEVICE_TYPE_DEFAULT {
		n = 1
	}
	devs := make([]C.cl_device_id, n)
	for i := range devs {
		devs[i] = C.pg_device(C.int(i))
	}
	return pgCreateContext(props, C.cl_uint(n), &devs[0], notify, user, errcode)
}

//export pgRetainContext
func pgRetainContext(c C.cl_context) (ret C.cl_int) {
	defer guardStatus("clRetainContext", &ret)
	defer inPlatform()()
	return retain[*opencl.Context](unsafe.Pointer(c), C.CL_INVALID_CONTEXT)
}

//export pgReleaseContext
func pgReleaseContext(c C.cl_context) (ret C.cl_int) {
	defer guardStatus("clReleaseContext", &ret)
	defer inPlatform()()
	ret = release[*opencl.Context](unsafe.Pointer(c), C.CL_INVALID_CONTEXT)
	if ret == C.CL_SUCCESS && liveContexts() == 0 {
		// The program is done with the devices, most likely for good:
		// the trace is written now too, in case it ends without exit
		// (_exit, a signal) or is killed later.
		writeTrace()
	}
	return ret
}

//export pgGetContextInfo
func pgGetContextInfo(c C.cl_context, param C.cl_context_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetContextInfo", &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		return C.CL_INVALID_CONTEXT
	}
	var b []byte
	switch param {
	case C.CL_CONTEXT_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(c))))
	case C.CL_CONTEXT_NUM_DEVICES:
		b = u32(uint32(len(ctx.Devices)))
	case C.CL_CONTEXT_DEVICES:
		for _, d := range ctx.Devices {
			b = append(b, ptr(unsafe.Pointer(C.pg_device(C.int(deviceIndex(d)))))...)
		}
	case C.CL_CONTEXT_PROPERTIES:
		// What clCreateContext was given, with its terminating 0, or
		// nothing if it was given none.
		for _, v := range ctx.Properties {
			b = append(b, u64(v)...)
		}
		if ctx.Properties != nil {
			b = append(b, u64(0)...)
		}
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

func deviceIndex(d *opencl.Device) int {
	for i, x := range platform.Devices {
		if x == d {
			return i
		}
	}
	return -1
}
