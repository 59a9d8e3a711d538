package emu

import (
	"encoding/binary"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Loads and stores of one 32-bit word in local or private memory. A GLSL
// shader that glslang did not optimise keeps each variable in private
// memory, loaded and stored at every use: these are most of its
// instructions. They do what hLoad and hStore do, with the checks that
// hold for the whole instruction made once. Their factories are not
// inlined: inlined into init, a function too big for the compiler to
// inline into, their handlers were compiled without inlining the window
// lookup and the byte-order reads (divergent_glsl ran 8% slower).

// hLoadWord is hLoad for 32-bit words in a windowed space (local or
// private); an instruction of several words goes to the general handler.
//
//go:noinline
func hLoadWord(space ir.Space) handler {
	general := hLoad(space, 4)
	return func(w *Warp, x *xinst) {
		in := x.in
		if in.N != 1 {
			general(w, x)
			return
		}
		d := w.regs[x.d:][:w.width]
		a := w.regs[x.a:][:w.width]
		off := uint64(in.Imm)
		win := w.window(space)
		for _, l := range w.lanes {
			p := win.at(int(l), a[l]+off, 4)
			if p == nil {
				if p = w.mem(in, space, int(l), a[l]+off, 4, false); p == nil {
					return
				}
			}
			d[l] = uint64(binary.LittleEndian.Uint32(p))
		}
		if w.Trace != nil {
			w.Trace.record(w.pc(in), space, AccessLoad, 4, a, off, w.lanes)
		}
	}
}

// hStoreWord is hStore for 32-bit words in a windowed space.
//
//go:noinline
func hStoreWord(space ir.Space) handler {
	general := hStore(space, 4)
	return func(w *Warp, x *xinst) {
		in := x.in
		if in.N != 1 {
			general(w, x)
			return
		}
		v := w.regs[x.b:][:w.width]
		a := w.regs[x.a:][:w.width]
		off := uint64(in.Imm)
		win := w.window(space)
		for _, l := range w.lanes {
			p := win.at(int(l), a[l]+off, 4)
			if p == nil {
				if p = w.mem(in, space, int(l), a[l]+off, 4, true); p == nil {
					return
				}
			}
			binary.LittleEndian.PutUint32(p, uint32(v[l]))
		}
		if w.Trace != nil {
			w.Trace.record(w.pc(in), space, AccessStore, 4, a, off, w.lanes)
		}
	}
}
