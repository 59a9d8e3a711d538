package opencl

import (
	"sort"
	"sync"
	"sync/atomic"

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

	memAccess     = MemReadWrite | MemWriteOnly | MemReadOnly
	memHostAccess = MemHostWriteOnly | MemHostReadOnly | MemHostNoAccess
	memHostPtr    = MemUseHostPtr | MemAllocHostPtr | MemCopyHostPtr
)

// maxBufferBytes is the largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
const maxBufferBytes = globalMemBytes / 4

// memBaseAlign is CL_DEVICE_MEM_BASE_ADDR_ALIGN (info.go answers 1024
// bits) in bytes: where sub-buffers may start.
const memBaseAlign = 128

// Buffer is a cl_mem buffer, or the storage of an image. Its contents
// live in the simulated memory of the context's devices: a copy on each
// device that used it, and the one written last is current (a context of
// one device, the common case, keeps one copy at one address, so caches
// stay warm across kernels). A sub-buffer has a Parent and shares its
// storage: its bytes are the parent's from Offset.
//
// A CL_MEM_USE_HOST_PTR buffer's host copy is the program's own memory,
// and every command leaves the contents there (the way Mali and Adreno
// drivers use such memory zero-copy), so a program that reads its host
// pointer after clFinish sees what it would on the phone.
type Buffer struct {
	Ctx    *Context
	Flags  uint64
	Size   int
	Parent *Buffer
	Offset int
	id     uint64 // creation order, the order buffers are locked in

	// The storage; only a root buffer's (Parent nil) fields are used.
	mu      sync.Mutex
	copies  map[*simDevice]*device.Buffer
	owner   *simDevice // the device whose copy is current; nil: host is
	host    []byte     // the contents when no device holds them
	useHost bool       // host is the program's memory

	maps atomic.Int32
}

// NewBuffer makes a buffer of size bytes; init, when flags ask to copy or
// use a host pointer, is its initial contents (for CL_MEM_USE_HOST_PTR,
// the memory itself, kept).
func (c *Context) NewBuffer(flags uint64, size int, init []byte) (*Buffer, error) {
	if flags == 0 {
		flags = MemReadWrite
	}
	if err := checkMemFlags(flags, init != nil); err != nil {
		return nil, err
	}
	if size <= 0 || size > maxBufferBytes {
		return nil, errorf(InvalidBufferSize, "buffer size %d: 1 to %d bytes", size, maxBufferBytes)
	}
	if init != nil && len(init) < size {
		return nil, errorf(InvalidHostPtr, "the host memory holds %d bytes, not %d", len(init), size)
	}
	return c.newStorage(flags, size, init), nil
}

// checkMemFlags validates cl_mem_flags for a new buffer or image.
func checkMemFlags(flags uint64, hasHost bool) error {
	const known = memAccess | memHostPtr | memHostAccess
	switch {
	case flags&^uint64(known) != 0:
		return errorf(InvalidValue, "unknown memory flags %#x", flags)
	case popcount(flags&memAccess) > 1:
		return errorf(InvalidValue, "at most one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY")
	case popcount(flags&memHostAccess) > 1:
		return errorf(InvalidValue, "at most one of the CL_MEM_HOST_* flags")
	case flags&MemUseHostPtr != 0 && flags&(MemAllocHostPtr|MemCopyHostPtr) != 0:
		return errorf(InvalidValue, "CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR")
	case hasHost != (flags&(MemUseHostPtr|MemCopyHostPtr) != 0):
		return errorf(InvalidHostPtr, "a host pointer goes with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR, and only with them")
	}
	return nil
}

// newStorage makes a root buffer without checks.
func (c *Context) newStorage(flags uint64, size int, init []byte) *Buffer {
	b := &Buffer{Ctx: c, Flags: flags, Size: size, id: bufferIDs.Add(1), copies: map[*simDevice]*device.Buffer{}}
	if flags&MemUseHostPtr != 0 {
		b.host, b.useHost = init[:size:size], true
	} else {
		b.host = make([]byte, size)
		copy(b.host, init)
	}
	return b
}

// BufferCreateTypeRegion is CL_BUFFER_CREATE_TYPE_REGION.
const BufferCreateTypeRegion = 0x1220

