package main

/*
#include "icd.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgCreateProgramWithSource
func pgCreateProgramWithSource(c C.cl_context, count C.cl_uint, strs **C.char, lengths *C.size_t, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithSource", errcode, &ret)
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if count == 0 || strs == nil {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	var src strings.Builder
	var lens []C.size_t
	if lengths != nil {
		lens = unsafe.Slice(lengths, int(count))
	}
	for i, s := range unsafe.Slice(strs, int(count)) {
		if s == nil {
			setErr(errcode, C.CL_INVALID_VALUE)
			return nil
		}
		if lens != nil && lens[i] != 0 {
			src.WriteString(C.GoStringN(s, C.int(lens[i])))
		} else {
			src.WriteString(C.GoString(s))
		}
	}
	p, err := ctx.NewProgram(src.String())
	if s := status("clCreateProgramWithSource", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_program(newObject(p))
}

//export pgCreateProgramWithIL
func pgCreateProgramWithIL(c C.cl_context, il unsafe.Pointer, length C.size_t, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithIL", errcode, &ret)
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if il == nil || length == 0 {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	p, err := ctx.NewProgramIL(append([]byte(nil), bytesAt(il, length)...))
	if s := status("clCreateProgramWithIL", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_program(newObject(p))
}

//export pgBuildProgram
func pgBuildProgram(cp C.cl_program, n C.cl_uint, devs *C.cl_device_id, options *C.char, notify, user unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clBuildProgram", &ret)
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	if (n == 0) != (devs == nil) || (notify == nil && user != nil) {
		return C.CL_INVALID_VALUE
	}
	var list []*opencl.Device
	for _, d := range unsafe.Slice(devs, int(n)) {
		dev := deviceOf(d)
		if dev == nil {
			return C.CL_INVALID_DEVICE
		}
		list = append(list, dev)
	}
	opts := ""
	if options != nil {
		opts = C.GoString(options)
	}
	return status("clBuildProgram", p.Build(list, opts))
}

//export pgGetProgramBuildInfo
func pgGetProgramBuildInfo(cp C.cl_program, d C.cl_device_id, param C.cl_program_build_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetProgramBuildInfo", &ret)
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	dev := deviceOf(d)
	if dev == nil {
		return C.CL_INVALID_DEVICE
	}
	st, log, opts := p.BuildInfo(dev)
	var b []byte
	switch param {
	case C.CL_PROGRAM_BUILD_STATUS:
		b = u32(uint32(st))
	case C.CL_PROGRAM_BUILD_OPTIONS:
		b = cstr(opts)
	case C.CL_PROGRAM_BUILD_LOG:
		b = cstr(log)
	case C.CL_PROGRAM_BINARY_TYPE:
		b = u32(C.CL_PROGRAM_BINARY_TYPE_NONE)
		if st == opencl.BuildSuccess {
			b = u32(C.CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
		}
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgGetProgramInfo
func pgGetProgramInfo(cp C.cl_program, param C.cl_program_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetProgramInfo", &ret)
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	var b []byte
	switch param {
	case C.CL_PROGRAM_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(cp))))
	case C.CL_PROGRAM_CONTEXT:
		b = ptr(handleOf(p.Ctx))
	case C.CL_PROGRAM_NUM_DEVICES:
		b = u32(uint32(len(p.Ctx.Devices)))
	case C.CL_PROGRAM_DEVICES:
		for _, d := range p.Ctx.Devices {
			b = append(b, ptr(unsafe.Pointer(C.pg_device(C.int(deviceIndex(d)))))...)
		}
	case C.CL_PROGRAM_SOURCE:
		b = cstr(p.Source)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgRetainProgram
func pgRetainProgram(p C.cl_program) (ret C.cl_int) {
	defer guardStatus("clRetainProgram", &ret)
	return retain[*opencl.Program](unsafe.Pointer(p), C.CL_INVALID_PROGRAM)
}

//export pgReleaseProgram
func pgReleaseProgram(p C.cl_program) (ret C.cl_int) {
	defer guardStatus("clReleaseProgram", &ret)
	return release[*opencl.Program](unsafe.Pointer(p), C.CL_INVALID_PROGRAM)
}
