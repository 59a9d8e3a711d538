package device

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/emu"
)

// Buffer is device memory. The device shares host memory, so Bytes is both
// the upload and the read-back.
type Buffer struct {
	b *emu.Buffer
}

// Alloc allocates a zeroed buffer.
func (d *Device) Alloc(size int, name string) *Buffer {
	return &Buffer{d.gmem.Alloc(size, name, false)}
}

// AllocFrom allocates a buffer holding a copy of data.
func (d *Device) AllocFrom(data []byte, name string) *Buffer {
	b := d.Alloc(len(data), name)
	copy(b.b.Data, data)
	return b
}

// Free releases a buffer (a view from Slice releases nothing; nil is
// ignored).
func (d *Device) Free(b *Buffer) {
	if b != nil {
		d.gmem.Free(b.b)
	}
}

// Bytes is the buffer's contents.
func (b *Buffer) Bytes() []byte { return b.b.Data }

// Len is the buffer's size in bytes.
func (b *Buffer) Len() int { return len(b.b.Data) }

// Addr is the buffer's device address: the pointer a kernel gets for it.
func (b *Buffer) Addr() uint64 { return b.b.Base }

// Name is the name the buffer was allocated with (error messages and
// fault reports use it).
func (b *Buffer) Name() string { return b.b.Name }

// Slice is n bytes of the buffer from off as a buffer of its own (an
// OpenCL sub-buffer): the same memory at the buffer's address plus off, so
// a kernel's accesses through it land in the buffer.
func (b *Buffer) Slice(off, n int) (*Buffer, error) {
	if off < 0 || n < 0 || off > len(b.b.Data)-n {
		return nil, fmt.Errorf("buffer %s: %d bytes from %d are outside its %d bytes", b.b.Name, n, off, len(b.b.Data))
	}
	return &Buffer{&emu.Buffer{Base: b.b.Base + uint64(off), Data: b.b.Data[off : off+n], Name: b.b.Name, ReadOnly: b.b.ReadOnly}}, nil
}
