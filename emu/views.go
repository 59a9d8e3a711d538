package emu

import "unsafe"

// The generated handlers read and write float32 and float64 values through
// float views of a warp's registers instead of converting each slot word
// (math.Float32frombits and kin cost a move between integer and float
// registers each; a mad loop runs about twice as fast without them). A
// float32 lives in the low half of its slot, lo32 being that half's index
// on this host (byteorder_*.go), and its other half, hi32, is kept zero,
// as everything reading the slot as a word expects.
const hi32 = 1 - lo32

// setRegs makes regs the warp's registers, with their float views.
func (w *Warp) setRegs(regs []uint64) {
	w.regs = regs
	if len(regs) == 0 {
		w.f32, w.f64 = nil, nil
		return
	}
	w.f32 = unsafe.Slice((*[2]float32)(unsafe.Pointer(&regs[0])), len(regs))
	w.f64 = unsafe.Slice((*float64)(unsafe.Pointer(&regs[0])), len(regs))
}
