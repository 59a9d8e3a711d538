package opencl

import (
	"sync"

	"github.com/pocketgpu/pocketgpu/device"
)

// Memory flags (cl_mem_flags).
const (
	MemReadWrite    = 1 << 0
	MemWriteOnly    = 1 << 1
	MemReadOnly     = 1 << 2
	MemUseHostPtr   = 1 << 3
	MemAllocHostPtr = 1 << 4
	MemCopyHostPtr  = 1 << 5
	// 1.2 host access flags.
	MemHostWriteOnly = 1 << 7
	MemHostReadOnly  = 1 << 8
	MemHostNoAccess  = 1 << 9
)

// maxBufferBytes is the largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
const maxBufferBytes = globalMemBytes / 4

// Buffer is a cl_mem buffer. Its contents live in the simulated memory of
// the context's devices: a copy on each device that used it, and the one
// written last is current (a context of one device, the common case, keeps
// one copy at one address, so caches stay warm across kernels).
type Buffer struct {
	Ctx   *Context
	Flags uint64
	Size  int
	id    uint64 // creation order, the order buffers are locked in

	mu     sync.Mutex
	copies map[*simDevice]*device.Buffer
	owner  *simDevice // the device whose copy is current; nil: host is
	host   []byte     // the contents before any device holds them
}

// NewBuffer makes a buffer of size bytes; init, when flags ask to copy or
// use a host pointer, is its initial contents.
func (c *Context) NewBuffer(flags uint64, size int, init []byte) (*Buffer, error) {
	const known = MemReadWrite | MemWriteOnly | MemReadOnly | MemUseHostPtr | MemAllocHostPtr | MemCopyHostPtr |
		MemHostWriteOnly | MemHostReadOnly | MemHostNoAccess
	if flags == 0 {
		flags = MemReadWrite
	}
	switch {
	case flags&^uint64(known) != 0:
		return nil, errorf(InvalidValue, "unknown memory flags %#x", flags)
	case popcount(flags&(MemReadWrite|MemWriteOnly|MemReadOnly)) > 1:
		return nil, errorf(InvalidValue, "at most one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY")
	case popcount(flags&(MemHostWriteOnly|MemHostReadOnly|MemHostNoAccess)) > 1:
		return nil, errorf(InvalidValue, "at most one of the CL_MEM_HOST_* flags")
	case flags&MemUseHostPtr != 0 && flags&(MemAllocHostPtr|MemCopyHostPtr) != 0:
		return nil, errorf(InvalidValue, "CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR")
	case size <= 0 || size > maxBufferBytes:
		return nil, errorf(InvalidBufferSize, "buffer size %d: 1 to %d bytes", size, maxBufferBytes)
	case (init != nil) != (flags&(MemUseHostPtr|MemCopyHostPtr) != 0):
		return nil, errorf(InvalidHostPtr, "a host pointer goes with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR, and only with them")
	}
	b := &Buffer{Ctx: c, Flags: flags, Size: size, id: bufferIDs.Add(1), copies: map[*simDevice]*device.Buffer{}, host: make([]byte, size)}
	copy(b.host, init)
	return b, nil
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// on returns the buffer's copy on sim, bringing it up to date first.
// The caller holds b.mu.
func (b *Buffer) on(sim *simDevice) *device.Buffer {
	cp := b.copies[sim]
	if cp == nil {
		cp = sim.dev.Alloc(b.Size, "cl_mem")
		b.copies[sim] = cp
	}
	if b.owner != sim {
		copy(cp.Data, b.current())
		b.owner = sim
	}
	return cp
}

// current is the buffer's up-to-date contents. The caller holds b.mu.
func (b *Buffer) current() []byte {
	if b.owner != nil {
		return b.copies[b.owner].Data
	}
	return b.host
}

// checkRange validates an offset and size within the buffer.
func (b *Buffer) checkRange(offset, size int) error {
	if offset < 0 || size < 0 || offset+size > b.Size || offset+size < offset {
		return errorf(InvalidValue, "range [%d, %d) is outside the %d-byte buffer", offset, offset+size, b.Size)
	}
	return nil
}

// Read copies size bytes at offset from the buffer into dst (a device to
// host transfer, timed by the device's copy model).
func (q *Queue) Read(b *Buffer, offset int, dst []byte) (*Event, error) {
	if err := q.sameContext(b); err != nil {
		return nil, err
	}
	if err := b.checkRange(offset, len(dst)); err != nil {
		return nil, err
	}
	return q.run(CommandReadBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = len(dst)
		b.mu.Lock()
		copy(dst, b.current()[offset:])
		b.mu.Unlock()
		return q.copyNS(sim, len(dst), false), nil
	})
}

