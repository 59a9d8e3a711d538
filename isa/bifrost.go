package isa

// Bifrost lowering (seed 000 §Shader Frontend, §Register Access and
// Execution Pipelines). A list scheduler over the block's dependence graph
// packs machine operations into tuples — one operation per pipe, the pipes
// in stage order (FMA then FADD) — and tuples into clauses:
//
//   - at most bifrost.clause_max_tuples tuples per clause;
//   - at most bifrost.message_instructions_per_clause messages (memory,
//     texture, atomics, barrier) per clause, in the last pipe's slot; the
//     clause ends after it (messages wait until the clause cannot grow);
//   - a message's result is read only by a later clause;
//   - inside a clause a result is read by a later tuple (temporaries pass it
//     on), or by a later pipe of the same tuple (the FMA result feeds the
//     FADD);
//   - at most register_read_ports + register_read_write_ports registers
//     (32- or 64-bit) read per tuple, less one per result of the previous
//     tuple beyond the write ports (its writes take the read/write port); a
//     message's data and coordinates are staging registers named in the
//     clause header and take no port;
//     temporaries, the same-tuple FMA result and the uniform/constant port
//     do not count;
//   - one uniform or one embedded constant a tuple through the
//     uniform_port_bits port (two 32-bit halves of one 64-bit value); an
//     operation needing both reads the uniform from a register the compiler
//     loaded once;
//   - an operation costing c cycles (IssueCycles: half-rate special
//     functions 2, ...) holds its pipe's slot in c consecutive tuples;
//   - at most bifrost.scoreboard_slots messages with results outstanding: a
//     clause that would need another slot first waits for the oldest.
//
// The clause is the group: Issue is its tuple count (an 8-wide EE runs one
// tuple a cycle for an 8-wide warp), Latency the tuples before the last plus
// execution.alu_latency_cycles, code bytes the header, tuples and constants
// packed into quadwords less their format tags.

import "sort"

type bifrostSched struct {
	l       *lowerer
	ops     []mop
	preds   [][]dep
	prod    [][]int32
	prio    []int
	clause  []int32
	first   []int32
	last    []int32
	slot    []int8
	npred   []int32
	succs   [][]int32
	ready   []int32
	cur     int32
	members []int32
	busy    [][]bool
	msgs    int
	npipes  int
}

func (l *lowerer) bifrostBlock(bc *blockCode) []Group {
	bp := l.g.Bifrost
	s := &bifrostSched{l: l, ops: bc.ops, preds: bc.preds, npipes: len(l.g.Pipes)}
	n := len(s.ops)
	port := bp.UniformPortBits / 32
	for i := range s.ops {
		normalizeUniform(&s.ops[i], port)
	}
	s.prod = producers(s.ops)
	s.clause = make([]int32, n)
	s.first = make([]int32, n)
	s.last = make([]int32, n)
	s.slot = make([]int8, n)
	s.npred = make([]int32, n)
	s.succs = make([][]int32, n)
	for i := range s.ops {
		s.clause[i] = -1
		s.npred[i] = int32(len(s.preds[i]))
		for _, d := range s.preds[i] {
			s.succs[d.on] = append(s.succs[d.on], int32(i))
		}
		if s.npred[i] == 0 {
			s.ready = append(s.ready, int32(i))
		}
	}
	s.prio = priorities(s.ops, s.succs, l.messageWeight())

	var groups []Group
	var outstanding []sbEntry
	done := 0
	maxT := bp.ClauseMaxTuples
	msgSlot := s.npipes - 1
	for done < n {
		s.cur = int32(len(groups))
		s.members = s.members[:0]
		s.busy = s.busy[:0]
		s.msgs = 0
		closeAt, T := -1, 0
		for t := 0; ; t++ {
			if (closeAt >= 0 && t > closeAt) || t >= maxT {
				if t >= T {
					break
				}
				continue
			}
			placedALU := false
			for p := 0; p < s.npipes; p++ {
				if m := s.pick(t, p, true); m >= 0 {
					s.place(m, t, p)
					placedALU = true
				}
			}
			if !s.busyAt(t, msgSlot) {
				// Messages wait until the clause cannot grow; the
				// terminator goes as soon as it is ready.
				if m := s.pick(t, msgSlot, false); m >= 0 && (t == maxT-1 || !placedALU || s.ops[m].kind == kBranch || !s.aluCanFollow()) {
					s.place(m, t, msgSlot)
					if k := s.ops[m].kind; k == kMsg || k == kBarrier {
						s.msgs++
						if s.msgs >= bp.MessageInstructionsPerClause {
							closeAt = t
						}
					}
				}
			}
			T = max(T, s.tuples())
			if !s.anyPlacedAt(t) {
				break // an empty tuple: the clause cannot grow
			}
		}
		if len(s.members) == 0 {
			// Nothing fits the rules (cannot happen for well-formed
			// blocks); take the first ready operation alone.
			sort.Slice(s.ready, func(a, b int) bool { return s.ready[a] < s.ready[b] })
			m := s.ready[0]
			p := msgSlot
			if s.ops[m].kind == kALU && len(s.ops[m].pipes) > 0 {
				p = s.ops[m].pipes[0]
			}
			s.place(m, 0, p)
		}
		T = max(s.tuples(), 1)
		done += len(s.members)
		if debugBifrost != nil {
			debugBifrost(s, T)
		}
		groups = append(groups, s.group(T, &outstanding))
	}
	assignInsts(groups, s.ops, func(q int32) int { return int(s.clause[q]) })
	return groups
}