// SubBuffer makes a sub-buffer of size bytes at origin. Flags it leaves
// out (access, host access) come from the parent, and the host pointer
// flags always do; it may not ask for more access than the parent has.
func (b *Buffer) SubBuffer(flags uint64, origin, size int) (*Buffer, error) {
	if b.Parent != nil {
		return nil, errorf(InvalidMemObject, "a sub-buffer cannot be the parent of another")
	}
	p := b.Flags
	switch {
	case flags&^uint64(memAccess|memHostAccess) != 0:
		return nil, errorf(InvalidValue, "sub-buffer flags %#x: only access and host access flags are allowed", flags)
	case popcount(flags&memAccess) > 1 || popcount(flags&memHostAccess) > 1:
		return nil, errorf(InvalidValue, "sub-buffer flags %#x: conflicting access flags", flags)
	case p&MemWriteOnly != 0 && flags&(MemReadWrite|MemReadOnly) != 0,
		p&MemReadOnly != 0 && flags&(MemReadWrite|MemWriteOnly) != 0:
		return nil, errorf(InvalidValue, "a sub-buffer cannot have device access its parent lacks")
	case p&MemHostWriteOnly != 0 && flags&MemHostReadOnly != 0,
		p&MemHostReadOnly != 0 && flags&MemHostWriteOnly != 0,
		p&MemHostNoAccess != 0 && flags&(MemHostReadOnly|MemHostWriteOnly) != 0:
		return nil, errorf(InvalidValue, "a sub-buffer cannot have host access its parent lacks")
	case size <= 0:
		return nil, errorf(InvalidBufferSize, "sub-buffer size %d", size)
	case origin < 0 || origin+size > b.Size || origin+size < origin:
		return nil, errorf(InvalidValue, "region [%d, %d) is outside the %d-byte buffer", origin, origin+size, b.Size)
	case origin%memBaseAlign != 0:
		return nil, errorf(MisalignedSubBufferOffset, "sub-buffer origin %d is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (%d bytes)", origin, memBaseAlign)
	}
	if flags&memAccess == 0 {
		flags |= p & memAccess
	}
	if flags&memHostAccess == 0 {
		flags |= p & memHostAccess
	}
	flags |= p & memHostPtr
	return &Buffer{Ctx: b.Ctx, Flags: flags, Size: size, Parent: b, Offset: origin, id: bufferIDs.Add(1)}, nil
}

// HostMemory is a CL_MEM_USE_HOST_PTR buffer's host memory (for a
// sub-buffer, the part of its parent's it covers), or nil.
func (b *Buffer) HostMemory() []byte {
	r := b.root()
	if !r.useHost {
		return nil
	}
	return r.host[b.Offset : b.Offset+b.Size]
}

// MapCount is CL_MEM_MAP_COUNT: the maps not yet unmapped.
func (b *Buffer) MapCount() int { return int(b.maps.Load()) }

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// root is the buffer that holds the storage.
func (b *Buffer) root() *Buffer {
	if b.Parent != nil {
		return b.Parent
	}
	return b
}

// on returns the buffer's copy on sim, bringing it up to date first.
// The caller holds b.mu; b is a root.
func (b *Buffer) on(sim *simDevice) *device.Buffer {
	cp := b.copies[sim]
	if cp == nil {
		cp = sim.dev.Alloc(b.Size, "cl_mem")
		b.copies[sim] = cp
	}
	if b.owner != sim {
		copy(cp.Bytes(), b.current())
		b.owner = sim
	}
	return cp
}

// current is the root's up-to-date contents. The caller holds b.mu.
func (b *Buffer) current() []byte {
	if b.owner != nil {
		return b.copies[b.owner].Bytes()
	}
	return b.host
}

// settle ends a command: a USE_HOST_PTR buffer's contents go back to the
// program's memory, which stays current until the next command. The
// caller holds b.mu; b is a root.
func (b *Buffer) settle() {
	if b.useHost && b.owner != nil {
		copy(b.host, b.copies[b.owner].Bytes())
		b.owner = nil
	}
}

// bytesOn is the buffer's bytes in its copy on sim. The caller holds the
// root's lock.
func (b *Buffer) bytesOn(sim *simDevice) []byte {
	return b.root().on(sim).Bytes()[b.Offset : b.Offset+b.Size]
}

// bytesNow is the buffer's current bytes, wherever they are.
func (b *Buffer) bytesNow() []byte {
	return b.root().current()[b.Offset : b.Offset+b.Size]
}

// view is the buffer as a kernel argument on sim: a sub-buffer is its
// parent's copy from Offset, at the parent's address plus Offset, so the
// kernel's accesses land in the parent's memory.
func (b *Buffer) view(sim *simDevice) (*device.Buffer, error) {
	cp := b.root().on(sim)
	if b.Parent == nil {
		return cp, nil
	}
	return cp.Slice(b.Offset, b.Size)
}

// lockRoots locks the storage of bufs once each, in creation order (so
// two commands never wait for each other), and returns the unlock, which
// settles each first.
func lockRoots(bufs ...*Buffer) func() {
	var roots []*Buffer
	seen := map[*Buffer]bool{}
	for _, b := range bufs {
		if b != nil && !seen[b.root()] {
			seen[b.root()] = true
			roots = append(roots, b.root())
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].id < roots[j].id })
	for _, r := range roots {
		r.mu.Lock()
	}
	return func() {
		for _, r := range roots {
			r.settle()
			r.mu.Unlock()
		}
	}
}

