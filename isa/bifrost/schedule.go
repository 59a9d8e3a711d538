package bifrost

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

import (
	"slices"
	"sort"

	"github.com/pocketgpu/pocketgpu/isa"
)

type bifrostSched struct {
	b       *isa.BlockCode
	ops     []isa.MachineOp
	preds   [][]isa.Dep
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

func schedule(bc *isa.BlockCode) []isa.Group {
	bp := bc.GPU.Bifrost
	s := &bifrostSched{b: bc, ops: bc.Ops, preds: bc.Preds, npipes: len(bc.GPU.Pipes)}
	n := len(s.ops)
	port := bp.UniformPortBits / 32
	for i := range s.ops {
		normalizeUniform(&s.ops[i], port)
	}
	s.prod = isa.Producers(s.ops)
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
			s.succs[d.On] = append(s.succs[d.On], int32(i))
		}
		if s.npred[i] == 0 {
			s.ready = append(s.ready, int32(i))
		}
	}
	s.prio = isa.Priorities(s.ops, s.succs, bc.MessageWeight())

	var groups []isa.Group
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
			placedALU := s.fillALU(t)
			if !s.busyAt(t, msgSlot) {
				// Messages wait until the clause cannot grow; the
				// terminator goes as soon as it is ready.
				if m := s.pick(t, msgSlot, false); m >= 0 && (t == maxT-1 || !placedALU || s.ops[m].Kind == isa.OpBranch || !s.aluCanFollow()) {
					s.place(m, t, msgSlot)
					if k := s.ops[m].Kind; k == isa.OpMessage || k == isa.OpBarrier {
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
			if s.ops[m].Kind == isa.OpALU && len(s.ops[m].Pipes) > 0 {
				p = s.ops[m].Pipes[0]
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
	isa.AssignInsts(groups, s.ops, func(q int32) int { return int(s.clause[q]) })
	return groups
}

type sbEntry struct {
	op    int32
	slots []int32
}

// normalizeUniform makes an operation that alone cannot use the uniform
// port read its uniforms (and, past the port's width, its constants) from
// registers the compiler loaded once.
func normalizeUniform(o *isa.MachineOp, port int) {
	args, consts := 0, 0
	for _, r := range o.Reads {
		switch r.From {
		case isa.FromArg:
			args += int(r.Words)
		case isa.FromConst:
			consts += int(r.Words)
		}
	}
	if (args == 0 || consts == 0) && args <= port && consts <= port {
		return
	}
	reads := append([]isa.Operand(nil), o.Reads...)
	for k := range reads {
		if reads[k].From == isa.FromArg || (consts > port && reads[k].From == isa.FromConst) {
			reads[k].From = isa.FromReg
		}
	}
	o.Reads = reads
}

// aluCanFollow reports whether a ready ALU operation could still join the
// clause in a later tuple (it does not wait on a message of this clause).
func (s *bifrostSched) aluCanFollow() bool {
	for _, m := range s.ready {
		if s.ops[m].Kind != isa.OpALU {
			continue
		}
		ok := true
		for _, d := range s.preds[m] {
			if s.clause[d.On] == s.cur && (d.Msg || s.ops[d.On].Kind != isa.OpALU) {
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
// operations, one that only this pipe can run goes first; then one that
// reads no register through a port (its operands are temporaries, the
// tuple's FMA result or the uniform port), as a compiler uses a result
// while it is still in a temporary, which leaves the ports to the other
// slot; then the highest priority, then program order.
func (s *bifrostSched) pick(t, p int, alu bool) int32 {
	if s.busyAt(t, p) {
		return -1
	}
	best, bestR := int32(-1), int32(-1)
	better := func(a, b int32) bool {
		if b < 0 {
			return true
		}
		if alu {
			if fa, fb := s.portFree(a, t), s.portFree(b, t); fa != fb {
				return fa
			}
		}
		if s.prio[a] != s.prio[b] {
			return s.prio[a] > s.prio[b]
		}
		return a < b
	}
	for _, m := range s.ready {
		o := &s.ops[m]
		if (o.Kind == isa.OpALU) != alu || !s.canPlace(m, t, p) {
			continue
		}
		if alu && len(o.Pipes) == 1 {
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
	bp := s.b.GPU.Bifrost
	k := 1
	switch o.Kind {
	case isa.OpALU:
		ok := false
		for _, q := range o.Pipes {
			ok = ok || q == p
		}
		if !ok {
			return false
		}
		k = isa.CeilCycles(o.Cost)
	case isa.OpMessage, isa.OpBarrier:
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
		q := d.On
		if s.clause[q] < 0 {
			return false
		}
		if s.clause[q] != s.cur {
			continue
		}
		if d.Msg {
			return false // a message's result: a later clause
		}
		if s.ops[q].Kind != isa.OpALU {
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
	bp := s.b.GPU.Bifrost
	prevWrites := 0
	for _, q := range s.members {
		if s.ops[q].Kind == isa.OpALU && int(s.last[q]) == t-1 {
			prevWrites++ // each pipe writes one (32- or 64-bit) result
		}
	}
	limit := bp.RegisterReadPorts + bp.RegisterReadWritePorts - max(0, prevWrites-bp.RegisterWritePorts)
	seen := map[int32]bool{}
	words := 0
	count := func(q int32) {
		for k, r := range s.ops[q].Reads {
			if r.From != isa.FromReg || r.Words == 0 || seen[r.Slot] {
				continue
			}
			if s.temporary(q, k, t) {
				continue // a temporary from the previous tuple, or the FMA result
			}
			seen[r.Slot] = true
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

// portFree reports whether m, placed in tuple t, would read no register
// through a port.
func (s *bifrostSched) portFree(m int32, t int) bool {
	for k, r := range s.ops[m].Reads {
		if r.From != isa.FromReg || r.Words == 0 {
			continue
		}
		if !s.temporary(m, k, t) {
			return false
		}
	}
	return true
}

// temporary reports whether operand k of m, placed in tuple t, comes
// without a register port: from the previous tuple of the clause (a
// temporary) or from the same tuple's FMA result.
func (s *bifrostSched) temporary(m int32, k, t int) bool {
	pr := s.prod[m][k]
	return pr >= 0 && s.clause[pr] == s.cur && (int(s.last[pr]) == t-1 || int(s.last[pr]) == t)
}

// uniformOK checks the uniform/constant port of tuple t with m added: one
// uniform or one constant of the port's width.
func (s *bifrostSched) uniformOK(m int32, t int) bool {
	port := s.b.GPU.Bifrost.UniformPortBits / 32
	seen := map[int32]bool{}
	args, consts := 0, 0
	count := func(q int32) {
		for _, r := range s.ops[q].Reads {
			if r.From == isa.FromReg || seen[r.Slot] {
				continue
			}
			seen[r.Slot] = true
			if r.From == isa.FromArg {
				args += max(int(r.Words), 1)
			} else {
				consts += max(int(r.Words), 1)
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

// fillALU fills tuple t's ALU slots, pipe by pipe, each with pick's
// choice. Where that leaves the last pipe empty, it tries the other
// operations the first pipe could take, in pick's order, and keeps the
// first that lets the last pipe be filled too: a compiler pairs the two
// slots of a tuple rather than filling the first blindly. It reports
// whether any ALU operation was placed.
func (s *bifrostSched) fillALU(t int) bool {
	placed := false
	var first int32 = -1
	for p := 0; p < s.npipes; p++ {
		if m := s.pick(t, p, true); m >= 0 {
			s.place(m, t, p)
			placed = true
			if p == 0 {
				first = m
			}
		}
	}
	last := s.npipes - 1
	if first < 0 || s.npipes != 2 || s.busyAt(t, last) {
		return placed
	}
	// The last pipe stayed empty: try the first pipe's alternatives.
	tried := []int32{first}
	s.unplace(first)
	for {
		m := s.pickExcept(t, 0, tried)
		if m < 0 {
			break
		}
		s.place(m, t, 0)
		if q := s.pick(t, last, true); q >= 0 {
			s.place(q, t, last)
			return true
		}
		s.unplace(m)
		tried = append(tried, m)
	}
	s.place(first, t, 0)
	return true
}

// pickExcept is pick for pipe p of tuple t, leaving out the operations in
// skip.
func (s *bifrostSched) pickExcept(t, p int, skip []int32) int32 {
	saved := s.ready
	kept := make([]int32, 0, len(saved))
	for _, m := range saved {
		if !slices.Contains(skip, m) {
			kept = append(kept, m)
		}
	}
	s.ready = kept
	m := s.pick(t, p, true)
	s.ready = saved
	return m
}

// unplace takes back the last place(m, ...): its slot, its clause and the
// readiness it gave its successors.
func (s *bifrostSched) unplace(m int32) {
	k := 1
	if s.ops[m].Kind == isa.OpALU {
		k = isa.CeilCycles(s.ops[m].Cost)
	}
	for j := int(s.first[m]); j < int(s.first[m])+k; j++ {
		s.busy[j][s.slot[m]] = false
	}
	s.members = s.members[:len(s.members)-1]
	s.clause[m] = -1
	for _, q := range s.succs[m] {
		if s.npred[q] == 0 {
			if i := slices.Index(s.ready, q); i >= 0 {
				s.ready = append(s.ready[:i], s.ready[i+1:]...)
			}
		}
		s.npred[q]++
	}
	s.ready = append(s.ready, m)
}

func (s *bifrostSched) place(m int32, t, p int) {
	k := 1
	if s.ops[m].Kind == isa.OpALU {
		k = isa.CeilCycles(s.ops[m].Cost)
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

// group builds the clause's isa.Group and updates the scoreboard.
func (s *bifrostSched) group(T int, outstanding *[]sbEntry) isa.Group {
	bc := s.b
	bp := bc.GPU.Bifrost
	members := append([]int32(nil), s.members...)
	sort.Slice(members, func(a, b int) bool { return members[a] < members[b] })
	// Scoreboard: waiting on a message frees its slot; a new message with
	// results needs one, and waits for the oldest when all are taken.
	var extra []int32
	waited := map[int32]bool{}
	for _, m := range members {
		for _, d := range s.preds[m] {
			if d.Msg {
				waited[d.On] = true
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
		if o.Kind != isa.OpMessage || len(o.Writes) == 0 {
			continue
		}
		if len(*outstanding) >= bp.ScoreboardSlots {
			extra = append(extra, (*outstanding)[0].slots...)
			*outstanding = (*outstanding)[1:]
		}
		*outstanding = append(*outstanding, sbEntry{op: m, slots: o.Writes})
	}
	var gr isa.Group
	cur := s.cur
	bc.Fill(&gr, s.prod, members, func(q int32) bool { return s.clause[q] == cur }, func(q int32) int { return int(s.slot[q]) }, extra)
	gr.Issue = float32(T)
	gr.Tuples = int32(T)
	lat := bc.GPU.Execution.ALULatencyCycles
	if gr.SFU {
		lat = max(lat, bc.GPU.Execution.SFULatencyCycles)
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
			for _, r := range s.ops[m].Reads {
				if r.From == isa.FromConst && n < 4 {
					key[n] = r.Slot + 1
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
