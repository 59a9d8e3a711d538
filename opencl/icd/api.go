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

// The OpenCL entry points pocketgpu implements, called through the
// dispatch table (icd.c points it at these). Each checks its handles,
// calls package opencl and returns the status the specification gives.

// ---- contexts

//export pgCreateContext
func pgCreateContext(props *C.cl_context_properties, n C.cl_uint, devs *C.cl_device_id, notify, user unsafe.Pointer, errcode *C.cl_int) (ret C.cl_context) {
	defer guardObject("clCreateContext", errcode, &ret)
	if pgInit() == 0 {
		setErr(errcode, C.CL_INVALID_PLATFORM)
		return nil
	}
	if n == 0 || devs == nil || (notify == nil && user != nil) {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	if s := checkContextProps(props); s != C.CL_SUCCESS {
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
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_context(newObject(ctx))
}

// checkContextProps accepts CL_CONTEXT_PLATFORM naming this platform.
func checkContextProps(props *C.cl_context_properties) C.cl_int {
	if props == nil {
		return C.CL_SUCCESS
	}
	for p := unsafe.Pointer(props); ; p = unsafe.Add(p, 16) {
		key := *(*C.cl_context_properties)(p)
		if key == 0 {
			return C.CL_SUCCESS
		}
		val := *(*C.cl_context_properties)(unsafe.Add(p, 8))
		if key != C.CL_CONTEXT_PLATFORM {
			return C.CL_INVALID_PROPERTY
		}
		if uintptr(val) != uintptr(unsafe.Pointer(C.pg_platform())) {
			return C.CL_INVALID_PLATFORM
		}
	}
}

//export pgCreateContextFromType
func pgCreateContextFromType(props *C.cl_context_properties, typ C.cl_device_type, notify, user unsafe.Pointer, errcode *C.cl_int) (ret C.cl_context) {
	defer guardObject("clCreateContextFromType", errcode, &ret)
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
	return retain[*opencl.Context](unsafe.Pointer(c), C.CL_INVALID_CONTEXT)
}

//export pgReleaseContext
func pgReleaseContext(c C.cl_context) (ret C.cl_int) {
	defer guardStatus("clReleaseContext", &ret)
	return release[*opencl.Context](unsafe.Pointer(c), C.CL_INVALID_CONTEXT)
}

//export pgGetContextInfo
func pgGetContextInfo(c C.cl_context, param C.cl_context_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetContextInfo", &ret)
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
		b = nil
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

// ---- command queues

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

//export pgFinish
func pgFinish(q C.cl_command_queue) C.cl_int { return pgFlush(q) }

// ---- buffers

//export pgCreateBuffer
func pgCreateBuffer(c C.cl_context, flags C.cl_mem_flags, size C.size_t, host unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateBuffer", errcode, &ret)
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	var init []byte
	if host != nil {
		init = bytesAt(host, size)
	}
	b, err := ctx.NewBuffer(uint64(flags), int(size), init)
	if s := status("clCreateBuffer", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_mem(newObject(&buffer{Buffer: b, host: host}))
}

// buffer is a cl_mem with the host pointer it was made from.
type buffer struct {
	*opencl.Buffer
	host unsafe.Pointer
}

//export pgRetainMemObject
func pgRetainMemObject(m C.cl_mem) (ret C.cl_int) {
	defer guardStatus("clRetainMemObject", &ret)
	return retain[*buffer](unsafe.Pointer(m), C.CL_INVALID_MEM_OBJECT)
}

//export pgReleaseMemObject
func pgReleaseMemObject(m C.cl_mem) (ret C.cl_int) {
	defer guardStatus("clReleaseMemObject", &ret)
	return release[*buffer](unsafe.Pointer(m), C.CL_INVALID_MEM_OBJECT)
}

//export pgGetMemObjectInfo
func pgGetMemObjectInfo(m C.cl_mem, param C.cl_mem_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetMemObjectInfo", &ret)
	b, ok := lookup[*buffer](unsafe.Pointer(m))
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	var v []byte
	switch param {
	case C.CL_MEM_TYPE:
		v = u32(C.CL_MEM_OBJECT_BUFFER)
	case C.CL_MEM_FLAGS:
		v = u64(b.Flags)
	case C.CL_MEM_SIZE:
		v = u64(uint64(b.Size))
	case C.CL_MEM_HOST_PTR:
		v = ptr(nil)
		if b.Flags&opencl.MemUseHostPtr != 0 {
			v = ptr(b.host)
		}
	case C.CL_MEM_MAP_COUNT:
		v = u32(0)
	case C.CL_MEM_REFERENCE_COUNT:
		v = u32(uint32(refCount(unsafe.Pointer(m))))
	case C.CL_MEM_CONTEXT:
		v = ptr(handleOf(b.Ctx))
	case C.CL_MEM_ASSOCIATED_MEMOBJECT:
		v = ptr(nil)
	case C.CL_MEM_OFFSET:
		v = u64(0)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(v, nil, size, value, sizeRet)
}

// queueAndBuffer resolves the handles of a buffer command.
func queueAndBuffer(cq C.cl_command_queue, m C.cl_mem) (*opencl.Queue, *buffer, C.cl_int) {
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return nil, nil, C.CL_INVALID_COMMAND_QUEUE
	}
	b, ok := lookup[*buffer](unsafe.Pointer(m))
	if !ok {
		return nil, nil, C.CL_INVALID_MEM_OBJECT
	}
	return q, b, C.CL_SUCCESS
}

//export pgEnqueueReadBuffer
func pgEnqueueReadBuffer(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, off, size C.size_t, dst unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueReadBuffer", &ret)
	q, b, s := queueAndBuffer(cq, m)
	if s != C.CL_SUCCESS {
		return s
	}
	if s := waitList(nw, wl); s != C.CL_SUCCESS {
		return s
	}
	if dst == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Read(b.Buffer, int(off), bytesAt(dst, size))
	if s := status("clEnqueueReadBuffer", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueWriteBuffer
func pgEnqueueWriteBuffer(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, off, size C.size_t, src unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueWriteBuffer", &ret)
	q, b, s := queueAndBuffer(cq, m)
	if s != C.CL_SUCCESS {
		return s
	}
	if s := waitList(nw, wl); s != C.CL_SUCCESS {
		return s
	}
	if src == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Write(b.Buffer, int(off), bytesAt(src, size))
	if s := status("clEnqueueWriteBuffer", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueCopyBuffer
func pgEnqueueCopyBuffer(cq C.cl_command_queue, src, dst C.cl_mem, srcOff, dstOff, size C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyBuffer", &ret)
	q, sb, s := queueAndBuffer(cq, src)
	if s != C.CL_SUCCESS {
		return s
	}
	db, ok := lookup[*buffer](unsafe.Pointer(dst))
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	if s := waitList(nw, wl); s != C.CL_SUCCESS {
		return s
	}
	e, err := q.Copy(sb.Buffer, db.Buffer, int(srcOff), int(dstOff), int(size))
	if s := status("clEnqueueCopyBuffer", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueFillBuffer
func pgEnqueueFillBuffer(cq C.cl_command_queue, m C.cl_mem, pattern unsafe.Pointer, psize, off, size C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueFillBuffer", &ret)
	q, b, s := queueAndBuffer(cq, m)
	if s != C.CL_SUCCESS {
		return s
	}
	if s := waitList(nw, wl); s != C.CL_SUCCESS {
		return s
	}
	if pattern == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Fill(b.Buffer, bytesAt(pattern, psize), int(off), int(size))
	if s := status("clEnqueueFillBuffer", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

// ---- programs

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

// ---- kernels

//export pgCreateKernel
func pgCreateKernel(cp C.cl_program, name *C.char, errcode *C.cl_int) (ret C.cl_kernel) {
	defer guardObject("clCreateKernel", errcode, &ret)
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		setErr(errcode, C.CL_INVALID_PROGRAM)
		return nil
	}
	if name == nil {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	k, err := p.NewKernel(C.GoString(name))
	if s := status("clCreateKernel", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_kernel(newObject(k))
}

//export pgRetainKernel
func pgRetainKernel(k C.cl_kernel) (ret C.cl_int) {
	defer guardStatus("clRetainKernel", &ret)
	return retain[*opencl.Kernel](unsafe.Pointer(k), C.CL_INVALID_KERNEL)
}

//export pgReleaseKernel
func pgReleaseKernel(k C.cl_kernel) (ret C.cl_int) {
	defer guardStatus("clReleaseKernel", &ret)
	return release[*opencl.Kernel](unsafe.Pointer(k), C.CL_INVALID_KERNEL)
}

//export pgSetKernelArg
func pgSetKernelArg(ck C.cl_kernel, index C.cl_uint, size C.size_t, value unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clSetKernelArg", &ret)
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	var buf *opencl.Buffer
	var val []byte
	if k.IsBufferArg(int(index)) {
		if size == 8 && value != nil {
			if m := *(*unsafe.Pointer)(value); m != nil {
				b, ok := lookup[*buffer](m)
				if !ok {
					return C.CL_INVALID_MEM_OBJECT
				}
				buf = b.Buffer
			}
		}
	} else if value != nil {
		val = bytesAt(value, size)
	}
	return status("clSetKernelArg", k.SetArg(int(index), int(size), val, buf))
}

//export pgGetKernelInfo
func pgGetKernelInfo(ck C.cl_kernel, param C.cl_kernel_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetKernelInfo", &ret)
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	var b []byte
	switch param {
	case C.CL_KERNEL_FUNCTION_NAME:
		b = cstr(k.Name)
	case C.CL_KERNEL_NUM_ARGS:
		b = u32(uint32(len(k.Params)))
	case C.CL_KERNEL_REFERENCE_COUNT:
		b = u32(uint32(refCount(unsafe.Pointer(ck))))
	case C.CL_KERNEL_CONTEXT:
		b = ptr(handleOf(k.Program.Ctx))
	case C.CL_KERNEL_PROGRAM:
		b = ptr(handleOf(k.Program))
	case C.CL_KERNEL_ATTRIBUTES:
		b = cstr("")
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgGetKernelWorkGroupInfo
func pgGetKernelWorkGroupInfo(ck C.cl_kernel, d C.cl_device_id, param C.cl_kernel_work_group_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetKernelWorkGroupInfo", &ret)
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	dev := deviceOf(d)
	if d == nil && len(k.Program.Ctx.Devices) == 1 {
		dev = k.Program.Ctx.Devices[0]
	}
	if dev == nil {
		return C.CL_INVALID_DEVICE
	}
	wg, warp, local, err := k.WorkGroupInfo(dev)
	if s := status("clGetKernelWorkGroupInfo", err); s != C.CL_SUCCESS {
		return s
	}
	var b []byte
	switch param {
	case C.CL_KERNEL_WORK_GROUP_SIZE:
		b = u64(uint64(wg))
	case C.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		b = u64(uint64(warp))
	case C.CL_KERNEL_LOCAL_MEM_SIZE:
		b = u64(uint64(local))
	case C.CL_KERNEL_PRIVATE_MEM_SIZE:
		b = u64(0)
	case C.CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
		b = append(append(u64(0), u64(0)...), u64(0)...)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgEnqueueNDRangeKernel
func pgEnqueueNDRangeKernel(cq C.cl_command_queue, ck C.cl_kernel, dims C.cl_uint, offset, global, local *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueNDRangeKernel", &ret)
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	if dims < 1 || dims > 3 {
		return C.CL_INVALID_WORK_DIMENSION
	}
	if global == nil {
		return C.CL_INVALID_GLOBAL_WORK_SIZE
	}
	if s := waitList(nw, wl); s != C.CL_SUCCESS {
		return s
	}
	sizes := func(p *C.size_t) []int {
		if p == nil {
			return nil
		}
		out := make([]int, dims)
		for i, v := range unsafe.Slice(p, int(dims)) {
			out[i] = int(v)
		}
		return out
	}
	e, err := q.NDRange(k, int(dims), sizes(global), sizes(local), sizes(offset))
	if s := status("clEnqueueNDRangeKernel", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueTask
func pgEnqueueTask(cq C.cl_command_queue, ck C.cl_kernel, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueTask", &ret)
	one := C.size_t(1)
	return pgEnqueueNDRangeKernel(cq, ck, 1, nil, &one, &one, nw, wl, ev)
}

// ---- events

//export pgWaitForEvents
func pgWaitForEvents(n C.cl_uint, list *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clWaitForEvents", &ret)
	if n == 0 || list == nil {
		return C.CL_INVALID_VALUE
	}
	if waitList(n, list) != C.CL_SUCCESS {
		return C.CL_INVALID_EVENT
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
