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

// decodedCode is a program's code and control-flow edges decoded for one
// warp width. Dispatches share it: nothing writes to it after decoding.
type decodedCode struct {
	code  []xinst
	edges [][]xedge
}

// decodedFor is p decoded for warps of width lanes, decoded on the first
// request for that width (a launch of a small kernel spent a tenth of its
// setup decoding).
func (p *Program) decodedFor(width int) *decodedCode {
	p.decodedMu.Lock()
	defer p.decodedMu.Unlock()
	dc := p.decoded[width]
	if dc == nil {
		dc = &decodedCode{decode(p.Code, width), decodeEdges(p.Blocks, width)}
		if p.decoded == nil {
			p.decoded = map[int]*decodedCode{}
		}
		p.decoded[width] = dc
	}
	return dc
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

// xedge is a control-flow edge decoded for one warp width: its phi copies
// as register offsets, consecutive ones merged into one copy (a loop's
// back edge often moves a run of slots to the next run).
type xedge struct {
	to      int32
	moves   []xmove
	overlap bool // a destination is also a source: copy through scratch
}

// xmove copies n register elements from offset src to offset dst.
type xmove struct{ dst, src, n int }

// decodeEdges decodes every block's successors for warps of width lanes.
func decodeEdges(blocks []ir.Block, width int) [][]xedge {
	es := make([][]xedge, len(blocks))
	for b := range blocks {
		for _, e := range blocks[b].Succs {
			x := xedge{to: e.To, overlap: e.Overlap}
			for _, mv := range e.Moves {
				d, s, n := int(mv.Dst)*width, int(mv.Src)*width, int(mv.N)*width
				if k := len(x.moves) - 1; k >= 0 && x.moves[k].dst+x.moves[k].n == d && x.moves[k].src+x.moves[k].n == s {
					x.moves[k].n += n
					continue
				}
				x.moves = append(x.moves, xmove{d, s, n})
			}
			es[b] = append(es[b], x)
		}
	}
	return es
}
