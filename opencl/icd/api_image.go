package main

/*
#include "icd.h"
*/
import "C"

import (
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

//export pgGetSupportedImageFormats
func pgGetSupportedImageFormats(c C.cl_context, flags C.cl_mem_flags, kind C.cl_mem_object_type, n C.cl_uint, out *C.cl_image_format, nRet *C.cl_uint) (ret C.cl_int) {
	defer guardStatus("clGetSupportedImageFormats", &ret)
	defer inPlatform()()
	if _, ok := lookup[*opencl.Context](unsafe.Pointer(c)); !ok {
		return C.CL_INVALID_CONTEXT
	}
	if (n == 0 && out != nil) || kind < C.CL_MEM_OBJECT_IMAGE2D || kind > C.CL_MEM_OBJECT_IMAGE1D_BUFFER {
		return C.CL_INVALID_VALUE
	}
	fs := opencl.SupportedImageFormats()
	if out != nil {
		dst := unsafe.Slice(out, int(n))
		for i := 0; i < len(fs) && i < int(n); i++ {
			dst[i].image_channel_order = C.cl_channel_order(fs[i].Order)
			dst[i].image_channel_data_type = C.cl_channel_type(fs[i].Type)
		}
	}
	if nRet != nil {
		*nRet = C.cl_uint(len(fs))
	}
	return C.CL_SUCCESS
}

//export pgCreateImage
func pgCreateImage(c C.cl_context, flags C.cl_mem_flags, f *C.cl_image_format, d *C.cl_image_desc, host unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateImage", errcode, &ret)
	defer inPlatform()()
	if d == nil {
		setErr(errcode, C.CL_INVALID_IMAGE_DESCRIPTOR)
		return nil
	}
	// The buffer of a 1D buffer image is the union that ends the struct.
	buf := *(*C.cl_mem)(unsafe.Add(unsafe.Pointer(d), unsafe.Sizeof(*d)-unsafe.Sizeof(C.cl_mem(nil))))
	desc := opencl.ImageDesc{Type: uint32(d.image_type), Width: int(d.image_width), Height: int(d.image_height),
		Depth: int(d.image_depth), Array: int(d.image_array_size), RowPitch: int(d.image_row_pitch),
		SlicePitch: int(d.image_slice_pitch), MipLevels: int(d.num_mip_levels), Samples: int(d.num_samples)}
	return createImage("clCreateImage", c, flags, f, desc, buf, host, errcode)
}

//export pgCreateImage2D
func pgCreateImage2D(c C.cl_context, flags C.cl_mem_flags, f *C.cl_image_format, w, h, row C.size_t, host unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateImage2D", errcode, &ret)
	defer inPlatform()()
	desc := opencl.ImageDesc{Type: opencl.MemObjectImage2D, Width: int(w), Height: int(h), RowPitch: int(row)}
	return createImage("clCreateImage2D", c, flags, f, desc, nil, host, errcode)
}

//export pgCreateImage3D
func pgCreateImage3D(c C.cl_context, flags C.cl_mem_flags, f *C.cl_image_format, w, h, depth, row, slice C.size_t, host unsafe.Pointer, errcode *C.cl_int) (ret C.cl_mem) {
	defer guardObject("clCreateImage3D", errcode, &ret)
	defer inPlatform()()
	desc := opencl.ImageDesc{Type: opencl.MemObjectImage3D, Width: int(w), Height: int(h), Depth: int(depth), RowPitch: int(row), SlicePitch: int(slice)}
	return createImage("clCreateImage3D", c, flags, f, desc, nil, host, errcode)
}

func createImage(api string, c C.cl_context, flags C.cl_mem_flags, f *C.cl_image_format, desc opencl.ImageDesc, buf C.cl_mem, host unsafe.Pointer, errcode *C.cl_int) C.cl_mem {
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	if f == nil {
		setErr(errcode, C.CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
		return nil
	}
	if buf != nil {
		b, ok := lookupBuffer(buf)
		if !ok {
			setErr(errcode, C.CL_INVALID_IMAGE_DESCRIPTOR)
			return nil
		}
		desc.Buffer = b.buf
	}
	format := opencl.ImageFormat{Order: uint32(f.image_channel_order), Type: uint32(f.image_channel_data_type)}
	var init []byte
	if host != nil {
		init = bytesAt(host, C.size_t(desc.HostBytes(format)))
	}
	img, err := ctx.NewImage(uint64(flags), format, desc, init)
	if s := status(api, err); s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	o := &memObject{img: img, host: host}
	if buf != nil {
		// The buffer lives as long as the image.
		retain[*memObject](unsafe.Pointer(buf), C.CL_INVALID_MEM_OBJECT)
		o.parent = unsafe.Pointer(buf)
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_mem(newObject(o))
}

// lookupImage finds an image handle (not a buffer).
func lookupImage(m C.cl_mem) (*memObject, bool) {
	o, ok := lookup[*memObject](unsafe.Pointer(m))
	return o, ok && o.img != nil
}

//export pgGetImageInfo
func pgGetImageInfo(m C.cl_mem, param C.cl_image_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetImageInfo", &ret)
	defer inPlatform()()
	o, ok := lookupImage(m)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	img, d := o.img, o.img.Desc
	t := d.Type
	is := func(types ...uint32) bool {
		for _, x := range types {
			if t == x {
				return true
			}
		}
		return false
	}
	var v []byte
	switch param {
	case C.CL_IMAGE_FORMAT:
		v = append(u32(img.Format.Order), u32(img.Format.Type)...)
	case C.CL_IMAGE_ELEMENT_SIZE:
		v = u64(uint64(img.Elem))
	case C.CL_IMAGE_ROW_PITCH:
		v = u64(uint64(d.RowPitch))
	case C.CL_IMAGE_SLICE_PITCH:
		v = u64(0)
		if is(opencl.MemObjectImage1DArray, opencl.MemObjectImage2DArray, opencl.MemObjectImage3D) {
			v = u64(uint64(d.SlicePitch))
		}
	case C.CL_IMAGE_WIDTH:
		v = u64(uint64(d.Width))
	case C.CL_IMAGE_HEIGHT:
		v = u64(0)
		if is(opencl.MemObjectImage2D, opencl.MemObjectImage2DArray, opencl.MemObjectImage3D) {
			v = u64(uint64(d.Height))
		}
	case C.CL_IMAGE_DEPTH:
		v = u64(0)
		if t == opencl.MemObjectImage3D {
			v = u64(uint64(d.Depth))
		}
	case C.CL_IMAGE_ARRAY_SIZE:
		v = u64(0)
		if is(opencl.MemObjectImage1DArray, opencl.MemObjectImage2DArray) {
			v = u64(uint64(d.Array))
		}
	case C.CL_IMAGE_BUFFER:
		v = ptr(o.parent)
	case C.CL_IMAGE_NUM_MIP_LEVELS, C.CL_IMAGE_NUM_SAMPLES:
		v = u32(0)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(v, nil, size, value, sizeRet)
}

// queueAndImage resolves the handles of an image command.
// imageCommand is bufferCommand for images.
func imageCommand(cq C.cl_command_queue, m C.cl_mem, nw C.cl_uint, wl *C.cl_event) (*opencl.Queue, *memObject, C.cl_int) {
	q, o, s := queueAndImage(cq, m)
	if s == C.CL_SUCCESS {
		q, s = after(q, nw, wl)
	}
	return q, o, s
}

func queueAndImage(cq C.cl_command_queue, m C.cl_mem) (*opencl.Queue, *memObject, C.cl_int) {
	q, ok := lookup[*opencl.Queue](unsafe.Pointer(cq))
	if !ok {
		return nil, nil, C.CL_INVALID_COMMAND_QUEUE
	}
	o, ok := lookupImage(m)
	if !ok {
		return nil, nil, C.CL_INVALID_MEM_OBJECT
	}
	return q, o, C.CL_SUCCESS
}

//export pgEnqueueReadImage
func pgEnqueueReadImage(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, origin, region *C.size_t, row, slice C.size_t, dst unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueReadImage", &ret)
	defer inPlatform()()
	return imageTransfer("clEnqueueReadImage", cq, m, blocking, origin, region, row, slice, dst, false, nw, wl, ev)
}

//export pgEnqueueWriteImage
func pgEnqueueWriteImage(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, origin, region *C.size_t, row, slice C.size_t, src unsafe.Pointer, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueWriteImage", &ret)
	defer inPlatform()()
	return imageTransfer("clEnqueueWriteImage", cq, m, blocking, origin, region, row, slice, src, true, nw, wl, ev)
}

func imageTransfer(api string, cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, origin, region *C.size_t, row, slice C.size_t, host unsafe.Pointer, write bool, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
	q, o, s := imageCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if host == nil || origin == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	org, reg := triple(origin, [3]int{}), triple(region, [3]int{})
	n := o.img.HostExtent(reg, int(row), int(slice))
	if n == 0 {
		return C.CL_INVALID_VALUE
	}
	var e *opencl.Event
	var err error
	if write {
		e, err = q.WriteImage(o.img, org, reg, int(row), int(slice), bytesAt(host, C.size_t(n)))
	} else {
		e, err = q.ReadImage(o.img, org, reg, int(row), int(slice), bytesAt(host, C.size_t(n)))
	}
	return finish(api, e, err, blocking, ev)
}

//export pgEnqueueCopyImage
func pgEnqueueCopyImage(cq C.cl_command_queue, src, dst C.cl_mem, srcO, dstO, region *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyImage", &ret)
	defer inPlatform()()
	q, s1, s := imageCommand(cq, src, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	d1, ok := lookupImage(dst)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	if srcO == nil || dstO == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.CopyImage(s1.img, d1.img, triple(srcO, [3]int{}), triple(dstO, [3]int{}), triple(region, [3]int{}))
	return finish("clEnqueueCopyImage", e, err, 0, ev)
}

//export pgEnqueueFillImage
func pgEnqueueFillImage(cq C.cl_command_queue, m C.cl_mem, color unsafe.Pointer, origin, region *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueFillImage", &ret)
	defer inPlatform()()
	q, o, s := imageCommand(cq, m, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	if color == nil || origin == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.FillImage(o.img, bytesAt(color, 16), triple(origin, [3]int{}), triple(region, [3]int{}))
	return finish("clEnqueueFillImage", e, err, 0, ev)
}

//export pgEnqueueCopyImageToBuffer
func pgEnqueueCopyImageToBuffer(cq C.cl_command_queue, src, dst C.cl_mem, origin, region *C.size_t, off C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyImageToBuffer", &ret)
	defer inPlatform()()
	return imageBuffer("clEnqueueCopyImageToBuffer", cq, src, dst, origin, region, off, false, nw, wl, ev)
}

//export pgEnqueueCopyBufferToImage
func pgEnqueueCopyBufferToImage(cq C.cl_command_queue, src, dst C.cl_mem, off C.size_t, origin, region *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) (ret C.cl_int) {
	defer guardStatus("clEnqueueCopyBufferToImage", &ret)
	defer inPlatform()()
	return imageBuffer("clEnqueueCopyBufferToImage", cq, dst, src, origin, region, off, true, nw, wl, ev)
}

func imageBuffer(api string, cq C.cl_command_queue, im, bm C.cl_mem, origin, region *C.size_t, off C.size_t, toImage bool, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
	q, o, s := imageCommand(cq, im, nw, wl)
	if s != C.CL_SUCCESS {
		return s
	}
	b, ok := lookupBuffer(bm)
	if !ok {
		return C.CL_INVALID_MEM_OBJECT
	}
	if origin == nil || region == nil {
		return C.CL_INVALID_VALUE
	}
	e, err := q.CopyImageToBuffer(o.img, b.buf, triple(origin, [3]int{}), triple(region, [3]int{}), int(off), toImage)
	return finish(api, e, err, 0, ev)
}

//export pgEnqueueMapImage
func pgEnqueueMapImage(cq C.cl_command_queue, m C.cl_mem, blocking C.cl_bool, flags C.cl_map_flags, origin, region *C.size_t, rowPitch, slicePitch *C.size_t, nw C.cl_uint, wl *C.cl_event, ev *C.cl_event, errcode *C.cl_int) (ret unsafe.Pointer) {
	defer guardObject("clEnqueueMapImage", errcode, &ret)
	defer inPlatform()()
	q, o, s := queueAndImage(cq, m)
	if s == C.CL_SUCCESS {
		q, s = after(q, nw, wl)
	}
	t := uint32(0)
	if o != nil {
		t = o.img.Type()
	}
	layered := t == opencl.MemObjectImage3D || t == opencl.MemObjectImage1DArray || t == opencl.MemObjectImage2DArray
	if s == C.CL_SUCCESS && (origin == nil || region == nil || rowPitch == nil || (layered && slicePitch == nil)) {
		s = C.CL_INVALID_VALUE
	}
	if s != C.CL_SUCCESS {
		setErr(errcode, s)
		return nil
	}
	var staged unsafe.Pointer
	mp, e, err := q.MapImage(o.img, uint64(flags), triple(origin, [3]int{}), triple(region, [3]int{}), stage(&staged))
	p := o.mapped("clEnqueueMapImage", mp, e, err, staged, blocking, ev, errcode)
	if p != nil {
		*rowPitch = C.size_t(mp.Row)
		if slicePitch != nil {
			*slicePitch = 0
			if layered {
				*slicePitch = C.size_t(mp.Slice)
			}
		}
	}
	return p
}

//export pgCreateSampler
func pgCreateSampler(c C.cl_context, norm C.cl_bool, addr C.cl_addressing_mode, filter C.cl_filter_mode, errcode *C.cl_int) (ret C.cl_sampler) {
	defer guardObject("clCreateSampler", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	s, err := ctx.NewSampler(norm != 0, uint32(addr), uint32(filter))
	return newSampler("clCreateSampler", s, err, errcode)
}

//export pgCreateSamplerWithProperties
func pgCreateSamplerWithProperties(c C.cl_context, props *C.cl_sampler_properties, errcode *C.cl_int) (ret C.cl_sampler) {
	defer guardObject("clCreateSamplerWithProperties", errcode, &ret)
	defer inPlatform()()
	ctx, ok := lookup[*opencl.Context](unsafe.Pointer(c))
	if !ok {
		setErr(errcode, C.CL_INVALID_CONTEXT)
		return nil
	}
	var list [][2]uint64
	for p := props; p != nil && *p != 0; p = (*C.cl_sampler_properties)(unsafe.Add(unsafe.Pointer(p), 16)) {
		v := *(*C.cl_sampler_properties)(unsafe.Add(unsafe.Pointer(p), 8))
		list = append(list, [2]uint64{uint64(*p), uint64(v)})
	}
	s, err := ctx.NewSamplerProps(list)
	return newSampler("clCreateSamplerWithProperties", s, err, errcode)
}

func newSampler(api string, s *opencl.Sampler, err error, errcode *C.cl_int) C.cl_sampler {
	if st := status(api, err); st != C.CL_SUCCESS {
		setErr(errcode, st)
		return nil
	}
	setErr(errcode, C.CL_SUCCESS)
	return C.cl_sampler(newObject(s))
}

//export pgRetainSampler
func pgRetainSampler(s C.cl_sampler) (ret C.cl_int) {
	defer guardStatus("clRetainSampler", &ret)
	defer inPlatform()()
	return retain[*opencl.Sampler](unsafe.Pointer(s), C.CL_INVALID_SAMPLER)
}

//export pgReleaseSampler
func pgReleaseSampler(s C.cl_sampler) (ret C.cl_int) {
	defer guardStatus("clReleaseSampler", &ret)
	defer inPlatform()()
	return release[*opencl.Sampler](unsafe.Pointer(s), C.CL_INVALID_SAMPLER)
}

//export pgGetSamplerInfo
func pgGetSamplerInfo(cs C.cl_sampler, param C.cl_sampler_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) (ret C.cl_int) {
	defer guardStatus("clGetSamplerInfo", &ret)
	defer inPlatform()()
	s, ok := lookup[*opencl.Sampler](unsafe.Pointer(cs))
	if !ok {
		return C.CL_INVALID_SAMPLER
	}
	var v []byte
	switch param {
	case C.CL_SAMPLER_REFERENCE_COUNT:
		v = u32(uint32(refCount(unsafe.Pointer(cs))))
	case C.CL_SAMPLER_CONTEXT:
		v = ptr(handleOf(s.Ctx))
	case C.CL_SAMPLER_NORMALIZED_COORDS:
		v = u32(0)
		if s.Normalized {
			v = u32(1)
		}
	case C.CL_SAMPLER_ADDRESSING_MODE:
		v = u32(s.Addressing)
	case C.CL_SAMPLER_FILTER_MODE:
		v = u32(s.Filter)
	default:
		return C.CL_INVALID_VALUE
	}
	return writeInfo(v, nil, size, value, sizeRet)
}
