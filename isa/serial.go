package isa

// SerialRules are the choices of an in-order scheduler that issues one
// group per IR instruction.
type SerialRules struct {
	// IssueCycles is what one machine instruction holds the issue port
	// (BlockCode.IssueCycles for a warp wider than the engine).
	IssueCycles float64
	// CoIssue lets two independent single operations of one class whose
	// pack allows it share one instruction (Rogue's pipes co-issue two
	// FP32 operations).
	CoIssue bool
	// BurstBytes splits a message into bursts of at most this many bytes
	// per thread, each an issue (0: one issue a message).
	BurstBytes int
	// InstructionBytes is the size of one machine instruction.
	InstructionBytes int
}

// SerialBlock is the scheduler of families that switch warps between
// instructions (Adreno waves, Rogue tasks): one group per IR instruction,
// in program order, holding the instruction's machine instructions — one
// per pack-sized chunk of a vector operation, one per step of an
// expansion — so the engine covers latency with other warps.
//
// Such a group issues its machine instructions back to back (Issue adds
// up), its pipe cycles add up, and its latency is its longest chain's (a
// special function after its range reduction, an emulated class's steps).
func SerialBlock(bc *BlockCode, r SerialRules) []Group {
	if bc.GPU.Execution.FetchesEarly {
		hoistFetches(bc)
	}
	l := bc.l
	ops := bc.Ops
	prod := Producers(ops)
	npipes := len(l.g.Pipes)
	load := make([]float64, npipes)
	pipeOf := make([]int, len(ops))
	groupOf := make([]int, len(ops))
	issueEach := max(r.IssueCycles, 1)
	insBytes := max(r.InstructionBytes, 1)
	// sameGroup: an IR instruction's operations form one group; a phi copy
	// or the switch comparisons form one per chain; the branch its own.
	sameGroup := func(i int) bool {
		a, b := &ops[i-1], &ops[i]
		if b.Kind == OpBranch || b.Kind == OpBarrier || a.Kind == OpBranch || a.Kind == OpBarrier {
			return false
		}
		if b.Inst >= 0 {
			return a.Inst == b.Inst
		}
		return b.Prev == int32(i-1)
	}
	// coIssue: pipes that co-issue independent operations of a class whose
	// pack exceeds one instruction's components (two FP32 operations a
	// Rogue pipe): the second rides in the first's instruction.
	single := func(i int) bool {
		o := &ops[i]
		return o.Kind == OpALU && o.Prev < 0 && (i+1 >= len(ops) || ops[i+1].Prev != int32(i))
	}
	coIssue := func(a, b int) bool {
		if !r.CoIssue || !single(a) || !single(b) || ops[a].Class != ops[b].Class || ops[a].Cost != ops[b].Cost {
			return false
		}
		if ops[a].Comps+ops[b].Comps > l.pack(ClassNames[ops[a].Class]) {
			return false
		}
		for _, d := range bc.Preds[b] {
			if int(d.On) == a {
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
			if o.Prev != int32(i-1) || i == start {
				chainStart, chainLat = issue, 0
			}
			switch o.Kind {
			case OpALU:
				best := -1
				for _, p := range o.Pipes {
					if best < 0 || load[p] < load[best] {
						best = p
					}
				}
				pipeOf[i] = best
				if best >= 0 {
					load[best] += o.Cost
				}
				ol := float64(l.g.Execution.ALULatencyCycles)
				if o.SFU {
					ol = float64(l.g.Execution.SFULatencyCycles)
				}
				chainLat += o.Cost - 1 + ol
				issue += issueEach
			case OpMessage:
				bursts := 1
				if r.BurstBytes > 0 && o.Bytes > r.BurstBytes {
					bursts = (o.Bytes + r.BurstBytes - 1) / r.BurstBytes
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
	AssignInsts(groups, ops, func(q int32) int { return groupOf[q] })
	return groups
}
