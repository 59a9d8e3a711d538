package bifrost_test

import (
	"fmt"
	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/bifrost"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"slices"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// clauseOf describes a block's clauses: tuples and ALU operations per pipe.
type clauseShape struct {
	tuples   int32
	fma, add float32
	msgs     int
}

func shapes(lp *isa.Program, b int) []clauseShape {
	var out []clauseShape
	for _, g := range lp.Blocks[b].Groups {
		out = append(out, clauseShape{g.Tuples, g.Pipe[0], g.Pipe[1], len(g.Mem)})
	}
	return out
}

// adds appends n independent FP32 adds of distinct registers and a constant.
func adds(b *isatest.ProgBuilder, n int, firstSrc, firstDst, konst int32) *isatest.ProgBuilder {
	for i := 0; i < n; i++ {
		b.Op(ir.OpFAddF32, firstDst+int32(i), 1, firstSrc+int32(i), konst)
	}
	return b
}

// FMA+FADD dual issue: independent adds fill both slots of a tuple (seed 000:
// 96 FP32 adds per clock on a G52); FMAs only the FMA slot (48 per clock);
// half-rate special functions hold the FADD slot for two tuples while FMAs
// use the other.
func TestBifrostDualIssue(t *testing.T) {
	// 14 adds + the branch: 7 tuples, 7 adds on each pipe, branch in the
	// last FADD slot.
	lp := isatest.Lower(t, adds(isatest.NewProg(128).Konst(100), 15, 0, 40, 100).P, "mali-g52", 0)
	if s := shapes(lp, 0); len(s) != 1 || s[0].tuples != 8 || s[0].fma != 8 || s[0].add != 7 {
		t.Errorf("15 adds: %+v, want one 8-tuple clause, 8 on FMA and 7 on FADD (the branch takes the last FADD slot)", s)
	}
	// FMAs: one a tuple.
	b := isatest.NewProg(128).Konst(100, 101)
	for i := 0; i < 6; i++ {
		b.Op(ir.OpFmaF32, int32(40+i), 1, int32(i), 100, 101)
	}
	if s := shapes(isatest.Lower(t, b.P, "mali-g52", 0), 0); len(s) != 1 || s[0].tuples != 6 || s[0].fma != 6 || s[0].add != 0 {
		t.Errorf("6 FMAs: %+v, want 6 tuples on the FMA pipe", s)
	}
	// 3 rsqrt (2 tuples each on FADD) beside 6 FMAs: 6 tuples, then the
	// branch needs a FADD slot: 7.
	b = isatest.NewProg(128).Konst(100, 101)
	for i := 0; i < 6; i++ {
		b.Op(ir.OpFmaF32, int32(40+i), 1, int32(i), 100, 101)
	}
	for i := 0; i < 3; i++ {
		b.Op(ir.OpRsqrtF32, int32(50+i), 1, int32(10+i))
	}
	if s := shapes(isatest.Lower(t, b.P, "mali-g52", 0), 0); len(s) != 1 || s[0].tuples != 7 || s[0].fma != 6 || s[0].add != 6 {
		t.Errorf("6 FMAs + 3 rsqrt: %+v, want 7 tuples, FMA 6, FADD 6", s)
	}
}

// At most clause_max_tuples (8) tuples a clause.
func TestBifrostClauseMaxTuples(t *testing.T) {
	lp := isatest.Lower(t, adds(isatest.NewProg(256).Konst(200), 40, 0, 100, 200).P, "mali-g52", 0)
	s := shapes(lp, 0)
	var total float32
	for _, c := range s {
		if c.tuples > 8 {
			t.Errorf("clause of %d tuples", c.tuples)
		}
		total += c.fma + c.add
	}
	if len(s) != 3 || total != 40 {
		t.Errorf("40 adds: %+v, want 3 clauses holding 40 adds", s)
	}
	// A user GPU with 4-tuple clauses.
	g := isatest.ParseGPU(t, "base: mali-g52\nbifrost: {clause_max_tuples: 4}\n")
	if s := shapes(isatest.LowerGPU(t, adds(isatest.NewProg(256).Konst(200), 40, 0, 100, 200).P, g, 0), 0); len(s) != 6 {
		t.Errorf("40 adds in clauses of 4: %d clauses, want 6", len(s))
	}
}

// One message per clause, which ends it; a message's result is read only by
// a later clause.
func TestBifrostMessages(t *testing.T) {
	b := isatest.NewProg(64).Arg(0, 1, 2).Konst(60)
	b.Op(ir.OpLoadGlobal32, 10, 1, 0)
	b.Op(ir.OpLoadGlobal32, 11, 1, 1)
	b.Op(ir.OpLoadGlobal32, 12, 1, 2)
	b.Op(ir.OpFAddF32, 13, 1, 10, 60) // reads the first load
	lp := isatest.Lower(t, b.P, "mali-g52", 0)
	isatest.CheckInvariants(t, "loads", lp)
	msgClauses := 0
	for _, g := range lp.Blocks[0].Groups {
		if len(g.Mem) > 1 {
			t.Errorf("clause with messages %v", g.Mem)
		}
		if len(g.Mem) == 1 {
			msgClauses++
		}
	}
	if msgClauses != 3 {
		t.Errorf("%d clauses with a message, want 3", msgClauses)
	}
	load, add := isatest.GroupOf(lp, 0), isatest.GroupOf(lp, 3)
	if load == add || !slices.Contains(add.Reads, 10) || slices.Contains(load.Writes, 10) {
		t.Errorf("the add reading the load's result: same clause %v, reads %v, load writes %v", load == add, add.Reads, load.Writes)
	}
	// A user GPU allowing two messages a clause packs two loads together.
	g := isatest.ParseGPU(t, "base: mali-g52\nbifrost: {message_instructions_per_clause: 2}\n")
	lp = isatest.LowerGPU(t, b.P, g, 0)
	if isatest.GroupOf(lp, 0) != isatest.GroupOf(lp, 1) {
		t.Error("two messages a clause: the first two loads should share one")
	}
}

// At most scoreboard_slots (6) messages with results outstanding: the clause
// with the 7th load waits for the oldest (here nothing in the block reads
// the loads, so nothing else frees a slot).
func TestBifrostScoreboard(t *testing.T) {
	b := isatest.NewProg(64)
	for i := 0; i < 8; i++ {
		b.Arg(int32(i))
		b.Op(ir.OpLoadGlobal32, int32(20+i), 1, int32(i))
	}
	lp := isatest.Lower(t, b.P, "mali-g52", 0)
	for i := int32(0); i < 8; i++ {
		r := isatest.GroupOf(lp, i).Reads
		var want []int32
		if i >= 6 {
			want = []int32{20 + i - 6}
		}
		if len(r) != len(want) || (len(want) == 1 && r[0] != want[0]) {
			t.Errorf("load %d waits on %v, want %v", i, r, want)
		}
	}
	g := isatest.ParseGPU(t, "base: mali-g52\nbifrost: {scoreboard_slots: 8}\n")
	lp = isatest.LowerGPU(t, b.P, g, 0)
	if r := isatest.GroupOf(lp, 7).Reads; len(r) != 0 {
		t.Errorf("8 slots: the 8th load waits on %v", r)
	}
	// Reading a load's result frees its slot: with the first result used
	// before the 7th load, that load waits on the second.
	b = isatest.NewProg(64).Konst(60)
	for i := 0; i < 8; i++ {
		b.Arg(int32(i))
		b.Op(ir.OpLoadGlobal32, int32(20+i), 1, int32(i))
		if i == 1 {
			b.Op(ir.OpFAddF32, 50, 1, 20, 60)
		}
	}
	lp = isatest.Lower(t, b.P, "mali-g52", 0)
	if r := isatest.GroupOf(lp, 8).Reads; len(r) != 1 || r[0] != 21 {
		t.Errorf("after the first load's result is read, the 8th load waits on %v, want [21]", r)
	}
}

// Three register reads a tuple (2 read ports + the read/write port), fewer
// when the previous tuple's two results take the read/write port;
// temporaries and the FMA result feeding the FADD do not count.
func TestBifrostRegisterPorts(t *testing.T) {
	g52 := isatest.MustGPU(t, "mali-g52")
	tests := []struct {
		name string
		p    *ir.Program
		gpu  string
		want [][][]string
	}{
		{"4 registers do not fit a tuple",
			isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFAddF32, 41, 1, 2, 3).P, "",
			[][][]string{{{"i0", "-"}, {"i1", "b"}}}},
		{"a register and a constant each: dual issue",
			isatest.NewProg(64).Konst(60).Op(ir.OpFAddF32, 40, 1, 0, 60).Op(ir.OpFAddF32, 41, 1, 1, 60).Op(ir.OpFAddF32, 42, 1, 2, 60).P, "",
			[][][]string{{{"i0", "i1"}, {"i2", "b"}}}},
		{"after two results only two reads: the two-register add takes both",
			isatest.NewProg(64).Konst(60).Op(ir.OpFAddF32, 40, 1, 0, 60).Op(ir.OpFAddF32, 41, 1, 1, 60).Op(ir.OpFAddF32, 42, 1, 2, 3).Op(ir.OpFAddF32, 43, 1, 4, 60).P, "",
			[][][]string{{{"i0", "i1"}, {"i2", "-"}, {"i3", "b"}}}},
		{"temporaries and FMA→FADD: a chain of 4 adds over 5 registers",
			isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFAddF32, 41, 1, 40, 2).Op(ir.OpFAddF32, 42, 1, 41, 3).Op(ir.OpFAddF32, 43, 1, 42, 4).P, "",
			[][][]string{{{"i0", "i1"}, {"i2", "i3"}, {"-", "b"}}}},
		{"one read port less: no dual issue after two results",
			isatest.NewProg(64).Konst(60).Op(ir.OpFAddF32, 40, 1, 0, 60).Op(ir.OpFAddF32, 41, 1, 1, 60).Op(ir.OpFAddF32, 42, 1, 2, 60).Op(ir.OpFAddF32, 43, 1, 3, 60).P,
			"base: mali-g52\nbifrost: {register_read_ports: 1}\n",
			[][][]string{{{"i0", "i1"}, {"i2", "-"}, {"i3", "b"}}}},
	}
	for _, tt := range tests {
		g := g52
		if tt.gpu != "" {
			g = isatest.ParseGPU(t, tt.gpu)
		}
		if got := tupleLayout(t, tt.p, g); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The uniform/constant port gives a tuple one uniform or one 64-bit
// constant (two 32-bit halves), not both; an operation that needs both
// reads the uniform from a register.
func TestBifrostUniformPort(t *testing.T) {
	tests := []struct {
		name   string
		k1, k2 int32 // the adds' second operands
		want   [][][]string
	}{
		{"same constant", 60, 60, [][][]string{{{"i0", "i1"}, {"-", "b"}}}},
		{"two 32-bit constants", 60, 61, [][][]string{{{"i0", "i1"}, {"-", "b"}}}},
		{"two uniforms", 62, 63, [][][]string{{{"i0", "i1"}, {"-", "b"}}}},
		{"a uniform and a constant", 62, 60, [][][]string{{{"i0", "-"}, {"i1", "b"}}}},
	}
	for _, tt := range tests {
		b := isatest.NewProg(64).Konst(60, 61).Arg(62, 63)
		b.Op(ir.OpFAddF32, 40, 1, 0, tt.k1).Op(ir.OpFAddF32, 41, 1, 1, tt.k2)
		if got := tupleLayout(t, b.P, isatest.MustGPU(t, "mali-g52")); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// fma(x, uniform, constant) alone still issues: the uniform comes from
	// a register.
	b := isatest.NewProg(64).Konst(60).Arg(62).Op(ir.OpFmaF32, 40, 1, 0, 62, 60)
	if got := tupleLayout(t, b.P, isatest.MustGPU(t, "mali-g52")); fmt.Sprint(got) != fmt.Sprint([][][]string{{{"i0", "b"}}}) {
		t.Errorf("fma with a uniform and a constant: %v", got)
	}
}

// Code size: tuples × 78 bits, a 45-bit header and 60-bit constants, in
// 128-bit quadwords: about 6 bytes per FP add once FMA+FADD pair them (seed
// 000 §Shader Frontend measures 6-7).
func TestBifrostCodeSize(t *testing.T) {
	lp := isatest.Lower(t, adds(isatest.NewProg(2048).Konst(2000), 512, 0, 1000, 2000).P, "mali-g52", 0)
	per := float64(lp.CodeBytes) / 512
	if per < 6 || per > 7 {
		t.Errorf("%d B for 512 adds: %.2f B per add, want 6-7", lp.CodeBytes, per)
	}
	one := isatest.Lower(t, isatest.NewProg(8).Op(ir.OpFAddF32, 4, 1, 0, 1).P, "mali-g52", 0)
	if one.CodeBytes != 16+16 && one.CodeBytes != 16 {
		t.Errorf("a 1-tuple clause takes %d B", one.CodeBytes)
	}
	full := isatest.Lower(t, adds(isatest.NewProg(128).Konst(100), 16, 0, 40, 100).P, "mali-g52", 0)
	if c := full.Blocks[0].Groups[0]; c.Tuples != 8 || c.CodeBytes != 96 {
		t.Errorf("8-tuple clause with one constant: %d tuples, %d B; want 96 (669+60 bits in 6 quadwords)", c.Tuples, c.CodeBytes)
	}
}

// tupleLayout lowers p and returns, per clause of block 0, per tuple, the
// instruction in each pipe's slot ("-" empty, "b" the branch, "i<N>").
func tupleLayout(t testing.TB, p *ir.Program, g *arch.GPU) [][][]string {
	t.Helper()
	var out [][][]string
	bifrost.WatchClauses(func(clause [][]string) { out = append(out, clause) })
	defer bifrost.WatchClauses(nil)
	isatest.LowerGPU(t, p, g, 0)
	return out
}

// A result still in a temporary is used before it has to be read back
// through a port: eight adds of a uniform, then each sum added to the next
// (the last to the first ring sum). Taken in program order, a ring add
// reads two sums written tuples before, and with the previous tuple's two
// writes taking the read/write port a tuple has room for one such add
// only; taking a ring add as soon as its sums are temporaries fills both
// slots: 16 adds and the branch in 9 tuples (10 in program order).
func TestBifrostTemporariesBeforePorts(t *testing.T) {
	b := isatest.NewProg(64).Arg(8)
	for i := int32(0); i < 8; i++ {
		b.Op(ir.OpIAddU32, 10+i, 1, i, 8)
	}
	for i := int32(0); i < 7; i++ {
		b.Op(ir.OpIAddU32, 20+i, 1, 10+i, 11+i)
	}
	b.Op(ir.OpIAddU32, 27, 1, 17, 20)
	lp := isatest.Lower(t, b.P, "mali-g52", 0)
	tuples := 0
	for _, s := range shapes(lp, 0) {
		tuples += int(s.tuples)
	}
	if tuples != 9 {
		t.Errorf("16 adds and the branch: %d tuples %+v, want 9", tuples, shapes(lp, 0))
	}
}

// A tuple's two slots are filled together: where the FMA slot's first
// choice leaves no operation the FADD slot's ports allow, another FMA
// operation that does is taken. Eight accumulators, each added to the next
// (the last to the new first) for eight rounds: 64 adds and the branch.
func TestBifrostPairsTheSlots(t *testing.T) {
	b := isatest.NewProg(256)
	cur := [8]int32{0, 1, 2, 3, 4, 5, 6, 7}
	next := int32(8)
	for range 8 {
		var nw [8]int32
		for i := range 8 {
			other := cur[(i+1)%8]
			if i == 7 {
				other = nw[0]
			}
			nw[i] = next
			b.Op(ir.OpIAddU32, next, 1, cur[i], other)
			next++
		}
		cur = nw
	}
	lp := isatest.Lower(t, b.P, "mali-g52", 0)
	tuples := 0
	for _, s := range shapes(lp, 0) {
		tuples += int(s.tuples)
	}
	if tuples > 33 {
		t.Errorf("64 ring adds and the branch: %d tuples %+v, want 33, every slot but one filled (35 filling the FMA slot first)", tuples, shapes(lp, 0))
	}
}
