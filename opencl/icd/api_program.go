package main

/*
#include "icd.h"

typedef void (CL_CALLBACK *pg_program_fn)(cl_program, void *);

static inline void pg_call_program_fn(void *fn, cl_program p, void *user) {
	((pg_program_fn)fn)(p, user);
}
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgCreateProgramWithSource
func pgCreateProgramWithSource(c C.cl_context, count C.cl_uint, strs **C.char, lengths *C.size_t, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithSource", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if count == 0 || strs == nil {
		setErr(errcode, fail(ctx, "clCreateProgramWithSource", C.CL_INVALID_VALUE, "no strings"))
		return nil
	}
	var src strings.Builder
	var lens []C.size_t
	if lengths != nil {
		lens = unsafe.Slice(lengths, int(count))
	}
	for i, s := range unsafe.Slice(strs, int(count)) {
		if s == nil {
			setErr(errcode, fail(ctx, "clCreateProgramWithSource", C.CL_INVALID_VALUE, "string %d is NULL", i))
			return nil
		}
		if lens != nil && lens[i] != 0 {
			src.WriteString(C.GoStringN(s, C.int(lens[i])))
		} else {
			src.WriteString(C.GoString(s))
		}
	}
	p, err := ctx.NewProgram(src.String())
	return newProgram(ctx, "clCreateProgramWithSource", p, err, errcode)
}

// newProgram returns a made program's handle, or reports why there is none.
func newProgram(ctx *opencl.Context, api string, p *opencl.Program, err error, errcode *C.cl_int) C.cl_program {
	if s := ctxStatus(ctx, api, err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_program(newObject(p))
}

//export pgCreateProgramWithIL
func pgCreateProgramWithIL(c C.cl_context, il unsafe.Pointer, length C.size_t, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithIL", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if il == nil || length == 0 {
		setErr(errcode, fail(ctx, "clCreateProgramWithIL", C.CL_INVALID_VALUE, "no IL"))
		return nil
	}
	p, err := ctx.NewProgramIL(append([]byte(nil), bytesAt(il, length)...))
	return newProgram(ctx, "clCreateProgramWithIL", p, err, errcode)
}

//export pgCreateProgramWithBinary
func pgCreateProgramWithBinary(c C.cl_context, n C.cl_uint, devs *C.cl_device_id, lengths *C.size_t, bins **C.uchar, binStatus *C.cl_int, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithBinary", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if n == 0 || devs == nil || lengths == nil || bins == nil {
		setErr(errcode, fail(ctx, "clCreateProgramWithBinary", C.CL_INVALID_VALUE, "no devices or binaries"))
		return nil
	}
	list, s := deviceList(n, devs)
	if s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	lens := unsafe.Slice(lengths, int(n))
	var data [][]byte
	for i, b := range unsafe.Slice(bins, int(n)) {
		if b == nil || lens[i] == 0 {
			setErr(errcode, fail(ctx, "clCreateProgramWithBinary", C.CL_INVALID_VALUE, "binary %d is NULL or empty", i))
			return nil
		}
		data = append(data, bytesAt(unsafe.Pointer(b), lens[i]))
	}
	p, st, err := ctx.NewProgramBinary(list, data)
	if binStatus != nil && st != nil {
		for i, v := range st {
			*(*C.cl_int)(unsafe.Add(unsafe.Pointer(binStatus), 4*i)) = C.cl_int(v)
		}
	}
	return newProgram(ctx, "clCreateProgramWithBinary", p, err, errcode)
}

// No device has built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty), so
// every name is unknown.
//
//export pgCreateProgramWithBuiltInKernels
func pgCreateProgramWithBuiltInKernels(c C.cl_context, n C.cl_uint, devs *C.cl_device_id, names *C.char, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clCreateProgramWithBuiltInKernels", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if _, s := deviceList(n, devs); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, fail(ctx, "clCreateProgramWithBuiltInKernels", C.CL_INVALID_VALUE, "the devices have no built-in kernels"))
	return nil
}

// deviceList reads a device list (n devices; n 0 with a NULL list is
// none, which callers take as all).
func deviceList(n C.cl_uint, devs *C.cl_device_id) ([]*opencl.Device, C.cl_int) {
	if (n == 0) != (devs == nil) {
		return nil, C.CL_INVALID_VALUE
	}
	var list []*opencl.Device
	for _, d := range unsafe.Slice(devs, int(n)) {
		dev := deviceOf(d)
		if dev == nil {
			return nil, C.CL_INVALID_DEVICE
		}
		list = append(list, dev)
	}
	return list, C.CL_SUCCESS
}

// notifyProgram calls a build's pfn_notify, after the build, as the
// specification allows.
func notifyProgram(fn, user unsafe.Pointer, cp C.cl_program) {
	if fn != nil {
		C.pg_call_program_fn(fn, cp, user)
	}
}

//export pgBuildProgram
func pgBuildProgram(cp C.cl_program, n C.cl_uint, devs *C.cl_device_id, options *C.char, notify, user unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clBuildProgram", &ret)
	defer inPlatform()()
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	if notify == nil && user != nil {
		return fail(p.Ctx, "clBuildProgram", C.CL_INVALID_VALUE, "user_data without pfn_notify")
	}
	list, s := deviceList(n, devs)
	if s != C.CL_SUCCESS {
		return s
	}
	err := p.Build(list, C.GoString(options))
	notifyProgram(notify, user, cp)
	return ctxStatus(p.Ctx, "clBuildProgram", err)
}

//export pgCompileProgram
func pgCompileProgram(cp C.cl_program, n C.cl_uint, devs *C.cl_device_id, options *C.char, nh C.cl_uint, headers *C.cl_program, names **C.char, notify, user unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clCompileProgram", &ret)
	defer inPlatform()()
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	if (notify == nil && user != nil) || (nh == 0) != (headers == nil) || (nh == 0) != (names == nil) {
		return fail(p.Ctx, "clCompileProgram", C.CL_INVALID_VALUE, "user_data without pfn_notify, or headers without names")
	}
	list, s := deviceList(n, devs)
	if s != C.CL_SUCCESS {
		return s
	}
	var hs []kernel.Header
	if nh > 0 {
		hn := unsafe.Slice(names, int(nh))
		for i, h := range unsafe.Slice(headers, int(nh)) {
			hp, ok := lookup[*opencl.Program](unsafe.Pointer(h))
			if !ok || hn[i] == nil {
				return fail(p.Ctx, "clCompileProgram", C.CL_INVALID_VALUE, "header %d is not a program or has no name", i)
			}
			hs = append(hs, kernel.Header{Name: C.GoString(hn[i]), Source: []byte(hp.Source)})
		}
	}
	err := p.Compile(list, C.GoString(options), hs)
	notifyProgram(notify, user, cp)
	return ctxStatus(p.Ctx, "clCompileProgram", err)
}

//export pgLinkProgram
func pgLinkProgram(c C.cl_context, n C.cl_uint, devs *C.cl_device_id, options *C.char, np C.cl_uint, progs *C.cl_program, notify, user unsafe.Pointer, errcode *C.cl_int) (ret C.cl_program) {
	defer guardObject("clLinkProgram", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if (notify == nil && user != nil) || np == 0 || progs == nil {
		setErr(errcode, fail(ctx, "clLinkProgram", C.CL_INVALID_VALUE, "no programs, or user_data without pfn_notify"))
		return nil
	}
	list, s := deviceList(n, devs)
	if s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	var inputs []*opencl.Program
	for _, h := range unsafe.Slice(progs, int(np)) {
		ip, ok := lookup[*opencl.Program](unsafe.Pointer(h))
		if !ok {
			setErr(errcode, C.CL_INVALID_PROGRAM)
			return nil
		}
		inputs = append(inputs, ip)
	}
	p, err := ctx.Link(list, C.GoString(options), inputs)
	if p == nil {
		setErr(errcode, ctxStatus(ctx, "clLinkProgram", err))
		return nil
	}
	cp := C.cl_program(newObject(p))
	notifyProgram(notify, user, cp)
	setErr(errcode, ctxStatus(ctx, "clLinkProgram", err))
	return cp
}

// The compiler is a set of external tools run per build: there is nothing
// loaded to unload.
//
//export pgUnloadPlatformCompiler
func pgUnloadPlatformCompiler(pl C.cl_platform_id) C.cl_int {
	if unsafe.Pointer(pl) != unsafe.Pointer(C.pg_platform()) {
		return C.CL_INVALID_PLATFORM
	}
	return C.CL_SUCCESS
}

//export pgUnloadCompiler
func pgUnloadCompiler() C.cl_int { return C.CL_SUCCESS }

//export pgGetProgramBuildInfo
func pgGetProgramBuildInfo(cp C.cl_program, d C.cl_device_id, param C.cl_program_build_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetProgramBuildInfo", &ret)
	defer inPlatform()()
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	dev := deviceOf(d)
	if dev == nil || !programHas(p, dev) {
		return C.CL_INVALID_DEVICE
	}
	st, log, opts, typ := p.BuildInfo(dev)
	var b []byte
	switch param {
	case C.CL_PROGRAM_BUILD_STATUS:
		b = u32(uint32(st))
	case C.CL_PROGRAM_BUILD_OPTIONS:
		b = cstr(opts)
	case C.CL_PROGRAM_BUILD_LOG:
		b = cstr(log)
	case C.CL_PROGRAM_BINARY_TYPE:
		b = u32(typ)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

func programHas(p *opencl.Program, d *opencl.Device) bool {
	for _, x := range p.Devices {
		if x == d {
			return true
		}
	}
	return false
}

//export pgGetProgramInfo
func pgGetProgramInfo(cp C.cl_program, param C.cl_program_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetProgramInfo", &ret)
	defer inPlatform()()
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
		b = u32(uint32(len(p.Devices)))
	case C.CL_PROGRAM_DEVICES:
		for _, d := range p.Devices {
			b = append(b, ptr(unsafe.Pointer(C.pg_device(C.int(deviceIndex(d)))))...)
		}
	case C.CL_PROGRAM_SOURCE:
		b = cstr(p.Source)
	case C.CL_PROGRAM_IL:
		b = p.IL
	case C.CL_PROGRAM_BINARY_SIZES:
		for _, bin := range p.Binaries() {
			b = append(b, u64(uint64(len(bin)))...)
		}
	case C.CL_PROGRAM_BINARIES:
		return programBinaries(p, size, value, sizeRet)
	case C.CL_PROGRAM_NUM_KERNELS, C.CL_PROGRAM_KERNEL_NAMES:
		names, err := p.KernelNames()
		if err != nil {
			return C.CL_INVALID_PROGRAM_EXECUTABLE
		}
		b = u64(uint64(len(names)))
		if param == C.CL_PROGRAM_KERNEL_NAMES {
			b = cstr(strings.Join(names, ";"))
		}
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

// programBinaries copies each device's binary to the buffer the program
// gave for it (an array of pointers; a NULL one is skipped).
func programBinaries(p *opencl.Program, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) C.cl_int {
	bins := p.Binaries()
	need := C.size_t(len(bins) * int(unsafe.Sizeof(uintptr(0))))
	if value != nil {
		if size < need {
			return C.CL_INVALID_VALUE
		}
		for i, bin := range bins {
			dst := *(*unsafe.Pointer)(unsafe.Add(value, i*int(unsafe.Sizeof(uintptr(0)))))
			if dst != nil && len(bin) > 0 {
				copy(unsafe.Slice((*byte)(dst), len(bin)), bin)
			}
		}
	}
	if sizeRet != nil {
		*sizeRet = need
	}
	return C.CL_SUCCESS
}

//export pgRetainProgram
func pgRetainProgram(p C.cl_program) (ret C.cl_int) {
	defer guardStatus("clRetainProgram", &ret)
	defer inPlatform()()
	return retain[*opencl.Program](unsafe.Pointer(p), C.CL_INVALID_PROGRAM)
}

//export pgReleaseProgram
func pgReleaseProgram(p C.cl_program) (ret C.cl_int) {
	defer guardStatus("clReleaseProgram", &ret)
	defer inPlatform()()
	return release[*opencl.Program](unsafe.Pointer(p), C.CL_INVALID_PROGRAM)
}
