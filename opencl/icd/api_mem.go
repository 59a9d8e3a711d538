package main

/*
#include "icd.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

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
	if blocking != 0 {
		e.Wait()
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
	if blocking != 0 {
		e.Wait()
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
