// Package isa lowers a kernel's IR into the machine work of one GPU family:
// Bifrost clauses of FMA+FADD tuples packed under the real rules, Midgard
// VLIW bundles, Adreno and Rogue instructions. Each issue group carries what
// the timing engine needs — issue and pipe cycles from the GPU's ops table
// (arch.GPU.IssueCycles), result latency, the IR slots it reads and writes,
// its memory instructions and where its code sits — and the static analysis
// (Analyze) sums the same groups over the control-flow graph.
//
// The package never computes values: the executor (emu) runs the IR, and the
// timing engine issues a warp's groups for the block the executor ran.
package isa

import (
	"fmt"
	"math"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Program is a kernel lowered for one GPU at one warp width.
type Program struct {
	GPU       *arch.GPU
	IR        *ir.Program
	WarpWidth int
	// Regs is the 32-bit registers per thread after the allocation model
	// (ir.Program.Registers plus the private frame kept in registers),
	// capped at the GPU's max_registers_per_thread. What does not fit is
	// spilled (spill.go): SpillBytes per thread of scratch memory, which
	// the groups' Spill messages store and reload, plus 4 bytes for each
	// register of excess the spill choice could not remove (not modelled
	// as messages).
	Regs       int
	SpillBytes int
	Pipes      []string // the engine's pipes (arch pipes, in order)
	Blocks     []Block  // parallel to IR.Blocks
	CodeBytes  int

	opsPerPipe []int // static machine operations per pipe (Analyze)
}

// Block is the lowered code of one IR block.
type Block struct{ Groups []Group }

// Group is what one warp issues as a unit: a Bifrost clause, an Adreno or
// Rogue instruction, a Midgard bundle. The engine issues groups of a warp in
// order, switching warps between groups.
type Group struct {
	Issue float32   // cycles the engine's issue port is busy (>= 1)
	Pipe  []float32 // busy cycles per pipe (index into Program.Pipes), at this warp width
	// Passes is, per pipe, the part of Pipe spent by operations that run
	// in passes of lanes_per_engine lanes on a GPU that skips the passes
	// whose lanes are all inactive (execution.skips_idle_passes); nil
	// where no pass can be skipped.
	Passes  []float32
	Latency float32 // cycles after issue until this group's ALU results can be read
	// Reads are the IR slots this group reads that an earlier group may
	// still be producing (uniforms and constants are never listed); on
	// Bifrost it also holds the results of the oldest outstanding message
	// when the clause needs its scoreboard slot.
	Reads  []int32
	Writes []int32 // IR slots its ALU ops write (memory results are written by the engine)
	// Mem lists the IR instruction indices (Program.Code) of its memory,
	// atomic and image messages, in program order. Private-memory accesses
	// are register moves, not messages; image queries read the descriptor
	// and are moves too.
	Mem []int32
	// Spill lists its spill stores and reloads (SpillMsg), in program
	// order: messages to the thread's scratch memory that no IR
	// instruction stands for.
	Spill                 []SpillMsg
	CodeOffset, CodeBytes int32 // where its machine code sits (instruction-cache model)
	Ops                   int32 // machine operations in the group (messages and the branch included)
	Class                 []ClassCount
	SFU                   bool  // contains a special-function operation (*_sfu, fp32_div)
	Branch                bool  // holds the block's terminator (branch, return or barrier)
	Tuples                int32 // Bifrost: tuples in the clause; 0 elsewhere
	// Insts are the IR instructions (Program.Code indices) that complete in
	// this group — hold their last machine operation — in ascending order,
	// so every instruction of the block is listed in exactly one group (an
	// instruction that lowers to nothing, OpNop, goes with the next one). On
	// Adreno and Rogue a group is one instruction; on Bifrost and Midgard a
	// long expansion (a vector of 64-bit operations, an emulated sequence)
	// may start in earlier clauses or bundles. Phi copies and the terminator
	// are not instructions (Branch marks the terminator).
	Insts []int32
}

// ClassCount is how many machine operations of one class a group holds.
type ClassCount struct {
	Class int16 // index into ClassNames
	N     int32
	// Comps are the components per thread those operations cover (a
	// packed FP16x2 operation covers 2, a scalar one 1): the work the
	// roofline counts.
	Comps int32
}

// Pseudo-classes for the machine operations that have no ALU class.
const (
	PseudoLoad    = "load"    // global/local load, copy, async copy
	PseudoStore   = "store"   // global/local store, image write, printf
	PseudoAtomic  = "atomic"  // atomic read-modify-write
	PseudoTexture = "texture" // image read, sample, fetch
	PseudoBranch  = "branch"  // a block terminator: branch, switch, return
	PseudoBarrier = "barrier" // a work-group barrier terminator
)

// ClassNames lists the machine-operation classes ClassCount indexes: the
// arch op classes in schema order, then the pseudo-classes.
var ClassNames = append(append([]string(nil), arch.OpClasses...),
	PseudoLoad, PseudoStore, PseudoAtomic, PseudoTexture, PseudoBranch, PseudoBarrier)

var classIndex = func() map[string]int16 {
	m := map[string]int16{}
	for i, c := range ClassNames {
		m[c] = int16(i)
	}
	return m
}()

// ClassIndex is the index of a class in ClassNames, -1 if unknown.
func ClassIndex(name string) int {
	if i, ok := classIndex[name]; ok {
		return int(i)
	}
	return -1
}

// UnsupportedError is a kernel that uses an operation class the GPU cannot
// execute (FP64 on Bifrost and Adreno): the vendor's compiler would refuse it.
type UnsupportedError struct {
	GPU   string
	Class string
	Site  ir.Site
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s cannot execute %s operations (ops.%s is unsupported), used by %s; rewrite the kernel without them or pick another GPU",
		e.GPU, e.Class, e.Class, e.Site)
}

