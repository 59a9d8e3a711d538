package emu

import "github.com/pocketgpu/pocketgpu/ir"

// xinst is an instruction decoded for one warp width: its handler and its
// operands' offsets into the warp's registers (slot × width), so that
// running it costs a call and no arithmetic of its own.
type xinst struct {
	run        handler
	in         *ir.Inst
	d, a, b, c int // Dst, Src[0], Src[1], Src[2] (0 when unused)
	n          int // elements an operand spans: N × width
}

// decode prepares a program's code for warps of width lanes.
func decode(code []ir.Inst, width int) []xinst {
	xs := make([]xinst, len(code))
	off := func(slot int32) int { return max(int(slot), 0) * width }
	for i := range code {
		in := &code[i]
		h := nopHandler
		if int(in.Op) < len(handlers) {
			h = handlers[in.Op]
		}
		xs[i] = xinst{run: h, in: in, d: off(in.Dst), a: off(in.Src[0]), b: off(in.Src[1]), c: off(in.Src[2]), n: int(in.N) * width}
	}
	return xs
}
