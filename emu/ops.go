package emu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/ir"
)

type handler func(w *Warp, x *xinst)

var handlers [ir.NumOps]handler

func init() {
	for op, h := range map[ir.Op]handler{
		ir.OpNop:        nopHandler,
		ir.OpMov:        hMov,
		ir.OpBroadcast:  hBroadcast,
		ir.OpSelect:     hSelect,
		ir.OpExtractDyn: hExtractDyn,
		ir.OpInsertDyn:  hInsertDyn,
		ir.OpRepack:     hRepack,
		ir.OpAddrImm:    hAddrImm,
		ir.OpAddrIdx32:  hAddrIdx32,
		ir.OpAddrIdx64:  hAddrIdx64,
		ir.OpCopyMemory: hCopyMemory,
		ir.OpAtomic:     hAtomic,
		ir.OpExt:        hExt,
		ir.OpImage:      hImage,
		ir.OpPtrDiff:    hPtrDiff,

		ir.OpIAddCarry32: hCarry(32, false), ir.OpIAddCarry64: hCarry(64, false),
		ir.OpISubBorrow32: hCarry(32, true), ir.OpISubBorrow64: hCarry(64, true),
		ir.OpUMulExtended32: hMulExt(32, false), ir.OpUMulExtended64: hMulExt(64, false),
		ir.OpSMulExtended32: hMulExt(32, true), ir.OpSMulExtended64: hMulExt(64, true),
	} {
		handlers[op] = h
	}
	for _, sp := range []ir.Space{ir.SpaceGlobal, ir.SpaceLocal, ir.SpacePrivate} {
		for _, size := range []int{1, 2, 4, 8} {
			handlers[ir.LoadOp(sp, size)] = hLoad(sp, size)
			handlers[ir.StoreOp(sp, size)] = hStore(sp, size)
		}
	}
	for _, sp := range []ir.Space{ir.SpaceLocal, ir.SpacePrivate} {
		handlers[ir.LoadOp(sp, 4)] = hLoadWord(sp)
		handlers[ir.StoreOp(sp, 4)] = hStoreWord(sp)
	}
	for op := range handlers {
		if handlers[op] == nil {
			o := ir.Op(op)
			handlers[op] = func(w *Warp, x *xinst) {
				in := x.in
				w.fail(fmt.Errorf("internal: no handler for %s", o), &w.prog.Sites[in.Site])
			}
		}
	}
}

func nopHandler(*Warp, *xinst) {}

func hMov(w *Warp, x *xinst) {
	in := x.in
	d, a := w.dst(in), w.src(in, 0)
	if w.full {
		copy(d, a)
		return
	}
	for o := 0; o < len(d); o += w.width {
		for _, l := range w.lanes {
			d[o+int(l)] = a[o+int(l)]
		}
	}
}

func hBroadcast(w *Warp, x *xinst) {
	in := x.in
	d, s := w.dst(in), w.slot(in.Src[0])
	for o := 0; o < len(d); o += w.width {
		for _, l := range w.lanes {
			d[o+int(l)] = s[l]
		}
	}
}

func hSelect(w *Warp, x *xinst) {
	in := x.in
	d, a, b := w.dst(in), w.src(in, 1), w.src(in, 2)
	W := w.width
	if in.Imm == 1 {
		c := w.slot(in.Src[0])
		for o := 0; o < len(d); o += W {
			for _, l := range w.lanes {
				if c[l] != 0 {
					d[o+int(l)] = a[o+int(l)]
				} else {
					d[o+int(l)] = b[o+int(l)]
				}
			}
		}
		return
	}
	c := w.src(in, 0)
	for o := 0; o < len(d); o += W {
		for _, l := range w.lanes {
			i := o + int(l)
			if c[i] != 0 {
				d[i] = a[i]
			} else {
				d[i] = b[i]
			}
		}
	}
}

func hExtractDyn(w *Warp, x *xinst) {
	in := x.in
	W := w.width
	d, idx := w.slot(in.Dst), w.slot(in.Src[1])
	vec := w.regs[int(in.Src[0])*W:]
	for _, l := range w.lanes {
		if k := idx[l]; k < uint64(in.Imm) {
			d[l] = vec[int(k)*W+int(l)]
		} else {
			d[l] = 0 // out of range: undefined in SPIR-V
		}
	}
}

