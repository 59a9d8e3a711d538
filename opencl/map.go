package opencl

import "sync/atomic"

// Map flags (cl_map_flags) and the map commands (cl_command_type).
const (
	MapRead                  = 1 << 0
	MapWrite                 = 1 << 1
	MapWriteInvalidateRegion = 1 << 2

	CommandMapBuffer       = 0x11FB
	CommandMapImage        = 0x11FC
	CommandUnmapMemObject  = 0x11FD
	mapWrites              = MapWrite | MapWriteInvalidateRegion
	mapKnown               = MapRead | mapWrites
	mapReadWriteIfNoneSaid = MapRead | MapWrite
)

// Mapping is a mapped region of a buffer or image: the memory the host
// sees (Mem, with its row and slice pitches) until it is unmapped. For a
// CL_MEM_USE_HOST_PTR object Mem is the object's host memory itself (zero
// copy, as the specification requires); otherwise it is memory the caller
// allocated, filled from the object when mapped for reading and copied
// back when mapped for writing and unmapped.
type Mapping struct {
	Flags      uint64
	Mem        []byte
	Row, Slice int
	ZeroCopy   bool

	buf    *Buffer // the storage mapped
	at     Rect    // the region in buf
	region [3]int  // x in bytes
	count  *atomic.Int32
	done   atomic.Bool
}

// MapBuffer maps size bytes at offset; alloc gives host memory of n bytes
// when the buffer cannot be mapped in place.
func (q *Queue) MapBuffer(b *Buffer, flags uint64, offset, size int, alloc func(n int) []byte) (*Mapping, *Event, error) {
	if err := q.sameContext(b); err != nil {
		return nil, nil, err
	}
	if size == 0 {
		return nil, nil, errorf(InvalidValue, "a map of 0 bytes")
	}
	if err := b.checkRange(offset, size); err != nil {
		return nil, nil, err
	}
	return q.mapRect(CommandMapBuffer, b, &b.maps, flags, Rect{Origin: [3]int{offset, 0, 0}, Row: size, Slice: size}, [3]int{size, 1, 1}, alloc)
}

func (q *Queue) mapRect(cmd uint32, b *Buffer, count *atomic.Int32, flags uint64, at Rect, region [3]int, alloc func(int) []byte) (*Mapping, *Event, error) {
	if flags&^uint64(mapKnown) != 0 || (flags&MapWriteInvalidateRegion != 0 && flags&(MapRead|MapWrite) != 0) {
		return nil, nil, errorf(InvalidValue, "map flags %#x: CL_MAP_READ and CL_MAP_WRITE, or CL_MAP_WRITE_INVALIDATE_REGION alone", flags)
	}
	if flags == 0 {
		flags = mapReadWriteIfNoneSaid
	}
	if flags&MapRead != 0 {
		if err := b.hostCan(false); err != nil {
			return nil, nil, err
		}
	}
	if flags&mapWrites != 0 {
		if err := b.hostCan(true); err != nil {
			return nil, nil, err
		}
	}
	m := &Mapping{Flags: flags, buf: b, at: at, region: region, count: count}
	n := region[0] * region[1] * region[2]
	if host := b.HostMemory(); host != nil {
		m.Mem, m.Row, m.Slice, m.ZeroCopy = host[at.offset():at.End(region)], at.Row, at.Slice, true
	} else {
		m.Mem, m.Row, m.Slice = alloc(n), region[0], region[0]*region[1]
		if len(m.Mem) < n {
			return nil, nil, errorf(OutOfHostMemory, "no host memory for a %d-byte map", n)
		}
	}
	e, err := q.run(cmd, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		if flags&MapWriteInvalidateRegion != 0 {
			return 0, nil // the contents need not reach the host
		}
		defer lockRoots(b)()
		if !m.ZeroCopy {
			copyRect(m.Mem, Rect{Row: m.Row, Slice: m.Slice}, b.bytesNow(), at, region)
		}
		return q.mapNS(sim, rec, b, false), nil
	})
	if err != nil {
		return nil, nil, err
	}
	count.Add(1)
	return m, e, nil
}

// Unmap ends a mapping: what the host wrote to a mapping for writing goes
// back to the object.
func (q *Queue) Unmap(m *Mapping) (*Event, error) {
	if err := q.sameContext(m.buf); err != nil {
		return nil, err
	}
	if !m.done.CompareAndSwap(false, true) {
		return nil, errorf(InvalidValue, "the region is not mapped")
	}
	m.count.Add(-1)
	return q.run(CommandUnmapMemObject, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		if m.Flags&mapWrites == 0 {
			return 0, nil
		}
		defer lockRoots(m.buf)()
		if m.ZeroCopy {
			// The host wrote the object's own memory; the device copies
			// take it from there.
			m.buf.root().owner = nil
		} else {
			copyRect(m.buf.bytesOn(sim), m.at, m.Mem, Rect{Row: m.Row, Slice: m.Slice}, m.region)
		}
		return q.mapNS(sim, rec, m.buf, true), nil
	})
}

// mapNS is the simulated time of a map (toGPU false) or unmap of part of
// b. A GPU that shares memory with the host (host_copy.zero_copy: Adreno,
// seed 000) maps the buffer's own pages, so the command moves nothing.
// Otherwise the driver copies the whole buffer, whatever part is mapped:
// seed 000 found the Mali-G52's coarse-grained sharing to copy entire
// buffers under map and unmap.
func (q *Queue) mapNS(sim *simDevice, rec *CommandRecord, b *Buffer, toGPU bool) float64 {
	if q.Device.GPU.HostCopy.ZeroCopy {
		return 0
	}
	rec.Bytes = b.root().Size
	return q.copyNS(sim, rec, rec.Bytes, toGPU)
}
