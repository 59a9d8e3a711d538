package emu

import (
	"fmt"
	"sort"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Device virtual addresses: buffers start at 64 GiB, 4 KiB aligned, with a
// 64 KiB unmapped gap after each so that running off the end of one buffer
// faults instead of landing in the next.
const (
	vaBase  = 0x10_0000_0000
	vaAlign = 4 << 10
	vaGuard = 64 << 10
)

// Buffer is a range of device memory.
type Buffer struct {
	Base     uint64
	Data     []byte
	Name     string
	ReadOnly bool
}

// End is one past the buffer's last address.
func (b *Buffer) End() uint64 { return b.Base + uint64(len(b.Data)) }

// contains reports whether [addr, addr+n) lies in b.
func (b *Buffer) contains(addr uint64, n int) bool {
	return addr >= b.Base && addr-b.Base <= uint64(len(b.Data)) && uint64(len(b.Data))-(addr-b.Base) >= uint64(n)
}

// Memory is the device's global memory.
type Memory struct {
	bufs []*Buffer // sorted by Base
	next uint64
}

// NewMemory returns an empty address space.
func NewMemory() *Memory { return &Memory{next: vaBase} }

// Alloc maps a zeroed buffer of size bytes.
func (m *Memory) Alloc(size int, name string, readOnly bool) *Buffer {
	b := &Buffer{Base: m.next, Data: make([]byte, size), Name: name, ReadOnly: readOnly}
	m.next += (uint64(size) + vaAlign - 1) / vaAlign * vaAlign
	m.next += vaGuard
	m.bufs = append(m.bufs, b)
	return b
}

// Free unmaps a buffer.
func (m *Memory) Free(b *Buffer) {
	for i, x := range m.bufs {
		if x == b {
			m.bufs = append(m.bufs[:i], m.bufs[i+1:]...)
			return
		}
	}
}

// Find returns the buffer holding [addr, addr+n), or nil.
func (m *Memory) Find(addr uint64, n int) *Buffer {
	i := sort.Search(len(m.bufs), func(i int) bool { return m.bufs[i].Base > addr }) - 1
	if i < 0 || !m.bufs[i].contains(addr, n) {
		return nil
	}
	return m.bufs[i]
}

// Buffers lists the mapped buffers in address order.
func (m *Memory) Buffers() []*Buffer { return m.bufs }

// describe names the buffer nearest an address, for fault reports.
func (m *Memory) describe(addr uint64) string {
	var best *Buffer
	var dist uint64
	for _, b := range m.bufs {
		var d uint64
		switch {
		case addr < b.Base:
			d = b.Base - addr
		case addr >= b.End():
			d = addr - b.End() + 1
		}
		if best == nil || d < dist {
			best, dist = b, d
		}
	}
	if best == nil {
		return "no buffer is mapped"
	}
	where := fmt.Sprintf("buffer %q [%#x, %#x)", best.Name, best.Base, best.End())
	switch {
	case addr < best.Base:
		return fmt.Sprintf("%d bytes before %s", best.Base-addr, where)
	case addr >= best.End():
		return fmt.Sprintf("%d bytes past the end of %s", addr-best.End(), where)
	}
	return "inside " + where
}

// Fault is a kernel's invalid memory access, reported as a driver reports
// a GPU page fault: which kernel, which work-item, what address.
type Fault struct {
	Kernel   string
	WorkItem [3]int
	Group    [3]int
	Local    [3]int
	Addr     uint64
	Size     int
	Space    ir.Space
	Write    bool
	Where    string // the nearest buffer, or the local/private bounds
	Site     ir.Site
	Reason   string
}

func (f *Fault) Error() string {
	verb := "read"
	if f.Write {
		verb = "write"
	}
	reason := f.Reason
	if reason == "" {
		reason = "out of bounds"
	}
	return fmt.Sprintf("GPU fault in kernel %s: work-item (%d,%d,%d) (group (%d,%d,%d), local (%d,%d,%d)): %s of %d bytes at %s address %#x %s: %s; at %s",
		f.Kernel, f.WorkItem[0], f.WorkItem[1], f.WorkItem[2], f.Group[0], f.Group[1], f.Group[2],
		f.Local[0], f.Local[1], f.Local[2], verb, f.Size, f.Space, f.Addr, reason, f.Where, f.Site)
}

// fault records a memory fault for lane l.
func (w *Warp) fault(in *ir.Inst, l int, space ir.Space, addr uint64, size int, write bool, reason string) {
	if w.err != nil {
		return
	}
	f := &Fault{Kernel: w.prog.Entry, WorkItem: w.globalID(l), Group: w.groupID(l), Local: w.localID(l),
		Addr: addr, Size: size, Space: space, Write: write, Reason: reason}
	if in != nil {
		f.Site = w.prog.Sites[in.Site]
	}
	switch space {
	case ir.SpaceGlobal:
		f.Where = "(" + w.d.Mem.describe(addr) + ")"
	case ir.SpaceLocal:
		f.Where = fmt.Sprintf("(local memory is %d bytes)", len(w.local(l)))
	case ir.SpacePrivate:
		f.Where = fmt.Sprintf("(the private frame is %d bytes)", w.frame)
	}
	if reason == "" {
		f.Reason = "out of bounds"
	}
	w.err = f
}

// buffer finds the buffer holding n bytes at addr, or nil. Kernels mostly
// go between a few buffers (load from two, store to a third), so the
// warp's recent ones, the last first, are tried before the memory's list.
func (w *Warp) buffer(addr uint64, n int) *Buffer {
	if b := w.recent[w.mru]; b != nil && b.contains(addr, n) {
		return b
	}
	for i, b := range w.recent {
		if b != nil && b.contains(addr, n) {
			w.mru = uint8(i)
			return b
		}
	}
	b := w.d.Mem.Find(addr, n)
	if b != nil {
		w.mru = (w.mru + 1) % uint8(len(w.recent))
		w.recent[w.mru] = b
	}
	return b
}

// inLast is the n bytes at addr in the global buffer found last, or nil
// (buffer then looks further).
func (w *Warp) inLast(addr uint64, n int, write bool) []byte {
	b := w.recent[w.mru]
	if b == nil || !b.contains(addr, n) || write && b.ReadOnly {
		return nil
	}
	o := addr - b.Base
	return b.Data[o : o+uint64(n)]
}

// global returns the bytes at a global address for lane l, or faults.
func (w *Warp) global(in *ir.Inst, l int, addr uint64, n int, write bool) []byte {
	b := w.buffer(addr, n)
	if b == nil {
		w.fault(in, l, ir.SpaceGlobal, addr, n, write, "")
		return nil
	}
	if write && b.ReadOnly {
		w.fault(in, l, ir.SpaceGlobal, addr, n, write, "write to a read-only buffer")
		return nil
	}
	o := addr - b.Base
	return b.Data[o : o+uint64(n)]
}

// mem returns the bytes for lane l at addr in a space, or faults.
func (w *Warp) mem(in *ir.Inst, space ir.Space, l int, addr uint64, n int, write bool) []byte {
	switch space {
	case ir.SpaceGlobal:
		return w.global(in, l, addr, n, write)
	case ir.SpaceLocal:
		loc := w.local(l)
		if addr > uint64(len(loc)) || uint64(len(loc))-addr < uint64(n) {
			if w.d.Strict {
				w.fault(in, l, space, addr, n, write, "")
				return nil
			}
			return w.outOfBounds(in, n)
		}
		return loc[addr : addr+uint64(n)]
	default:
		if addr > uint64(w.frame) || uint64(w.frame)-addr < uint64(n) {
			w.fault(in, l, space, addr, n, write, "")
			return nil
		}
		o := uint64(l*w.frame) + addr
		return w.priv[o : o+uint64(n)]
	}
}

// outOfBounds counts a local access outside the work-group's memory and
// gives n bytes of zeros for it to read or write: the write goes nowhere,
// the read finds zeros. (assumed: what a GPU does is not published; on
// hardware such an access reaches another work-group's local memory or
// none, and the program runs on, which is what users of a simulator need
// to see the bug.)
func (w *Warp) outOfBounds(in *ir.Inst, n int) []byte {
	site := int32(1)
	if in != nil {
		site = int32(in.Site) + 1
	}
	w.LocalOutOfBounds++
	if w.oobSite == 0 || site < w.oobSite {
		w.oobSite = site
	}
	if cap(w.oob) < n {
		w.oob = make([]byte, n)
	}
	b := w.oob[:n]
	clear(b)
	return b
}

// window is where one instruction's accesses to local or private memory
// go without a lookup: the work-group's local memory (unless the warp is
// packed), or the warp's private frames, lane l's stride×l bytes on.
type window struct {
	base   []byte
	limit  uint64 // the bytes a lane may address
	stride int
}

// window gives the window of a space (empty for global memory).
func (w *Warp) window(space ir.Space) window {
	switch {
	case space == ir.SpaceLocal && w.seg == 0:
		return window{base: w.wg.Local, limit: uint64(len(w.wg.Local))}
	case space == ir.SpacePrivate:
		return window{base: w.priv, limit: uint64(w.frame), stride: w.frame}
	}
	return window{}
}

// at is lane l's n bytes at addr, or nil when they are outside the
// window (mem then finds them, or faults).
func (win *window) at(l int, addr uint64, n int) []byte {
	if addr > win.limit || win.limit-addr < uint64(n) {
		return nil
	}
	o := uint64(l*win.stride) + addr
	return win.base[o : o+uint64(n)]
}