// checkRange validates an offset and size within the buffer.
func (b *Buffer) checkRange(offset, size int) error {
	if offset < 0 || size < 0 || offset+size > b.Size || offset+size < offset {
		return errorf(InvalidValue, "range [%d, %d) is outside the %d-byte buffer", offset, offset+size, b.Size)
	}
	return nil
}

// hostCan checks that the host may read (or write) the buffer.
func (b *Buffer) hostCan(write bool) error {
	if write && b.Flags&(MemHostReadOnly|MemHostNoAccess) != 0 {
		return errorf(InvalidOperation, "the buffer was made with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS")
	}
	if !write && b.Flags&(MemHostWriteOnly|MemHostNoAccess) != 0 {
		return errorf(InvalidOperation, "the buffer was made with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS")
	}
	return nil
}

// Read copies size bytes at offset from the buffer into dst (a device to
// host transfer, timed by the device's copy model).
func (q *Queue) Read(b *Buffer, offset int, dst []byte) (*Event, error) {
	if err := q.transfer(b, offset, len(dst), false); err != nil {
		return nil, err
	}
	return q.run(CommandReadBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = len(dst)
		defer lockRoots(b)()
		copy(dst, b.bytesNow()[offset:])
		return q.copyNS(sim, rec, len(dst), false), nil
	})
}

// Write copies src into the buffer at offset (host to device).
func (q *Queue) Write(b *Buffer, offset int, src []byte) (*Event, error) {
	if err := q.transfer(b, offset, len(src), true); err != nil {
		return nil, err
	}
	return q.run(CommandWriteBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = len(src)
		defer lockRoots(b)()
		copy(b.bytesOn(sim)[offset:], src)
		return q.copyNS(sim, rec, len(src), true), nil
	})
}

// transfer checks a host transfer's buffer and range.
func (q *Queue) transfer(b *Buffer, offset, size int, write bool) error {
	if err := q.sameContext(b); err != nil {
		return err
	}
	if err := b.checkRange(offset, size); err != nil {
		return err
	}
	return b.hostCan(write)
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
	s, d := src.Offset+srcOff, dst.Offset+dstOff
	if src.root() == dst.root() && s < d+size && d < s+size {
		return nil, errorf(MemCopyOverlap, "the source and destination ranges overlap")
	}
	return q.run(CommandCopyBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = size
		defer lockRoots(src, dst)()
		copy(dst.bytesOn(sim)[dstOff:dstOff+size], src.bytesOn(sim)[srcOff:srcOff+size])
		// A copy on the GPU reads and writes through memory: priced as
		// two transfers of the copy model.
		return q.copyNS(sim, rec, 2*size, true), nil
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
	pattern = append([]byte(nil), pattern...)
	return q.run(CommandFillBuffer, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = size
		defer lockRoots(b)()
		data := b.bytesOn(sim)[offset : offset+size]
		for i := 0; i < size; i += len(pattern) {
			copy(data[i:], pattern)
		}
		return q.copyNS(sim, rec, size, true), nil
	})
}

// MemCopyOverlap is CL_MEM_COPY_OVERLAP.
const MemCopyOverlap Status = -8

// copyNS is the simulated time of a transfer that moves n bytes through
// the device's copy model (a copy within device memory reads and writes
// each byte: twice its size), and records its counters.
func (q *Queue) copyNS(sim *simDevice, rec *CommandRecord, n int, toGPU bool) float64 {
	if q.Functional || n == 0 {
		return 0
	}
	rec.Counters = sim.dev.CopyCounters(int64(n), toGPU)
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

// Migration flags (cl_mem_migration_flags).
const (
	MigrateToHost           = 1 << 0
	MigrateContentUndefined = 1 << 1
)

// CommandMigrateMemObjects is CL_COMMAND_MIGRATE_MEM_OBJECTS.
const CommandMigrateMemObjects = 0x1206

// Migrate moves buffers to the queue's device (or, with MigrateToHost, to
// the host). Devices share the SoC's memory, so it moves no data on the
// simulated device and takes no time; it is a command with an event.
func (q *Queue) Migrate(bufs []*Buffer, flags uint64) (*Event, error) {
	if len(bufs) == 0 {
		return nil, errorf(InvalidValue, "no memory objects to migrate")
	}
	if flags&^uint64(MigrateToHost|MigrateContentUndefined) != 0 {
		return nil, errorf(InvalidValue, "unknown migration flags %#x", flags)
	}
	for _, b := range bufs {
		if err := q.sameContext(b); err != nil {
			return nil, err
		}
	}
	return q.run(CommandMigrateMemObjects, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		if flags&MigrateToHost == 0 {
			defer lockRoots(bufs...)()
			for _, b := range bufs {
				b.root().on(sim)
			}
		}
		return 0, nil
	})
}