type sbEntry struct {
	op    int32
	slots []int32
}

// normalizeUniform makes an operation that alone cannot use the uniform
// port read its uniforms (and, past the port's width, its constants) from
// registers the compiler loaded once.
func normalizeUniform(o *mop, port int) {
	args, consts := 0, 0
	for _, r := range o.reads {
		switch r.from {
		case fromArg:
			args += int(r.words)
		case fromConst:
			consts += int(r.words)
		}
	}
	if (args == 0 || consts == 0) && args <= port && consts <= port {
		return
	}
	reads := append([]operand(nil), o.reads...)
	for k := range reads {
		if reads[k].from == fromArg || (consts > port && reads[k].from == fromConst) {
			reads[k].from = fromReg
		}
	}
	o.reads = reads
}

// priorities is each operation's longest path to the end of the block,
// weighting ALU operations by their tuples and messages with results by a
// memory latency, so that loads and long chains go first.
func priorities(ops []mop, succs [][]int32, msgWeight int) []int {
	prio := make([]int, len(ops))
	for i := len(ops) - 1; i >= 0; i-- {
		w := 1
		switch ops[i].kind {
		case kALU:
			w = ceilPos(ops[i].cost)
		case kMsg:
			if len(ops[i].writes) > 0 {
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

// messageWeight is the latency the schedulers expect of a load: an L1 hit,
// or an L2 hit where global loads skip the L1.
func (l *lowerer) messageWeight() int {
	if l.g.L1 != nil {
		return max(l.g.L1.LatencyCycles, 1)
	}
	return max(l.g.L2.LatencyCycles, 1)
}

// aluCanFollow reports whether a ready ALU operation could still join the
// clause in a later tuple (it does not wait on a message of this clause).
func (s *bifrostSched) aluCanFollow() bool {
	for _, m := range s.ready {
		if s.ops[m].kind != kALU {
			continue
		}
		ok := true
		for _, d := range s.preds[m] {
			if s.clause[d.on] == s.cur && (d.msg || s.ops[d.on].kind != kALU) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (s *bifrostSched) busyAt(t, p int) bool {
	return t < len(s.busy) && s.busy[t][p]
}

func (s *bifrostSched) tuples() int {
	T := 0
	for _, m := range s.members {
		T = max(T, int(s.last[m])+1)
	}
	return T
}

func (s *bifrostSched) anyPlacedAt(t int) bool {
	for _, m := range s.members {
		if int(s.first[m]) <= t && int(s.last[m]) >= t {
			return true
		}
	}
	return false
}

// pick chooses the ready operation to put in pipe p's slot of tuple t: ALU
// operations (alu) or messages and the terminator (!alu). Among ALU
// operations, one that only this pipe can run goes first; then the highest
// priority, then program order.
func (s *bifrostSched) pick(t, p int, alu bool) int32 {
	if s.busyAt(t, p) {
		return -1
	}
	best, bestR := int32(-1), int32(-1)
	better := func(a, b int32) bool {
		if b < 0 {
			return true
		}
		if s.prio[a] != s.prio[b] {
			return s.prio[a] > s.prio[b]
		}
		return a < b
	}
	for _, m := range s.ready {
		o := &s.ops[m]
		if (o.kind == kALU) != alu || !s.canPlace(m, t, p) {
			continue
		}
		if alu && len(o.pipes) == 1 {
			if better(m, bestR) {
				bestR = m
			}
			continue
		}
		if better(m, best) {
			best = m
		}
	}
	if bestR >= 0 {
		return bestR
	}
	return best
}

func (s *bifrostSched) canPlace(m int32, t, p int) bool {
	o := &s.ops[m]
	bp := s.l.g.Bifrost
	k := 1
	switch o.kind {
	case kALU:
		ok := false
		for _, q := range o.pipes {
			ok = ok || q == p
		}
		if !ok {
			return false
		}
		k = ceilPos(o.cost)
	case kMsg, kBarrier:
		if p != s.npipes-1 || s.msgs >= bp.MessageInstructionsPerClause {
			return false
		}
	default:
		if p != s.npipes-1 {
			return false
		}
	}
	if t+k > bp.ClauseMaxTuples && !(len(s.members) == 0 && t == 0) {
		return false
	}
	for j := t; j < t+k; j++ {
		if s.busyAt(j, p) {
			return false
		}
	}
	for _, d := range s.preds[m] {
		q := d.on
		if s.clause[q] < 0 {
			return false
		}
		if s.clause[q] != s.cur {
			continue
		}
		if d.msg {
			return false // a message's result: a later clause
		}
		if s.ops[q].kind != kALU {
			if int(s.last[q]) < t {
				continue // program order after an earlier message of the clause
			}
			return false
		}
		if int(s.last[q]) < t || (int(s.last[q]) == t && int(s.slot[q]) < p) {
			continue
		}
		return false
	}
	if !s.anyFirstAt(t) {
		return true // alone in its tuple: the compiler splits what does not fit
	}
	return s.portsOK(m, t) && s.uniformOK(m, t)
}

func (s *bifrostSched) anyFirstAt(t int) bool {
	for _, q := range s.members {
		if int(s.first[q]) == t {
			return true
		}
	}
	return false
}

// portsOK checks the register reads of tuple t with m added.
func (s *bifrostSched) portsOK(m int32, t int) bool {
	bp := s.l.g.Bifrost
	prevWrites := 0
	for _, q := range s.members {
		if s.ops[q].kind == kALU && int(s.last[q]) == t-1 {
			prevWrites++ // each pipe writes one (32- or 64-bit) result
		}
	}
	limit := bp.RegisterReadPorts + bp.RegisterReadWritePorts - max(0, prevWrites-bp.RegisterWritePorts)
	seen := map[int32]bool{}
	words := 0
	count := func(q int32) {
		for k, r := range s.ops[q].reads {
			if r.from != fromReg || r.words == 0 || seen[r.slot] {
				continue
			}
			if pr := s.prod[q][k]; pr >= 0 && s.clause[pr] == s.cur && (int(s.last[pr]) == t-1 || int(s.last[pr]) == t) {
				continue // a temporary from the previous tuple, or the FMA result
			}
			seen[r.slot] = true
			words++ // a port reads a 32- or 64-bit register
		}
	}
	for _, q := range s.members {
		if int(s.first[q]) == t {
			count(q)
		}
	}
	count(m)
	return words <= limit
}

// uniformOK checks the uniform/constant port of tuple t with m added: one
// uniform or one constant of the port's width.
func (s *bifrostSched) uniformOK(m int32, t int) bool {
	port := s.l.g.Bifrost.UniformPortBits / 32
	seen := map[int32]bool{}
	args, consts := 0, 0
	count := func(q int32) {
		for _, r := range s.ops[q].reads {
			if r.from == fromReg || seen[r.slot] {
				continue
			}
			seen[r.slot] = true
			if r.from == fromArg {
				args += max(int(r.words), 1)
			} else {
				consts += max(int(r.words), 1)
			}
		}
	}
	for _, q := range s.members {
		if int(s.first[q]) == t {
			count(q)
		}
	}
	count(m)
	return (args == 0 || consts == 0) && args <= port && consts <= port
}

func (s *bifrostSched) place(m int32, t, p int) {
	k := 1
	if s.ops[m].kind == kALU {
		k = ceilPos(s.ops[m].cost)
	}
	for len(s.busy) < t+k {
		s.busy = append(s.busy, make([]bool, s.npipes))
	}
	for j := t; j < t+k; j++ {
		s.busy[j][p] = true
	}
	s.clause[m], s.first[m], s.last[m], s.slot[m] = s.cur, int32(t), int32(t+k-1), int8(p)
	s.members = append(s.members, m)
	for i, r := range s.ready {
		if r == m {
			s.ready = append(s.ready[:i], s.ready[i+1:]...)
			break
		}
	}
	for _, q := range s.succs[m] {
		s.npred[q]--
		if s.npred[q] == 0 {
			s.ready = append(s.ready, q)
		}
	}
}

// group builds the clause's Group and updates the scoreboard.
func (s *bifrostSched) group(T int, outstanding *[]sbEntry) Group {
	l := s.l
	bp := l.g.Bifrost
	members := append([]int32(nil), s.members...)
	sort.Slice(members, func(a, b int) bool { return members[a] < members[b] })
	// Scoreboard: waiting on a message frees its slot; a new message with
	// results needs one, and waits for the oldest when all are taken.
	var extra []int32
	waited := map[int32]bool{}
	for _, m := range members {
		for _, d := range s.preds[m] {
			if d.msg {
				waited[d.on] = true
			}
		}
	}
	kept := (*outstanding)[:0]
	for _, e := range *outstanding {
		if !waited[e.op] {
			kept = append(kept, e)
		}
	}
	*outstanding = kept
	for _, m := range members {
		o := &s.ops[m]
		if o.kind != kMsg || len(o.writes) == 0 {
			continue
		}
		if len(*outstanding) >= bp.ScoreboardSlots {
			extra = append(extra, (*outstanding)[0].slots...)
			*outstanding = (*outstanding)[1:]
		}
		*outstanding = append(*outstanding, sbEntry{op: m, slots: o.writes})
	}
	var gr Group
	cur := s.cur
	l.fill(&gr, s.ops, s.prod, members, func(q int32) bool { return s.clause[q] == cur }, func(q int32) int { return int(s.slot[q]) }, extra)
	gr.Issue = float32(T)
	gr.Tuples = int32(T)
	lat := l.g.Execution.ALULatencyCycles
	if gr.SFU {
		lat = max(lat, l.g.Execution.SFULatencyCycles)
	}
	gr.Latency = float32(max(T-1+lat, 1))
	// Constants: one embedded 64-bit constant per tuple that reads any
	// (the port carries one), shared when two tuples read the same ones.
	consts := map[[4]int32]bool{}
	for t := 0; t < T; t++ {
		var key [4]int32
		n := 0
		for _, m := range members {
			if int(s.first[m]) != t {
				continue
			}
			for _, r := range s.ops[m].reads {
				if r.from == fromConst && n < 4 {
					key[n] = r.slot + 1
					n++
				}
			}
		}
		if n > 0 {
			sort.Slice(key[:n], func(a, b int) bool { return key[a] < key[b] })
			consts[key] = true
		}
	}
	bitsUsed := bp.ClauseHeaderBits + T*bp.InstructionBits + len(consts)*bp.ConstantBits
	payload := bp.QuadwordBits - bp.QuadwordTagBits
	quadwords := (bitsUsed + payload - 1) / payload
	gr.CodeBytes = int32(quadwords * bp.QuadwordBits / 8)
	return gr
}

// debugBifrost, when set (tests), sees each clause as it is built.
var debugBifrost func(s *bifrostSched, T int)
