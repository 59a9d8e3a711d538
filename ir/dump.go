package ir

import (
	"fmt"
	"strings"
)

// String prints the program: blocks, instructions with their slots, and
// terminators with their edges — for debugging and tests.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %s (%s): %d slots, %d private bytes, %d local bytes\n", p.Entry, p.Model, p.Regs, p.PrivateBytes, p.LocalBytes)
	for i, par := range p.Params {
		fmt.Fprintf(&b, "  param %d %q: %s, slot %d\n", i, par.Name, par.Kind, par.Slot)
	}
	for i := range p.Blocks {
		blk := &p.Blocks[i]
		fmt.Fprintf(&b, "b%d (label %%%d, ipdom b%d, loop depth %d):\n", i, blk.Label, blk.IPDom, blk.LoopDepth)
		for k := blk.Start; k < blk.End; k++ {
			in := &p.Code[k]
			fmt.Fprintf(&b, "  %4d %-16s n=%d dst=%d src=%v imm=%d aux=%d\n", k, in.Op, in.N, in.Dst, in.Src, in.Imm, in.Aux)
		}
		fmt.Fprintf(&b, "  %s cond=%d", blk.Term.Kind, blk.Term.Cond)
		for _, e := range blk.Succs {
			fmt.Fprintf(&b, " -> b%d%v", e.To, e.Moves)
		}
		b.WriteString("\n")
	}
	return b.String()
}