// Write copies src into the buffer at offset (host to device).
func (q *Queue) Write(b *Buffer, offset int, src []byte) (*Event, error) {
	if err := q.sameContext(b); err != nil {
		return nil, err
	}
	if err := b.checkRange(offset, len(src)); err != nil {
		return nil, err
	}
	return q.run(CommandWriteBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = len(src)
		b.mu.Lock()
		copy(b.on(sim).Data[offset:], src)
		b.mu.Unlock()
		return q.copyNS(sim, len(src), true), nil
	})
}

// Copy copies size bytes between buffers on the device.
func (q *Queue) Copy(src, dst *Buffer, srcOff, dstOff, size int) (*Event, error) {
	for _, b := range []*Buffer{src, dst} {
		if err := q.sameContext(b); err != nil {
			return nil, err
		}
	}
	if err := src.checkRange(srcOff, size); err != nil {
		return nil, err
	}
	if err := dst.checkRange(dstOff, size); err != nil {
		return nil, err
	}
	if src == dst && srcOff < dstOff+size && dstOff < srcOff+size {
		return nil, errorf(MemCopyOverlap, "the source and destination ranges overlap")
	}
	return q.run(CommandCopyBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = size
		lockPair(src, dst)
		defer unlockPair(src, dst)
		data := append([]byte(nil), src.on(sim).Data[srcOff:srcOff+size]...)
		copy(dst.on(sim).Data[dstOff:], data)
		// A copy on the GPU reads and writes through memory: priced as
		// two transfers of the copy model.
		return 2 * q.copyNS(sim, size, true), nil
	})
}

// Fill repeats pattern over size bytes at offset.
func (q *Queue) Fill(b *Buffer, pattern []byte, offset, size int) (*Event, error) {
	if err := q.sameContext(b); err != nil {
		return nil, err
	}
	if p := len(pattern); p == 0 || p&(p-1) != 0 || p > 128 || offset%p != 0 || size%p != 0 {
		return nil, errorf(InvalidValue, "a fill pattern is 1 to 128 bytes, a power of two, and offset and size are multiples of it")
	}
	if err := b.checkRange(offset, size); err != nil {
		return nil, err
	}
	return q.run(CommandFillBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = size
		b.mu.Lock()
		data := b.on(sim).Data[offset : offset+size]
		for i := 0; i < size; i += len(pattern) {
			copy(data[i:], pattern)
		}
		b.mu.Unlock()
		return q.copyNS(sim, size, true), nil
	})
}

// MemCopyOverlap is CL_MEM_COPY_OVERLAP.
const MemCopyOverlap Status = -8

func lockPair(a, b *Buffer) {
	if b.id < a.id {
		a, b = b, a
	}
	a.mu.Lock()
	if b != a {
		b.mu.Lock()
	}
}

func unlockPair(a, b *Buffer) {
	if b != a {
		b.mu.Unlock()
	}
	a.mu.Unlock()
}

// copyNS is the simulated time of a host transfer of n bytes.
func (q *Queue) copyNS(sim *simDevice, n int, toGPU bool) float64 {
	if q.Functional || n == 0 {
		return 0
	}
	return sim.dev.CopyCycles(int64(n), toGPU) / q.Device.GPU.ClockMHz * 1000
}

func (q *Queue) sameContext(b *Buffer) error {
	if b == nil {
		return errorf(InvalidMemObject, "not a buffer")
	}
	if b.Ctx != q.Ctx {
		return errorf(InvalidContext, "the buffer belongs to another context")
	}
	return nil
}
