package isa

import "github.com/pocketgpu/pocketgpu/arch"

// Adreno and Rogue lowering: one group per IR instruction, in program order
// (the hardware switches waves or tasks between instructions, so the engine
// covers latency with other warps). The group holds the instruction's
// machine instructions: one per repeat-sized chunk of a vector operation, and
// one per step of an expansion.
//
//   - Adreno (seeds 000, 001, 004): an ALU instruction covers up to
//     adreno.repeat_max components of a vector operation (ir3's (rptN)); it
//     issues in one cycle and keeps its pipe busy for IssueCycles — a wave128
//     FP32 instruction two cycles on a 64-wide partition, FP16 one, the SFU
//     1/8 rate on its own pipe, integer adds 1/2, 64-bit integers 1/4, the
//     615's fused FMA hundreds of cycles. The 615/530's emulated INT8 is its
//     expands_to sequence (an INT32 operation and an AND).
//   - Rogue (seed 003 §Unified Shading Cluster): a task of 32 threads on 16
//     pipes issues half a task a cycle, so every instruction holds the issue
//     port ceil(task / lanes) = 2 cycles; memory messages one issue per
//     burst of at most rogue.burst_bytes (seed 003 §System Memory Access).
//     Two independent operations of a class whose pack allows it (FP32 2,
//     FP16 4: co-issue on one pipe) share one instruction and its group.
//
// Such a group issues its machine instructions back to back (Issue adds
// up), its pipe cycles add up, and its latency is its longest chain's (a
// special function after its range reduction, an emulated class's steps).
func (l *lowerer) serialBlock(bc *blockCode) []Group {
	ops := bc.ops
	prod := producers(ops)
	npipes := len(l.g.Pipes)
	load := make([]float64, npipes)
	pipeOf := make([]int, len(ops))
	groupOf := make([]int, len(ops))
	issueEach := 1.0
	if l.g.Family == arch.Rogue {
		issueEach = float64(max(1, (l.w+l.g.LanesPerEngine-1)/l.g.LanesPerEngine))
	}
	insBytes := l.instructionBytes()
	// sameGroup: an IR instruction's operations form one group; a phi copy
	// or the switch comparisons form one per chain; the branch its own.
	sameGroup := func(i int) bool {
		a, b := &ops[i-1], &ops[i]
		if b.kind == kBranch || b.kind == kBarrier || a.kind == kBranch || a.kind == kBarrier {
			return false
		}
		if b.inst >= 0 {
			return a.inst == b.inst
		}
		return b.prev == int32(i-1)
	}
	// coIssue: Rogue pipes co-issue independent operations of a class whose
	// pack exceeds one instruction's components (two FP32 operations a
	// pipe): the second rides in the first's instruction.
	single := func(i int) bool {
		o := &ops[i]
		return o.kind == kALU && o.prev < 0 && (i+1 >= len(ops) || ops[i+1].prev != int32(i))
	}
	coIssue := func(a, b int) bool {
		if l.g.Family != arch.Rogue || !single(a) || !single(b) || ops[a].class != ops[b].class || ops[a].cost != ops[b].cost {
			return false
		}
		if ops[a].comps+ops[b].comps > l.pack(ClassNames[ops[a].class]) {
			return false
		}
		for _, d := range bc.preds[b] {
			if int(d.on) == a {
				return false
			}
		}
		return true
	}
	rides := make([]bool, len(ops))
	var groups []Group
	for start := 0; start < len(ops); {
		end := start + 1
		for end < len(ops) && sameGroup(end) {
			end++
		}
		if end == start+1 && end < len(ops) && coIssue(start, end) {
			rides[end] = true
			end++
		}
		members := make([]int32, 0, end-start)
		issue, lat, chainStart, chainLat := 0.0, 0.0, 0.0, 0.0
		for i := start; i < end; i++ {
			members = append(members, int32(i))
			groupOf[i] = len(groups)
			o := &ops[i]
			pipeOf[i] = -1
			if rides[i] {
				if p := pipeOf[start]; p >= 0 {
					l.pipeOps[p]++
				}
				continue
			}
			if o.prev != int32(i-1) || i == start {
				chainStart, chainLat = issue, 0
			}
			switch o.kind {
			case kALU:
				best := -1
				for _, p := range o.pipes {
					if best < 0 || load[p] < load[best] {
						best = p
					}
				}
				pipeOf[i] = best
				if best >= 0 {
					load[best] += o.cost
				}
				ol := float64(l.g.Execution.ALULatencyCycles)
				if o.sfu {
					ol = float64(l.g.Execution.SFULatencyCycles)
				}
				chainLat += o.cost - 1 + ol
				issue += issueEach
			case kMsg:
				bursts := 1
				if l.g.Rogue != nil && o.bytes > l.g.Rogue.BurstBytes {
					bursts = (o.bytes + l.g.Rogue.BurstBytes - 1) / l.g.Rogue.BurstBytes
				}
				issue += issueEach * float64(bursts)
				chainLat += issueEach * float64(bursts)
			default:
				issue += issueEach
				chainLat += issueEach
			}
			lat = max(lat, chainStart+chainLat)
		}
		var gr Group
		lo, hi := int32(start), int32(end)
		l.fill(&gr, ops, prod, members, func(q int32) bool { return q >= lo && q < hi }, func(q int32) int { return pipeOf[q] }, nil)
		gr.Issue = float32(max(issue, 1))
		gr.Latency = float32(max(lat, issue))
		n := end - start
		if rides[end-1] {
			n--
		}
		gr.CodeBytes = int32(insBytes * n)
		groups = append(groups, gr)
		start = end
	}
	assignInsts(groups, ops, func(q int32) int { return groupOf[q] })
	return groups
}

// instructionBytes is the size of one Adreno or Rogue instruction.
func (l *lowerer) instructionBytes() int {
	switch {
	case l.g.Adreno != nil:
		return max(l.g.Adreno.InstructionBits/8, 1)
	case l.g.Rogue != nil:
		return max(l.g.Rogue.InstructionBits/8, 1)
	}
	return 8
}
