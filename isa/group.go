package isa

import (
	"sort"
)

// Producers gives, for each operation's reads, the operation in the block
// that last wrote the slot before it (-1: written before the block, or a
// uniform).
func Producers(ops []MachineOp) [][]int32 {
	out := make([][]int32, len(ops))
	lastW := map[int32]int32{}
	for i := range ops {
		o := &ops[i]
		p := make([]int32, len(o.Reads))
		for k, r := range o.Reads {
			p[k] = -1
			if w, ok := lastW[r.Slot]; ok {
				p[k] = w
			}
		}
		out[i] = p
		for _, s := range o.Writes {
			lastW[s] = int32(i)
		}
	}
	return out
}

// fill sets a group's reads, writes, messages, instructions and counts from
// its member operations (indices into ops); inGroup tells whether an
// operation belongs to the same group. pipeOf gives the pipe each member
// runs on (-1 none).
func (l *lowerer) fill(gr *Group, ops []MachineOp, prod [][]int32, members []int32, inGroup func(int32) bool, pipeOf func(int32) int, extraReads []int32) {
	npipes := len(l.g.Pipes)
	gr.Pipe = make([]float32, npipes)
	seenR := map[int32]bool{}
	seenW := map[int32]bool{}
	counts := map[int16]int32{}
	comps := map[int16]int32{}
	for _, m := range members {
		o := &ops[m]
		gr.Ops++
		counts[o.Class]++
		comps[o.Class] += int32(max(o.Comps, 1))
		gr.SFU = gr.SFU || o.SFU
		if o.Kind == OpBranch || o.Kind == OpBarrier {
			gr.Branch = true
		}
		if p := pipeOf(m); p >= 0 && p < npipes && o.Kind == OpALU {
			gr.Pipe[p] += float32(o.Cost)
			l.pipeOps[p]++
			if l.inPasses(o.Class) {
				if gr.Passes == nil {
					gr.Passes = make([]float32, npipes)
				}
				gr.Passes[p] += float32(o.Cost)
			}
		}
		for k, r := range o.Reads {
			if r.From != FromReg || seenR[r.Slot] {
				continue
			}
			if pr := prod[m][k]; pr >= 0 && inGroup(pr) {
				continue
			}
			seenR[r.Slot] = true
			gr.Reads = append(gr.Reads, r.Slot)
		}
		if o.Kind == OpALU {
			for _, s := range o.Writes {
				if !seenW[s] {
					seenW[s] = true
					gr.Writes = append(gr.Writes, s)
				}
			}
		}
		if o.Kind == OpMessage && o.Inst >= 0 {
			gr.Mem = append(gr.Mem, o.Inst)
		}
		if o.Spill != nil {
			gr.Spill = append(gr.Spill, *o.Spill)
		}
	}
	for _, s := range extraReads {
		if !seenR[s] {
			seenR[s] = true
			gr.Reads = append(gr.Reads, s)
		}
	}
	sortI32(gr.Reads)
	sortI32(gr.Writes)
	sortI32(gr.Mem)
	for c, n := range counts {
		gr.Class = append(gr.Class, ClassCount{Class: c, N: n, Comps: comps[c]})
	}
	sort.Slice(gr.Class, func(a, b int) bool { return gr.Class[a].Class < gr.Class[b].Class })
}

func sortI32(s []int32) { sort.Slice(s, func(a, b int) bool { return s[a] < s[b] }) }

// AssignInsts lists each IR instruction in the group that holds its last
// scheduled machine operation (where it completes), so that every
// instruction is in exactly one group; groupOf gives each operation's group.
func AssignInsts(groups []Group, ops []MachineOp, groupOf func(int32) int) {
	where := map[int32]int{}
	for i := range ops {
		if in := ops[i].Inst; in >= 0 {
			g := groupOf(int32(i))
			if w, ok := where[in]; !ok || g > w {
				where[in] = g
			}
		}
	}
	for in, g := range where {
		if g >= 0 && g < len(groups) {
			groups[g].Insts = append(groups[g].Insts, in)
		}
	}
	for k := range groups {
		sortI32(groups[k].Insts)
	}
}

// attachFree puts the instructions that became no machine operation (OpNop)
// in the group holding the next lowered instruction of the block, or its
// last group, so that every instruction is in exactly one group.
func (l *lowerer) attachFree(b int32, groups []Group) {
	if len(groups) == 0 {
		return
	}
	blk := &l.p.Blocks[b]
	where := map[int32]int{}
	for gi := range groups {
		for _, i := range groups[gi].Insts {
			where[i] = gi
		}
	}
	var pending []int32
	for i := blk.Start; i < blk.End; i++ {
		if gi, ok := where[i]; ok {
			for _, f := range pending {
				groups[gi].Insts = append(groups[gi].Insts, f)
			}
			if len(pending) > 0 {
				sortI32(groups[gi].Insts)
			}
			pending = pending[:0]
			continue
		}
		pending = append(pending, i)
	}
	if len(pending) > 0 {
		last := &groups[len(groups)-1]
		last.Insts = append(last.Insts, pending...)
		sortI32(last.Insts)
	}
}