// Lower lowers p for g, a GPU of family f, at a warp width (0: the width
// arch.Occupancy picks for the kernel's registers). It fails for a width the
// GPU cannot run, a kernel using an unsupported operation class, or an IR it
// does not know. isa/families.Lower picks f from g's family.
func Lower(p *ir.Program, g *arch.GPU, warpWidth int, f Family) (*Program, error) {
	if p == nil || g == nil || f == nil {
		return nil, fmt.Errorf("isa: nil program, GPU or family")
	}
	if r := f.Rules(); r.Name != g.Family {
		return nil, fmt.Errorf("isa: %s is a %s GPU, not %s", g.ID, g.Family, r.Name)
	}
	if warpWidth < 0 || warpWidth > 1024 {
		return nil, fmt.Errorf("isa: warp width %d is out of range (1 to 1024, or 0 for the GPU's choice)", warpWidth)
	}
	if sec := f.Rules().Section; sec != "" && !g.HasSection(sec) {
		return nil, fmt.Errorf("isa: %s has family %s but no %s: section (validate the GPU first)", g.ID, g.Family, sec)
	}
	prog := &Program{GPU: g, IR: p}
	for _, pp := range g.Pipes {
		prog.Pipes = append(prog.Pipes, pp.Name)
	}
	plan := planSpills(p, g)
	prog.Regs, prog.SpillBytes = plan.regs, plan.bytes
	if warpWidth == 0 {
		occ, err := g.Occupancy(arch.OccupancyQuery{Regs: prog.Regs})
		if err != nil {
			return nil, fmt.Errorf("isa: choosing the warp width: %w", err)
		}
		warpWidth = occ.WarpWidth
	}
	prog.WarpWidth = warpWidth
	l, err := newLowerer(p, g, warpWidth, f)
	if err != nil {
		return nil, err
	}
	if plan.active {
		l.spill, l.lv = plan, p.LivenessOn(g.HalfRegisters)
	}
	insts, err := l.prepare()
	if err != nil {
		return nil, err
	}
	prog.Blocks = make([]Block, len(p.Blocks))
	var offset int32
	for b := range p.Blocks {
		bc, err := l.blockOps(int32(b), insts[b])
		if err != nil {
			return nil, err
		}
		groups := f.Schedule(bc)
		l.attachFree(int32(b), groups)
		for i := range groups {
			groups[i].CodeOffset = offset
			offset += groups[i].CodeBytes
		}
		prog.Blocks[b].Groups = groups
	}
	prog.CodeBytes = int(offset)
	prog.opsPerPipe = l.pipeOps
	return prog, nil
}

// registers is the allocation model: the IR's liveness estimate plus the
// private frame (function variables the compiler keeps in registers), capped
// at the GPU's maximum with the rest spilled (planSpills).
func registers(p *ir.Program, g *arch.GPU) (regs, spill int) {
	plan := planSpills(p, g)
	return plan.regs, plan.bytes
}

func usesPrivate(p *ir.Program) bool {
	for i := range p.Code {
		if sp, _, _, ok := p.Code[i].Op.MemInfo(); ok && sp == ir.SpacePrivate {
			return true
		}
	}
	return false
}

// CeilCycles rounds a positive cost up to whole cycles (at least 1).
func CeilCycles(x float64) int {
	c := int(math.Ceil(x - 1e-9))
	return max(c, 1)
}

// String lists the lowered program block by block, one group a line: issue,
// latency, pipe cycles, operations by class, reads, writes and messages.
func (lp *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: warp %d, %d registers, %d B spilled, %d B of code\n", lp.GPU.ID, lp.IR.Entry, lp.WarpWidth, lp.Regs, lp.SpillBytes, lp.CodeBytes)
	for bi, blk := range lp.Blocks {
		fmt.Fprintf(&b, "block %d (%s):\n", bi, lp.IR.Blocks[bi].Term.Kind)
		for _, g := range blk.Groups {
			fmt.Fprintf(&b, "  @%d+%d issue %g lat %g", g.CodeOffset, g.CodeBytes, g.Issue, g.Latency)
			if g.Tuples > 0 {
				fmt.Fprintf(&b, " tuples %d", g.Tuples)
			}
			for p, c := range g.Pipe {
				if c > 0 {
					fmt.Fprintf(&b, " %s=%g", lp.Pipes[p], c)
				}
			}
			b.WriteString(" [")
			for k, c := range g.Class {
				if k > 0 {
					b.WriteString(" ")
				}
				fmt.Fprintf(&b, "%s×%d", ClassNames[c.Class], c.N)
			}
			b.WriteString("]")
			if len(g.Reads) > 0 {
				fmt.Fprintf(&b, " r%v", g.Reads)
			}
			if len(g.Writes) > 0 {
				fmt.Fprintf(&b, " w%v", g.Writes)
			}
			if len(g.Mem) > 0 {
				fmt.Fprintf(&b, " mem%v", g.Mem)
			}
			for _, m := range g.Spill {
				if m.Store {
					fmt.Fprintf(&b, " spill@%d+%d", m.Run+m.Sub, m.Bytes)
				} else {
					fmt.Fprintf(&b, " reload@%d+%d%v", m.Run+m.Sub, m.Bytes, m.Slots)
				}
			}
			if g.SFU {
				b.WriteString(" sfu")
			}
			if g.Branch {
				b.WriteString(" branch")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
