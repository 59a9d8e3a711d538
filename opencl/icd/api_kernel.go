package main

/*
#include "icd.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgCreateKernel
func pgCreateKernel(cp C.cl_program, name *C.char, errcode *C.cl_int) (ret C.cl_kernel) {
	defer guardObject("clCreateKernel", errcode, &ret)
	defer inPlatform()()
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
	if s := ctxStatus(p.Ctx, "clCreateKernel", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_kernel(newObject(k))
}

//export pgRetainKernel
func pgRetainKernel(k C.cl_kernel) (ret C.cl_int) {
	defer guardStatus("clRetainKernel", &ret)
	defer inPlatform()()
	return retain[*opencl.Kernel](unsafe.Pointer(k), C.CL_INVALID_KERNEL)
}

//export pgReleaseKernel
func pgReleaseKernel(k C.cl_kernel) (ret C.cl_int) {
	defer guardStatus("clReleaseKernel", &ret)
	defer inPlatform()()
	return release[*opencl.Kernel](unsafe.Pointer(k), C.CL_INVALID_KERNEL)
}

//export pgSetKernelArg
func pgSetKernelArg(ck C.cl_kernel, index C.cl_uint, size C.size_t, value unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clSetKernelArg", &ret)
	defer inPlatform()()
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	var buf *opencl.Buffer
	var val []byte
	// The handle an image, sampler or buffer argument points to.
	handle := func() unsafe.Pointer {
		if size == 8 && value != nil {
			return *(*unsafe.Pointer)(value)
		}
		return nil
	}
	switch i := int(index); {
	case k.IsImageArg(i):
		o, _ := lookupImage(C.cl_mem(handle()))
		if o == nil {
			if size != 8 {
				return ctxStatus(k.Program.Ctx, "clSetKernelArg", k.SetImageArg(i, int(size), nil))
			}
			return C.CL_INVALID_MEM_OBJECT
		}
		return ctxStatus(k.Program.Ctx, "clSetKernelArg", k.SetImageArg(i, int(size), o.img))
	case k.IsSamplerArg(i):
		s, _ := lookup[*opencl.Sampler](handle())
		return ctxStatus(k.Program.Ctx, "clSetKernelArg", k.SetSamplerArg(i, int(size), s))
	}
	if k.IsBufferArg(int(index)) {
		if m := handle(); m != nil {
			b, ok := lookupBuffer(C.cl_mem(m))
			if !ok {
				return C.CL_INVALID_MEM_OBJECT
			}
			buf = b.buf
		}
	} else if value != nil {
		val = bytesAt(value, size)
	}
	return ctxStatus(k.Program.Ctx, "clSetKernelArg", k.SetArg(int(index), int(size), val, buf))
}

//export pgGetKernelInfo
func pgGetKernelInfo(ck C.cl_kernel, param C.cl_kernel_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetKernelInfo", &ret)
	defer inPlatform()()
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
		b = cstr(k.Attributes())
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgGetKernelWorkGroupInfo
func pgGetKernelWorkGroupInfo(ck C.cl_kernel, d C.cl_device_id, param C.cl_kernel_work_group_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetKernelWorkGroupInfo", &ret)
	defer inPlatform()()
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	dev := deviceOf(d)
	if d == nil && len(k.Program.Devices) == 1 {
		dev = k.Program.Devices[0]
	}
	if dev == nil {
		return C.CL_INVALID_DEVICE
	}
	info, err := k.WorkGroup(dev)
	if s := ctxStatus(k.Program.Ctx, "clGetKernelWorkGroupInfo", err); s != C.CL_SUCCESS {
		return s
	}
	var b []byte
	switch param {
	case C.CL_KERNEL_WORK_GROUP_SIZE:
		b = u64(uint64(info.Size))
	case C.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		b = u64(uint64(info.Multiple))
	case C.CL_KERNEL_LOCAL_MEM_SIZE:
		b = u64(uint64(info.LocalBytes))
	case C.CL_KERNEL_PRIVATE_MEM_SIZE:
		b = u64(uint64(info.PrivateBytes))
	case C.CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
		for _, v := range info.Compile {
			b = append(b, u64(uint64(v))...)
		}
	case C.CL_KERNEL_GLOBAL_WORK_SIZE:
		// Only for custom devices and built-in kernels.
		return fail(k.Program.Ctx, "clGetKernelWorkGroupInfo", C.CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels")
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgGetKernelArgInfo
func pgGetKernelArgInfo(ck C.cl_kernel, index C.cl_uint, param C.cl_kernel_arg_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetKernelArgInfo", &ret)
	defer inPlatform()()
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	info, err := k.ArgInfo(int(index))
	if err != nil {
		return ctxStatus(k.Program.Ctx, "clGetKernelArgInfo", err)
	}
	var b []byte
	switch param {
	case C.CL_KERNEL_ARG_ADDRESS_QUALIFIER:
		b = u32(info.Address)
	case C.CL_KERNEL_ARG_ACCESS_QUALIFIER:
		b = u32(info.Access)
	case C.CL_KERNEL_ARG_TYPE_NAME:
		b = cstr(info.TypeName)
	case C.CL_KERNEL_ARG_TYPE_QUALIFIER:
		b = u64(info.TypeQual)
	case C.CL_KERNEL_ARG_NAME:
		b = cstr(info.Name)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(b, nil, size, value, sizeRet)
}

//export pgCreateKernelsInProgram
func pgCreateKernelsInProgram(cp C.cl_program, n C.cl_uint, out *C.cl_kernel, nRet *C.cl_uint) (ret C.cl_int) {
	defer guardStatus("clCreateKernelsInProgram", &ret)
	defer inPlatform()()
	p, ok := lookup[*opencl.Program](unsafe.Pointer(cp))
	if !ok {
		return C.CL_INVALID_PROGRAM
	}
	names, err := p.KernelNames()
	if s := ctxStatus(p.Ctx, "clCreateKernelsInProgram", err); s != C.CL_SUCCESS {
		return s
	}
	if out != nil && int(n) < len(names) {
		return fail(p.Ctx, "clCreateKernelsInProgram", C.CL_INVALID_VALUE, "num_kernels %d is less than the program's %d kernels", n, len(names))
	}
	if out != nil {
		ks, err := p.KernelsInProgram()
		if s := ctxStatus(p.Ctx, "clCreateKernelsInProgram", err); s != C.CL_SUCCESS {
			return s
		}
		for i, k := range ks {
			*(*C.cl_kernel)(unsafe.Add(unsafe.Pointer(out), i*int(unsafe.Sizeof(uintptr(0))))) = C.cl_kernel(newObject(k))
		}
	}
	if nRet != nil {
		*nRet = C.cl_uint(len(names))
	}
	return C.CL_SUCCESS
}

//export pgCloneKernel
func pgCloneKernel(ck C.cl_kernel, errcode *C.cl_int) (ret C.cl_kernel) {
	defer guardObject("clCloneKernel", errcode, &ret)
	defer inPlatform()()
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		setErr(errcode, C.CL_INVALID_KERNEL)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_kernel(newObject(k.Clone()))
}

//export pgEnqueueNDRangeKernel
func pgEnqueueNDRangeKernel(cq C.cl_command_queue, ck C.cl_kernel, dims C.cl_uint, offset, global, local *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueNDRangeKernel", &ret)
	defer inPlatform()()
	q, s := queueAfter(cq, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	k, ok := lookup[*opencl.Kernel](unsafe.Pointer(ck))
	if !ok {
		return C.CL_INVALID_KERNEL
	}
	if dims < 1 || dims > 3 {
		return fail(q.Ctx, "clEnqueueNDRangeKernel", C.CL_INVALID_WORK_DIMENSION, "work_dim %d: 1 to 3", dims)
	}
	if global == nil {
		return fail(q.Ctx, "clEnqueueNDRangeKernel", C.CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL")
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
	if s := ctxStatus(q.Ctx, "clEnqueueNDRangeKernel", err); s != C.CL_SUCCESS {
		return s
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueTask
func pgEnqueueTask(cq C.cl_command_queue, ck C.cl_kernel, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueTask", &ret)
	defer inPlatform()()
	one := C.size_t(1)
	return pgEnqueueNDRangeKernel(cq, ck, 1, nil, &one, &one, nw, wl, ev)
}