func hInsertDyn(w *Warp, x *xinst) {
	in := x.in
	W := w.width
	d, vec := w.dst(in), w.src(in, 0)
	comp, idx := w.slot(in.Src[1]), w.slot(in.Src[2])
	for _, l := range w.lanes {
		for o := 0; o < len(d); o += W {
			d[o+int(l)] = vec[o+int(l)]
		}
		if k := idx[l]; k < uint64(in.Imm) {
			d[int(k)*W+int(l)] = comp[l]
		}
	}
}

func hRepack(w *Warp, x *xinst) {
	in := x.in
	r := &w.prog.Repacks[in.Aux]
	W := w.width
	src := w.regs[int(in.Src[0])*W:]
	d := w.regs[int(in.Dst)*W:]
	var buf [128]byte
	for _, l := range w.lanes {
		for c := 0; c < r.FromN; c++ {
			putLE(buf[c*r.FromBytes:], r.FromBytes, src[c*W+int(l)])
		}
		for c := 0; c < r.ToN; c++ {
			d[c*W+int(l)] = readLE(buf[c*r.ToBytes:], r.ToBytes)
		}
	}
}

func hAddrImm(w *Warp, x *xinst) {
	in := x.in
	d, a := w.slot(in.Dst), w.slot(in.Src[0])
	k := uint64(in.Imm)
	for _, l := range w.lanes {
		d[l] = a[l] + k
	}
}

func hAddrIdx32(w *Warp, x *xinst) {
	in := x.in
	d, a, b := w.slot(in.Dst), w.slot(in.Src[0]), w.slot(in.Src[1])
	k := in.Imm
	s := 64 - uint(in.Aux)
	for _, l := range w.lanes {
		d[l] = a[l] + uint64((int64(b[l]<<s)>>s)*k)
	}
}

func hAddrIdx64(w *Warp, x *xinst) {
	in := x.in
	d, a, b := w.slot(in.Dst), w.slot(in.Src[0]), w.slot(in.Src[1])
	k := uint64(in.Imm)
	for _, l := range w.lanes {
		d[l] = a[l] + b[l]*k
	}
}

func hPtrDiff(w *Warp, x *xinst) {
	in := x.in
	d, a, b := w.slot(in.Dst), w.slot(in.Src[0]), w.slot(in.Src[1])
	for _, l := range w.lanes {
		d[l] = uint64(int64(a[l]-b[l]) / in.Imm)
	}
}

// hTwoResults applies f to each active lane of each component and writes
// its two results as a two-member struct: the first N slots, then the next N
// (OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended).
func hTwoResults(f func(a, b uint64) (uint64, uint64)) handler {
	return func(w *Warp, x *xinst) {
		in := x.in
		W, n := w.width, int(in.N)
		a, b := w.src(in, 0), w.src(in, 1)
		d := w.regs[int(in.Dst)*W : (int(in.Dst)+2*n)*W]
		for c := 0; c < n; c++ {
			for _, l := range w.lanes {
				i := c*W + int(l)
				d[i], d[n*W+i] = f(a[i], b[i])
			}
		}
	}
}

// hCarry is OpIAddCarry or OpISubBorrow: the result and the carry (borrow).
func hCarry(nbits int, sub bool) handler {
	switch {
	case nbits == 64 && sub:
		return hTwoResults(func(a, b uint64) (uint64, uint64) { return bits.Sub64(a, b, 0) })
	case nbits == 64:
		return hTwoResults(func(a, b uint64) (uint64, uint64) { return bits.Add64(a, b, 0) })
	case sub:
		return hTwoResults(func(a, b uint64) (uint64, uint64) {
			r, c := bits.Sub32(uint32(a), uint32(b), 0)
			return uint64(r), uint64(c)
		})
	}
	return hTwoResults(func(a, b uint64) (uint64, uint64) {
		r, c := bits.Add32(uint32(a), uint32(b), 0)
		return uint64(r), uint64(c)
	})
}

