package isa

import (
	"github.com/pocketgpu/pocketgpu/arch"
)

// Family is one GPU family's code generator. Turning IR into machine
// operations, their costs from the GPU's ops table, registers, code layout
// and the static analysis are shared; a family decides how a block's
// machine operations become the groups a warp issues (Bifrost clauses,
// Midgard bundles, Adreno and Rogue instructions) and what it adds to the
// static report. Each family is a package under isa/ (isa/bifrost ...),
// registered by arch.Family in isa/families.
type Family interface {
	// Rules is what the hardware description knows of the family: its
	// name, its parameter section, its vocabulary and occupancy rules.
	Rules() arch.FamilyRules
	// Schedule packs one block's machine operations (b.Ops, in program
	// order, with their dependences b.Preds) into groups. Every operation
	// goes in exactly one group; b.Fill sets a group's reads, writes,
	// messages and class counts from its members, and AssignInsts says
	// which group completes each IR instruction.
	Schedule(b *BlockCode) []Group
	// Report is the family's part of the static report (pocketgpu
	// analyze) of a kernel lowered for it.
	Report(lp *Program, occ arch.Occupancy) FamilyReport
}

// Packer is a family whose machine operations cover a number of vector
// components other than the ops table's pack (Adreno's (rptN) repeats one
// instruction over several registers of any class).
type Packer interface {
	// Pack is how many components one machine operation of class covers.
	Pack(g *arch.GPU, class string) int
}

// FamilyReport is a family's rows of the static report.
type FamilyReport struct {
	// Key names Details in the JSON report ("bifrost").
	Key string
	// Rows are what the text report prints, one label and value each.
	Rows []ReportRow
	// Details is the same in the JSON report, under Key.
	Details any
}

// ReportRow is one row of the text report.
type ReportRow struct {
	Label, Value string
}

// BlockCode is one block's machine operations in program order (its
// instructions, its phi copies, its terminator last) with their
// dependences: what a family's Schedule packs into groups.
type BlockCode struct {
	GPU   *arch.GPU
	Width int // the warp width lowered for
	Ops   []MachineOp
	Preds [][]Dep // per operation, the earlier operations it depends on

	l *lowerer
}

// Dep is a dependence of a machine operation on an earlier one in the block.
type Dep struct {
	On  int32
	Msg bool // on a message's result: only a later Bifrost clause (or Midgard bundle) may read it
}

// Fill sets a group's pipe cycles, reads, writes, messages, operation
// count and class counts from its member operations (indices into b.Ops,
// ascending). inGroup tells whether an operation belongs to the same group;
// pipeOf gives the pipe each member runs on (-1 none); extraReads are slots
// the group must also wait for (a Bifrost scoreboard slot). prod is
// Producers(b.Ops).
func (b *BlockCode) Fill(gr *Group, prod [][]int32, members []int32, inGroup func(int32) bool, pipeOf func(int32) int, extraReads []int32) {
	b.l.fill(gr, b.Ops, prod, members, inGroup, pipeOf, extraReads)
}

// CountOnPipe counts one more static machine operation on pipe p for the
// report, for an operation Fill does not see on a pipe (one co-issued in
// another's instruction).
func (b *BlockCode) CountOnPipe(p int) { b.l.pipeOps[p]++ }

// Pack is how many components one machine operation of class covers.
func (b *BlockCode) Pack(class string) int { return b.l.pack(class) }

// IssueCycles is how many cycles an engine's issue port takes to issue one
// instruction for a warp of b.Width on lanes_per_engine lanes (a 32-thread
// Rogue task on 16 pipes: 2).
func (b *BlockCode) IssueCycles() float64 {
	return float64(max(1, (b.Width+b.GPU.LanesPerEngine-1)/b.GPU.LanesPerEngine))
}

// MessageWeight is the latency the schedulers expect of a load: an L1
// hit, or an L2 hit where global loads skip the L1.
func (b *BlockCode) MessageWeight() int {
	if b.GPU.L1 != nil {
		return max(b.GPU.L1.LatencyCycles, 1)
	}
	return max(b.GPU.L2.LatencyCycles, 1)
}

// Priorities is each operation's longest path to the end of the block,
// weighting ALU operations by their cycles and messages with results by
// msgWeight, so that a list scheduler starts loads and long chains first.
func Priorities(ops []MachineOp, succs [][]int32, msgWeight int) []int {
	prio := make([]int, len(ops))
	for i := len(ops) - 1; i >= 0; i-- {
		w := 1
		switch ops[i].Kind {
		case OpALU:
			w = CeilCycles(ops[i].Cost)
		case OpMessage:
			if len(ops[i].Writes) > 0 {
				w = msgWeight
			}
		}
		best := 0
		for _, s := range succs[i] {
			best = max(best, prio[s])
		}
		prio[i] = w + best
	}
	return prio
}

// IsTexture reports whether a message is a texture operation.
func (o *MachineOp) IsTexture() bool {
	return o.Kind == OpMessage && ClassNames[o.Class] == PseudoTexture
}
