package timing

import (
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Profiling: what the engine spent, charged to the IR instructions of each
// kernel (docs/timing.md, "Attribution"). It is off unless EnableProfile is
// called: the engine then keeps a profiler, and its issue loop, stall
// accounting and memory requests each make one call to it; without one the
// cost is a nil check at each of those places.
//
// What is charged where:
//
//   - Issue cycles: a group's issue cycles are split evenly over the
//     instructions it completes (isa.Group.Insts) and, in the group holding
//     it, the block's terminator. A group that completes nothing (the first
//     clauses of a long expansion, phi copies) is charged to the first
//     instruction of the next group of its block that completes one, or to
//     the terminator.
//   - Stall cycles (the engine's stall_<cause>_cycles, no_warp aside) are
//     charged, by cause, to the instruction that caused them. The stalled
//     warp waits to issue its next group; when that group waits for a value
//     (memory, texture, bank_conflict, dependency), the instruction that
//     produces the latest of the values it reads is charged — the load, the
//     sample, the local access, the ALU operation; a value with no single
//     producer (a phi) charges the waiting instruction. A pipe, barrier or
//     instruction-fetch stall is charged to the waiting instruction, the
//     first its next group charges. Waits, the same cycles charged to the
//     waiting instruction whatever the cause (Nsight's "stall reasons at
//     the instruction" view), are kept beside them.
//   - Memory: each request the engine sends for a memory instruction
//     counts for it, with the cache lookups, misses and DRAM bytes the
//     hierarchy did while serving it (mem.Tally) and its bank-conflict
//     cycles.
//
// So the per-instruction stall and issue cycles add up to the engine's
// counters, and the memory figures to the hierarchy's (except the
// end-of-kernel write-back, which no instruction issues).

// NumCauses is the number of stall causes (Cause values from StallNone).
const NumCauses = int(numCauses)

// Profile is one kernel's cost per instruction. Entries are indexed by IR
// instruction (Program.IR.Code), then one per block for its terminator:
// entry len(Code)+b is block b's.
type Profile struct {
	Kernel  string
	Program *isa.Program
	Entries []ProfileEntry
}

// ProfileEntry is what one instruction cost.
type ProfileEntry struct {
	Execs   uint64  // warp executions (issues of the group that completes it)
	Threads uint64  // active lanes summed over those executions
	Issue   float64 // its share of its groups' issue cycles
	// Stall are the stall cycles it caused, by cause (index Cause).
	Stall [NumCauses]float64
	// Wait are the stall cycles of warps waiting to issue it.
	Wait     float64
	Requests uint64    // memory requests (warp instructions) sent for it
	Mem      mem.Tally // lookups, misses and DRAM bytes while serving them
	// Conflicts are the cycles its local-memory requests lost to bank
	// conflicts.
	Conflicts float64
}

// Site is where entry i comes from: the SPIR-V instruction and, when the
// module has line information, its source line.
func (p *Profile) Site(i int) ir.Site {
	prog := p.Program.IR
	if i < len(prog.Code) {
		return prog.Sites[prog.Code[i].Site]
	}
	return prog.Sites[prog.Blocks[i-len(prog.Code)].Term.Site]
}

// Terminator reports whether entry i is a block's terminator, and which
// block's.
func (p *Profile) Terminator(i int) (block int, ok bool) {
	n := len(p.Program.IR.Code)
	return i - n, i >= n
}

// EnableProfile makes the engine charge its cycles and memory work to each
// kernel's instructions (Profiles, after Run).
func (e *Engine) EnableProfile() {
	if e.prof == nil {
		e.prof = &profiler{byKernel: map[*Kernel]*kernelProfile{}}
		e.mu.prof = e.prof
	}
}

// Profiles returns a profile per kernel, in the order they were added (nil
// without EnableProfile).
func (e *Engine) Profiles() []*Profile {
	if e.prof == nil {
		return nil
	}
	var out []*Profile
	for _, k := range e.disp.kernels {
		out = append(out, e.prof.of(k).p)
	}
	return out
}

type profiler struct {
	byKernel map[*Kernel]*kernelProfile
	last     *Kernel
	lastP    *kernelProfile
}

// kernelProfile is a kernel's profile and the static maps that charge it.
type kernelProfile struct {
	p *Profile
	// charge lists, per block and group, the entries its issue cycles go
	// to; exec whether those entries complete there (they count an
	// execution).
	charge [][][]int32
	exec   [][]bool
	// producer is the entry that writes each IR slot, -1 when none or
	// several do.
	producer []int32
}

func (pr *profiler) of(k *Kernel) *kernelProfile {
	if k == pr.last {
		return pr.lastP
	}
	kp := pr.byKernel[k]
	if kp == nil {
		kp = newKernelProfile(k)
		pr.byKernel[k] = kp
	}
	pr.last, pr.lastP = k, kp
	return kp
}

func newKernelProfile(k *Kernel) *kernelProfile {
	lp := k.prog
	prog := lp.IR
	nCode := int32(len(prog.Code))
	kp := &kernelProfile{p: &Profile{Kernel: k.Name, Program: lp, Entries: make([]ProfileEntry, len(prog.Code)+len(prog.Blocks))}}
	kp.charge = make([][][]int32, len(lp.Blocks))
	kp.exec = make([][]bool, len(lp.Blocks))
	for b := range lp.Blocks {
		groups := lp.Blocks[b].Groups
		kp.charge[b] = make([][]int32, len(groups))
		kp.exec[b] = make([]bool, len(groups))
		term := nCode + int32(b)
		for gi := len(groups) - 1; gi >= 0; gi-- {
			g := &groups[gi]
			var c []int32
			c = append(c, g.Insts...)
			if g.Branch {
				c = append(c, term)
			}
			if len(c) > 0 {
				kp.exec[b][gi] = true
			} else if gi+1 < len(groups) {
				c = []int32{kp.charge[b][gi+1][0]}
			} else {
				c = []int32{term}
			}
			kp.charge[b][gi] = c
		}
	}
	// Who writes each slot: instructions with a destination (an atomic's
	// or image operation's in its side table).
	kp.producer = make([]int32, prog.Regs)
	for i := range kp.producer {
		kp.producer[i] = -1
	}
	writers := make([]uint8, prog.Regs)
	for pc := range prog.Code {
		in := &prog.Code[pc]
		dst, n := in.Dst, int(in.N)
		switch in.Op {
		case ir.OpAtomic:
			dst, n = prog.Atomics[in.Aux].Dst, 1
		case ir.OpImage:
			n = max(prog.Images[in.Aux].N, 1)
		case ir.OpExt:
			c := &prog.Ext[in.Aux]
			dst, n = c.Dst, max(c.N, 1)
		}
		for s := int(dst); dst >= 0 && s < int(dst)+n && s < len(writers); s++ {
			if writers[s] < 2 {
				writers[s]++
			}
			kp.producer[s] = int32(pc)
		}
	}
	// Phi destinations are written by copies on the edges.
	for b := range prog.Blocks {
		for _, e := range prog.Blocks[b].Succs {
			for _, m := range e.Moves {
				for s := int(m.Dst); s >= 0 && s < int(m.Dst)+int(max(m.N, 1)) && s < len(writers); s++ {
					writers[s] = 2
				}
			}
		}
	}
	for s, w := range writers {
		if w != 1 {
			kp.producer[s] = -1
		}
	}
	return kp
}

// issued charges a group w issues now (its block's group w.next).
func (pr *profiler) issued(w *warpState, gp *groupPlan) {
	kp := pr.of(w.k)
	b, gi := w.trace.Block, w.next
	c := kp.charge[b][gi]
	share := gp.issue / float64(len(c))
	lanes := uint64(w.trace.Active.Count())
	exec := kp.exec[b][gi]
	for _, i := range c {
		e := &kp.p.Entries[i]
		e.Issue += share
		if exec {
			e.Execs++
			e.Threads += lanes
		}
	}
}

// stalled charges cycles an engine stood idle while w, the warp it chose,
// waited to issue its next group, for cause why.
func (pr *profiler) stalled(w *warpState, why Cause, cycles float64) {
	if !w.hasNext || w.next >= len(w.plans) || cycles <= 0 {
		return
	}
	kp := pr.of(w.k)
	gp := &w.plans[w.next]
	waiting := kp.charge[w.trace.Block][w.next][0]
	kp.p.Entries[waiting].Wait += cycles
	blame := waiting
	switch why {
	case StallMemory, StallTexture, StallBankConflict, StallDependency:
		// The read whose value comes last, as prepare found it.
		at, slot := w.readyAt, int32(-1)
		for _, r := range gp.reads {
			if x := w.slots[r].at; x > at {
				at, slot = x, r
			}
		}
		if slot >= 0 && int(slot) < len(kp.producer) && kp.producer[slot] >= 0 {
			blame = kp.producer[slot]
		}
	}
	kp.p.Entries[blame].Stall[why] += cycles
}

// access serves a memory request for instruction pc of kernel k, charging
// what the hierarchy did to it.
// spillAccess is access for a spill message of the group w is issuing,
// charged where the group's issue is.
func (pr *profiler) spillAccess(h *mem.Hierarchy, w *warpState, t float64, r *mem.Request) mem.Result {
	c := pr.of(w.k).charge[w.trace.Block][w.next]
	return pr.access(h, w.k, c[0], t, r)
}

func (pr *profiler) access(h *mem.Hierarchy, k *Kernel, pc int32, t float64, r *mem.Request) mem.Result {
	before := h.Tally()
	res := h.Access(t, r)
	e := &pr.of(k).p.Entries[pc]
	e.Requests++
	d := h.Tally().Sub(before)
	e.Mem.L1Accesses += d.L1Accesses
	e.Mem.L1Misses += d.L1Misses
	e.Mem.TextureAccesses += d.TextureAccesses
	e.Mem.TextureMisses += d.TextureMisses
	e.Mem.L2Accesses += d.L2Accesses
	e.Mem.L2Misses += d.L2Misses
	e.Mem.DRAMBytes += d.DRAMBytes
	e.Conflicts += float64(res.Conflicts)
	return res
}