// hMulExt is OpUMulExtended or OpSMulExtended: the low and high halves.
func hMulExt(nbits int, signed bool) handler {
	switch {
	case nbits == 64:
		return hTwoResults(func(a, b uint64) (uint64, uint64) {
			hi, lo := bits.Mul64(a, b)
			if signed {
				if int64(a) < 0 {
					hi -= b
				}
				if int64(b) < 0 {
					hi -= a
				}
			}
			return lo, hi
		})
	case signed:
		return hTwoResults(func(a, b uint64) (uint64, uint64) {
			p := uint64(int64(int32(a)) * int64(int32(b)))
			return uint64(uint32(p)), p >> 32 & 0xffffffff
		})
	}
	return hTwoResults(func(a, b uint64) (uint64, uint64) {
		p := uint64(uint32(a)) * uint64(uint32(b))
		return uint64(uint32(p)), p >> 32
	})
}

func readLE(p []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(p[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(p))
	case 4:
		return uint64(binary.LittleEndian.Uint32(p))
	}
	return binary.LittleEndian.Uint64(p)
}

func putLE(p []byte, size int, v uint64) {
	switch size {
	case 1:
		p[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(p, uint32(v))
	default:
		binary.LittleEndian.PutUint64(p, v)
	}
}

// pc gives an instruction's index in the program (for traces).
func (w *Warp) pc(in *ir.Inst) int32 {
	return int32((uintptr(unsafe.Pointer(in)) - uintptr(unsafe.Pointer(unsafe.SliceData(w.prog.Code)))) / unsafe.Sizeof(ir.Inst{}))
}

// contiguous returns the bytes of a whole warp's global access when every
// lane is active and lane l reads total bytes at a[0]+off+l*total inside one
// buffer (consecutive work-items reading consecutive elements: the common
// case), so that one range check covers the warp.
func (w *Warp) contiguous(a []uint64, off uint64, total int, write bool) []byte {
	if !w.full {
		return nil
	}
	base := a[0] + off
	step := uint64(total)
	for l := 1; l < len(a); l++ {
		if a[l]+off != base+uint64(l)*step {
			return nil
		}
	}
	n := len(a) * total
	b := w.buffer(base, n)
	if b == nil || write && b.ReadOnly {
		return nil
	}
	o := base - b.Base
	return b.Data[o : o+uint64(n)]
}

// gatherWords fills a whole warp's n component slots (d: slot-major, W
// lanes a slot) from p, which holds the lanes' n little-endian 32-bit words
// one lane after another. The common widths are written out so that each
// lane costs one range check.
func gatherWords(d []uint64, p []byte, W, n int) {
	switch n {
	case 1:
		d0 := d[:W]
		p = p[:4*len(d0)]
		for l := range d0 {
			d0[l] = uint64(binary.LittleEndian.Uint32(p[4*l:]))
		}
	case 4:
		d0 := d[:W]
		d1, d2, d3 := d[W:][:len(d0)], d[2*W:][:len(d0)], d[3*W:][:len(d0)]
		for l := range d0 {
			q := p[16*l : 16*l+16]
			d0[l] = uint64(binary.LittleEndian.Uint32(q[0:]))
			d1[l] = uint64(binary.LittleEndian.Uint32(q[4:]))
			d2[l] = uint64(binary.LittleEndian.Uint32(q[8:]))
			d3[l] = uint64(binary.LittleEndian.Uint32(q[12:]))
		}
	default:
		for l := 0; l < W; l++ {
			q := p[4*n*l : 4*n*l+4*n]
			for c := 0; c < n; c++ {
				d[c*W+l] = uint64(binary.LittleEndian.Uint32(q[4*c:]))
			}
		}
	}
}

// scatterWords is gatherWords' inverse: a whole warp's n component slots
// (v) stored lane after lane into p as little-endian 32-bit words.
func scatterWords(p []byte, v []uint64, W, n int) {
	switch n {
	case 1:
		v0 := v[:W]
		p = p[:4*len(v0)]
		for l, x := range v0 {
			binary.LittleEndian.PutUint32(p[4*l:], uint32(x))
		}
	case 4:
		v0 := v[:W]
		v1, v2, v3 := v[W:][:len(v0)], v[2*W:][:len(v0)], v[3*W:][:len(v0)]
		for l := range v0 {
			q := p[16*l : 16*l+16]
			binary.LittleEndian.PutUint32(q[0:], uint32(v0[l]))
			binary.LittleEndian.PutUint32(q[4:], uint32(v1[l]))
			binary.LittleEndian.PutUint32(q[8:], uint32(v2[l]))
			binary.LittleEndian.PutUint32(q[12:], uint32(v3[l]))
		}
	default:
		for l := 0; l < W; l++ {
			q := p[4*n*l : 4*n*l+4*n]
			for c := 0; c < n; c++ {
				binary.LittleEndian.PutUint32(q[4*c:], uint32(v[c*W+l]))
			}
		}
	}
}

func hLoad(space ir.Space, size int) handler {
	return func(w *Warp, x *xinst) {
		in := x.in
		W, n := w.width, int(in.N)
		d := w.regs[int(in.Dst)*W : (int(in.Dst)+n)*W]
		a := w.slot(in.Src[0])
		off := uint64(in.Imm)
		total := size * n
		if space == ir.SpaceGlobal && size == 4 {
			if p := w.contiguous(a, off, total, false); p != nil {
				gatherWords(d, p, W, n)
				if w.Trace != nil {
					w.Trace.record(w.pc(in), space, AccessLoad, total, a, off, w.lanes)
				}
				return
			}
		}
		win := w.window(space)
		for _, l := range w.lanes {
			// Local or private memory in bounds, or global memory in the
			// buffer found last: the common cases.
			p := win.at(int(l), a[l]+off, total)
			if p == nil && space == ir.SpaceGlobal {
				p = w.inLast(a[l]+off, total, false)
			}
			if p == nil {
				if p = w.mem(in, space, int(l), a[l]+off, total, false); p == nil {
					return
				}
			}
			switch size {
			case 4:
				for c := 0; c < n; c++ {
					d[c*W+int(l)] = uint64(binary.LittleEndian.Uint32(p[4*c:]))
				}
			case 8:
				for c := 0; c < n; c++ {
					d[c*W+int(l)] = binary.LittleEndian.Uint64(p[8*c:])
				}
			case 2:
				for c := 0; c < n; c++ {
					d[c*W+int(l)] = uint64(binary.LittleEndian.Uint16(p[2*c:]))
				}
			default:
				for c := 0; c < n; c++ {
					d[c*W+int(l)] = uint64(p[c])
				}
			}
		}
		if w.Trace != nil {
			w.Trace.record(w.pc(in), space, AccessLoad, total, a, off, w.lanes)
		}
	}
}

func hStore(space ir.Space, size int) handler {
	return func(w *Warp, x *xinst) {
		in := x.in
		W, n := w.width, int(in.N)
		v := w.regs[int(in.Src[1])*W : (int(in.Src[1])+n)*W]
		a := w.slot(in.Src[0])
		off := uint64(in.Imm)
		total := size * n
		if space == ir.SpaceGlobal && size == 4 {
			if p := w.contiguous(a, off, total, true); p != nil {
				scatterWords(p, v, W, n)
				if w.Trace != nil {
					w.Trace.record(w.pc(in), space, AccessStore, total, a, off, w.lanes)
				}
				return
			}
		}
		win := w.window(space)
		for _, l := range w.lanes {
			p := win.at(int(l), a[l]+off, total)
			if p == nil && space == ir.SpaceGlobal {
				p = w.inLast(a[l]+off, total, true)
			}
			if p == nil {
				if p = w.mem(in, space, int(l), a[l]+off, total, true); p == nil {
					return
				}
			}
			switch size {
			case 4:
				for c := 0; c < n; c++ {
					binary.LittleEndian.PutUint32(p[4*c:], uint32(v[c*W+int(l)]))
				}
			case 8:
				for c := 0; c < n; c++ {
					binary.LittleEndian.PutUint64(p[8*c:], v[c*W+int(l)])
				}
			case 2:
				for c := 0; c < n; c++ {
					binary.LittleEndian.PutUint16(p[2*c:], uint16(v[c*W+int(l)]))
				}
			default:
				for c := 0; c < n; c++ {
					p[c] = byte(v[c*W+int(l)])
				}
			}
		}
		if w.Trace != nil {
			w.Trace.record(w.pc(in), space, AccessStore, total, a, off, w.lanes)
		}
	}
}

func hCopyMemory(w *Warp, x *xinst) {
	in := x.in
	c := &w.prog.Copies[in.Aux]
	dst, src := w.slot(in.Src[0]), w.slot(in.Src[1])
	for _, l := range w.lanes {
		n := c.Bytes
		if n < 0 {
			n = int(w.slot(in.Src[2])[l])
		}
		s := w.mem(in, c.SrcSpace, int(l), src[l], n, false)
		if s == nil {
			return
		}
		d := w.mem(in, c.DstSpace, int(l), dst[l], n, true)
		if d == nil {
			return
		}
		copy(d, s)
	}
	if w.Trace != nil && c.Bytes > 0 {
		w.Trace.record(w.pc(in), c.SrcSpace, AccessLoad, c.Bytes, src, 0, w.lanes)
		w.Trace.record(w.pc(in), c.DstSpace, AccessStore, c.Bytes, dst, 0, w.lanes)
	}
}

// hAtomic performs an atomic for each active lane, in lane order.
func hAtomic(w *Warp, x *xinst) {
	in := x.in
	a := &w.prog.Atomics[in.Aux]
	W := w.width
	addr := w.slot(a.Addr)
	var val, cmp, dst []uint64
	if a.Value >= 0 {
		val = w.slot(a.Value)
	}
	if a.Comp >= 0 {
		cmp = w.slot(a.Comp)
	}
	if a.Dst >= 0 {
		dst = w.regs[int(a.Dst)*W : int(a.Dst)*W+W]
	}
	write := a.Kind != ir.AtomicLoad
	for _, l := range w.lanes {
		p := w.mem(in, a.Space, int(l), addr[l], a.Bytes, write)
		if p == nil {
			return
		}
		old := readLE(p, a.Bytes)
		var v uint64
		if val != nil {
			v = val[l]
		}
		nw, ok := atomicOp(a, old, v, cmp, int(l))
		if ok {
			putLE(p, a.Bytes, nw)
		}
		if dst != nil {
			if a.Kind == ir.AtomicFlagTestAndSet {
				old = b2u(old != 0)
			}
			dst[l] = old
		}
	}
	if w.Trace != nil {
		w.Trace.record(w.pc(in), a.Space, AccessAtomic, a.Bytes, addr, 0, w.lanes)
	}
}

// atomicOp computes the new value; ok is false when nothing is written.
func atomicOp(a *ir.AtomicInfo, old, v uint64, cmp []uint64, l int) (uint64, bool) {
	mask := uint64(math.MaxUint64)
	if a.Bytes == 4 {
		mask = math.MaxUint32
	}
	sx := func(x uint64) int64 {
		if a.Bytes == 4 {
			return int64(int32(x))
		}
		return int64(x)
	}
	switch a.Kind {
	case ir.AtomicLoad:
		return 0, false
	case ir.AtomicStore, ir.AtomicExchange:
		return v, true
	case ir.AtomicCompareExchange:
		if old == cmp[l]&mask {
			return v, true
		}
		return 0, false
	case ir.AtomicIIncrement:
		return (old + 1) & mask, true
	case ir.AtomicIDecrement:
		return (old - 1) & mask, true
	case ir.AtomicIAdd:
		return (old + v) & mask, true
	case ir.AtomicISub:
		return (old - v) & mask, true
	case ir.AtomicSMin:
		if sx(v) < sx(old) {
			return v, true
		}
		return old, true
	case ir.AtomicSMax:
		if sx(v) > sx(old) {
			return v, true
		}
		return old, true
	case ir.AtomicUMin:
		return min(old, v), true
	case ir.AtomicUMax:
		return max(old, v), true
	case ir.AtomicAnd:
		return old & v, true
	case ir.AtomicOr:
		return old | v, true
	case ir.AtomicXor:
		return old ^ v, true
	case ir.AtomicFAdd:
		if a.Bytes == 4 {
			return uint64(math.Float32bits(math.Float32frombits(uint32(old)) + math.Float32frombits(uint32(v)))), true
		}
		return math.Float64bits(math.Float64frombits(old) + math.Float64frombits(v)), true
	case ir.AtomicFlagTestAndSet:
		return 1, true
	case ir.AtomicFlagClear:
		return 0, true
	}
	return 0, false
}

func hExt(w *Warp, x *xinst) {
	in := x.in
	if w.Trace != nil {
		w.extPC = w.pc(in)
	}
	w.prog.ext[in.Aux](w, &w.prog.Ext[in.Aux])
}
