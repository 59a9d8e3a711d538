package main

/*
#include "icd.h"
#include <stdlib.h>
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

// memObject is a cl_mem: a buffer or an image, with what the program gave
// when it made it.
type memObject struct {
	buf    *opencl.Buffer // a buffer (or sub-buffer), or nil
	img    *opencl.Image  // an image, or nil
	host   unsafe.Pointer // host_ptr at creation
	parent unsafe.Pointer // a sub-buffer's parent, a 1D buffer image's buffer (retained)

	mu          sync.Mutex
	maps        []*opencl.Mapping
	destructors [][2]unsafe.Pointer // pfn_notify, user_data
}

func (o *memObject) ctx() *opencl.Context {
	if o.img != nil {
		return o.img.Ctx
	}
	return o.buf.Ctx
}

// lookupBuffer finds a buffer handle (not an image).
func lookupBuffer(m C.cl_mem) (*memObject, bool) {
	o, ok := lookup[*memObject](unsafe.Pointer(m))
	return o, ok && o.buf != nil
}

//export pgCreateBuffer
func pgCreateBuffer(c C.cl_context, flags C.cl_mem_flags, size C.size_t, host unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateBuffer", errcode, &ret)
	defer inPlatform()()
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
	return C.cl_mem(newObject(&memObject{buf: b, host: host}))
}

//export pgCreateSubBuffer
func pgCreateSubBuffer(m C.cl_mem, flags C.cl_mem_flags, kind C.cl_buffer_create_type, info unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateSubBuffer", errcode, &ret)
	defer inPlatform()()
	o, ok := lookupBuffer(m)
	if !ok {
		setErr(errcode, C.CL_INVALID_MEM_OBJECT)
		return nil
	}
	if kind != C.CL_BUFFER_CREATE_TYPE_REGION || info == nil {
		setErr(errcode, C.CL_INVALID_VALUE)
		return nil
	}
	r := (*C.cl_buffer_region)(info)
	b, err := o.buf.SubBuffer(uint64(flags), int(r.origin), int(r.size))
	if s := status("clCreateSubBuffer", err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	// The parent lives as long as its sub-buffers.
	retain[*memObject](unsafe.Pointer(m), C.CL_INVALID_MEM_OBJECT)
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_mem(newObject(&memObject{buf: b, parent: unsafe.Pointer(m)}))
}

//export pgRetainMemObject
func pgRetainMemObject(m C.cl_mem) (ret C.cl_int) {
	defer guardStatus("clRetainMemObject", &ret)
	defer inPlatform()()
	return retain[*memObject](unsafe.Pointer(m), C.CL_INVALID_MEM_OBJECT)
}

//export pgReleaseMemObject
func pgReleaseMemObject(m C.cl_mem) (ret C.cl_int) {
	defer guardStatus("clReleaseMemObject", &ret)
	defer inPlatform()()
	p := unsafe.Pointer(m)
	o, ok := lookup[*memObject](p)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	last := refCount(p) == 1
	if s := release[*memObject](p, C.CL_INVALID_MEM_OBJECT); s != C.CL_SUCCESS || !last {
		return s
	}
	// Commands run when enqueued, so the object is idle: its destructor
	// callbacks run now, the last registered first.
	o.mu.Lock()
	ds := o.destructors
	o.destructors = nil
	o.mu.Unlock()
	for i := len(ds) - 1; i >= 0; i-- {
		callMemDestructor(ds[i][0], m, ds[i][1])
	}
	if o.parent != nil {
		pgReleaseMemObject(C.cl_mem(o.parent))
	}
	return C.CL_SUCCESS
}

//export pgSetMemObjectDestructorCallback
func pgSetMemObjectDestructorCallback(m C.cl_mem, fn, user unsafe.Pointer) (ret C.cl_int) {
	defer guardStatus("clSetMemObjectDestructorCallback", &ret)
	defer inPlatform()()
	o, ok := lookup[*memObject](unsafe.Pointer(m))
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	if fn == nil {
		return C.CL_INVALID_VALUE
	}
	o.mu.Lock()
	o.destructors = append(o.destructors, [2]unsafe.Pointer{fn, user})
	o.mu.Unlock()
	return C.CL_SUCCESS
}

//export pgGetMemObjectInfo
func pgGetMemObjectInfo(m C.cl_mem, param C.cl_mem_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetMemObjectInfo", &ret)
	defer inPlatform()()
	o, ok := lookup[*memObject](unsafe.Pointer(m))
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	store, kind, flags, maps, offset := o.buf, uint32(C.CL_MEM_OBJECT_BUFFER), uint64(0), 0, 0
	if o.img != nil {
		store, kind, flags, maps = o.img.Mem, o.img.Type(), o.img.Flags, o.img.MapCount()
	} else {
		flags, maps, offset = o.buf.Flags, o.buf.MapCount(), o.buf.Offset
	}
	var v []byte
	switch param {
	case C.CL_MEM_TYPE:
		v = u32(kind)
	case C.CL_MEM_FLAGS:
		v = u64(flags)
	case C.CL_MEM_SIZE:
		v = u64(uint64(store.Size))
		if o.img != nil {
			v = u64(uint64(o.img.Bytes()))
		}
	case C.CL_MEM_HOST_PTR:
		v = ptr(nil)
		if h := store.HostMemory(); h != nil && flags&opencl.MemUseHostPtr != 0 {
			v = ptr(unsafe.Pointer(&h[0]))
		}
	case C.CL_MEM_MAP_COUNT:
		v = u32(uint32(maps))
	case C.CL_MEM_REFERENCE_COUNT:
		v = u32(uint32(refCount(unsafe.Pointer(m))))
	case C.CL_MEM_CONTEXT:
		v = ptr(handleOf(o.ctx()))
	case C.CL_MEM_ASSOCIATED_MEMOBJECT:
		v = ptr(o.parent)
	case C.CL_MEM_OFFSET:
		v = u64(uint64(offset))
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(v, nil, size, value, sizeRet)
}

// queueAndBuffer resolves the handles of a buffer command.
// bufferCommand resolves a buffer command's handles: the queue as its
// event wait list (nw, wl) makes it wait, and the buffer.
func bufferCommand(cq C.cl_command_queue, m C.cl_mem, nw C.cl_uint, wl *C.cl_event) (*opencl.Queue, *opencl.Buffer, C.cl_int) {
	q, b, s := queueAndBuffer(cq, m)
	if s == C.CL_SUCCESS {
		q, s = after(q, nw, wl)
	}
	return q, b, s
}

func queueAndBuffer(cq C.cl_command_queue, m C.cl_mem) (*opencl.Queue, *opencl.Buffer, C.cl_int) {
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return nil, nil, C.CL_INVALID_COMMAND_QUEUE
	}
	b, ok := lookupBuffer(m)
	if !ok {
		return nil, nil, C.CL_INVALID_MEM_OBJECT
	}
	return q, b.buf, C.CL_SUCCESS
}

// finish ends an enqueue: the command's error, or its event (waited for
// when the call blocks).
func finish(api string, e *opencl.Event, err error, blocking C.cl_bool, ev *C.cl_event) C.cl_int {
	if s := status(api, err); s != C.CL_SUCCESS {
		return s
	}
	if blocking != 0 {
		e.Wait()
	}
	setEvent(ev, e)
	return C.CL_SUCCESS
}

//export pgEnqueueReadBuffer
func pgEnqueueReadBuffer(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, off, size C.size_t, dst unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueReadBuffer", &ret)
	defer inPlatform()()
	q, b, s := bufferCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if dst == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Read(b, int(off), bytesAt(dst, size))
	return finish("clEnqueueReadBuffer", e, err, blocking, ev)
}

//export pgEnqueueWriteBuffer
func pgEnqueueWriteBuffer(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, off, size C.size_t, src unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueWriteBuffer", &ret)
	defer inPlatform()()
	q, b, s := bufferCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if src == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Write(b, int(off), bytesAt(src, size))
	return finish("clEnqueueWriteBuffer", e, err, blocking, ev)
}

//export pgEnqueueCopyBuffer
func pgEnqueueCopyBuffer(cq C.cl_command_queue, src, dst C.cl_mem, srcOff, dstOff, size C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyBuffer", &ret)
	defer inPlatform()()
	q, sb, s := bufferCommand(cq, src, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	db, ok := lookupBuffer(dst)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	e, err := q.Copy(sb, db.buf, int(srcOff), int(dstOff), int(size))
	return finish("clEnqueueCopyBuffer", e, err, 0, ev)
}

//export pgEnqueueFillBuffer
func pgEnqueueFillBuffer(cq C.cl_command_queue, m C.cl_mem, pattern unsafe.Pointer, psize, off, size C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueFillBuffer", &ret)
	defer inPlatform()()
	q, b, s := bufferCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if pattern == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.Fill(b, bytesAt(pattern, psize), int(off), int(size))
	return finish("clEnqueueFillBuffer", e, err, 0, ev)
}

// triple reads a size_t[3] (origin or region); nil reads as def.
func triple(p *C.size_t, def [3]int) [3]int {
	if p == nil {
		return def
	}
	s := unsafe.Slice(p, 3)
	return [3]int{int(s[0]), int(s[1]), int(s[2])}
}

//export pgEnqueueReadBufferRect
func pgEnqueueReadBufferRect(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, bo, ho, region *C.size_t, brow, bslice, hrow, hslice C.size_t, dst unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueReadBufferRect", &ret)
	defer inPlatform()()
	return bufferRect("clEnqueueReadBufferRect", cq, m, blocking, bo, ho, region, brow, bslice, hrow, hslice, dst, false, nw, wl, ev)
}

//export pgEnqueueWriteBufferRect
func pgEnqueueWriteBufferRect(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, bo, ho, region *C.size_t, brow, bslice, hrow, hslice C.size_t, src unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueWriteBufferRect", &ret)
	defer inPlatform()()
	return bufferRect("clEnqueueWriteBufferRect", cq, m, blocking, bo, ho, region, brow, bslice, hrow, hslice, src, true, nw, wl, ev)
}

func bufferRect(api string, cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, bo, ho, region *C.size_t, brow, bslice, hrow, hslice C.size_t, host unsafe.Pointer, write bool, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
	q, b, s := bufferCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if host == nil || bo == nil || ho == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	r := triple(region, [3]int{})
	br := opencl.Rect{Origin: triple(bo, [3]int{}), Row: int(brow), Slice: int(bslice)}
	hr := opencl.Rect{Origin: triple(ho, [3]int{}), Row: int(hrow), Slice: int(hslice)}
	n := opencl.HostExtent(hr, r)
	if n == 0 {
		return C.CL_INVALID_VALUE
	}
	var e *opencl.Event
	var err error
	if write {
		e, err = q.WriteRect(b, br, hr, r, bytesAt(host, C.size_t(n)))
	} else {
		e, err = q.ReadRect(b, br, hr, r, bytesAt(host, C.size_t(n)))
	}
	return finish(api, e, err, blocking, ev)
}

//export pgEnqueueCopyBufferRect
func pgEnqueueCopyBufferRect(cq C.cl_command_queue, src, dst C.cl_mem, srcO, dstO, region *C.size_t, srow, sslice, drow, dslice C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyBufferRect", &ret)
	defer inPlatform()()
	q, sb, s := bufferCommand(cq, src, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	db, ok := lookupBuffer(dst)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	if srcO == nil || dstO == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.CopyRect(sb, db.buf,
		opencl.Rect{Origin: triple(srcO, [3]int{}), Row: int(srow), Slice: int(sslice)},
		opencl.Rect{Origin: triple(dstO, [3]int{}), Row: int(drow), Slice: int(dslice)}, triple(region, [3]int{}))
	return finish("clEnqueueCopyBufferRect", e, err, 0, ev)
}

//export pgEnqueueMigrateMemObjects
func pgEnqueueMigrateMemObjects(cq C.cl_command_queue, n C.cl_uint, list *C.cl_mem, flags C.cl_mem_migration_flags, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueMigrateMemObjects", &ret)
	defer inPlatform()()
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	if n == 0 || list == nil {
		return C.CL_INVALID_VALUE
	}
	var s C.cl_int
	if q, s = after(q, nw, wl); s != C.CL_SUCCESS {
		return s
	}
	var bufs []*opencl.Buffer
	for _, m := range unsafe.Slice(list, int(n)) {
		o, ok := lookup[*memObject](unsafe.Pointer(m))
		if !ok {
			return C.CL_INVALID_MEM_OBJECT
		}
		if o.img != nil {
			bufs = append(bufs, o.img.Mem)
		} else {
			bufs = append(bufs, o.buf)
		}
	}
	e, err := q.Migrate(bufs, uint64(flags))
	return finish("clEnqueueMigrateMemObjects", e, err, 0, ev)
}

//export pgEnqueueMapBuffer
func pgEnqueueMapBuffer(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, flags C.cl_map_flags, off, size C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event, errcode *C.cl_int) (ret unsafe.Pointer) {
	defer guardObject("clEnqueueMapBuffer", errcode, &ret)
	defer inPlatform()()
	q, b, s := queueAndBuffer(cq, m)
	if s == C.CL_SUCCESS {
		q, s = after(q, nw, wl)
	}
	if s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	o, _ := lookupBuffer(m)
	var staged unsafe.Pointer
	mp, e, err := q.MapBuffer(b, uint64(flags), int(off), int(size), stage(&staged))
	return o.mapped("clEnqueueMapBuffer", mp, e, err, staged, blocking, ev, errcode)
}

// stage allocates the host memory of a map that cannot be made in place.
func stage(p *unsafe.Pointer) func(n int) []byte {
	return func(n int) []byte {
		*p = C.malloc(C.size_t(n))
		return bytesAt(*p, C.size_t(n))
	}
}

// mapped ends a map call: the mapping is kept for the unmap, and its
// pointer returned.
func (o *memObject) mapped(api string, mp *opencl.Mapping, e *opencl.Event, err error, staged unsafe.Pointer, blocking C.cl_bool, ev *C.cl_event, errcode *C.cl_int) unsafe.Pointer {
	if s := finish(api, e, err, blocking, ev); s != C.CL_SUCCESS {
		C.free(staged)
		setErr(errcode, s)
		return nil
	}
	o.mu.Lock()
	o.maps = append(o.maps, mp)
	o.mu.Unlock()
	setErr(errcode, C.CL_SUCCESS)
	return unsafe.Pointer(&mp.Mem[0])
}

//export pgEnqueueUnmapMemObject
func pgEnqueueUnmapMemObject(cq C.cl_command_queue, m C.cl_mem, p unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueUnmapMemObject", &ret)
	defer inPlatform()()
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return C.CL_INVALID_COMMAND_QUEUE
	}
	o, ok := lookup[*memObject](unsafe.Pointer(m))
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	var s C.cl_int
	if q, s = after(q, nw, wl); s != C.CL_SUCCESS {
		return s
	}
	if q.Ctx != o.ctx() {
		return C.CL_INVALID_CONTEXT
	}
	var mp *opencl.Mapping
	o.mu.Lock()
	for i, x := range o.maps {
		if unsafe.Pointer(&x.Mem[0]) == p {
			mp = x
			o.maps = append(o.maps[:i], o.maps[i+1:]...)
			break
		}
	}
	o.mu.Unlock()
	if mp == nil {
		status("clEnqueueUnmapMemObject", errorText("the pointer is not a mapped region of the memory object"))
		return C.CL_INVALID_VALUE
	}
	e, err := q.Unmap(mp)
	if !mp.ZeroCopy {
		C.free(p)
	}
	return finish("clEnqueueUnmapMemObject", e, err, 0, ev)
}

// errorText is a message for stderr.
type errorText string

func (e errorText) Error() string { return string(e) }
