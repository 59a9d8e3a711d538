package isa_test

import (
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/adreno"
	"github.com/pocketgpu/pocketgpu/isa/bifrost"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"github.com/pocketgpu/pocketgpu/isa/midgard"
	"github.com/pocketgpu/pocketgpu/isa/rogue"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// cfgProg builds a program of several blocks: code per block and edges.
func cfgProg(nslots int, blocks [][]ir.Inst, terms []ir.Term, succs [][]ir.Edge) *ir.Program {
	p := &ir.Program{Entry: "t", Regs: nslots, ConstDataSlot: -1, Sites: []ir.Site{{Name: "test"}}}
	for b, code := range blocks {
		start := int32(len(p.Code))
		p.Code = append(p.Code, code...)
		p.Blocks = append(p.Blocks, ir.Block{Start: start, End: int32(len(p.Code)), Term: terms[b], Succs: succs[b], IPDom: ir.NoBlock})
	}
	return p
}

func inst(o ir.Op, dst int32, src ...int32) ir.Inst {
	in := ir.Inst{Op: o, N: 1, Dst: dst, Src: [3]int32{-1, -1, -1}}
	copy(in.Src[:], src)
	return in
}

func countClass(lp *isa.Program, b int, class string) int {
	return isatest.Classes(lp, b)[class]
}

// A phi copy costs nothing when the register allocator can give source and
// destination one register (the loop's accumulators in fma8), and a move
// otherwise.
func TestPhiCopies(t *testing.T) {
	p := isatest.CorpusProgram(t, "fma8")
	body := -1
	for b := range p.Blocks {
		for i := p.Blocks[b].Start; i < p.Blocks[b].End; i++ {
			if p.Code[i].Op == ir.OpFmaF32 {
				body = b
			}
		}
	}
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		lp := isatest.Lower(t, p, gpu, 0)
		if n := countClass(lp, body, "move"); n != 0 {
			t.Errorf("%s: the fma8 loop body has %d moves; its copies coalesce", gpu, n)
		}
		// The coalesced destinations are written by the producing group.
		written := map[int32]bool{}
		for _, g := range lp.Blocks[body].Groups {
			for _, s := range g.Writes {
				written[s] = true
			}
		}
		for _, e := range p.Blocks[body].Succs {
			for _, m := range e.Moves {
				if !written[m.Dst] {
					t.Errorf("%s: phi destination %d not written by the block", gpu, m.Dst)
				}
			}
		}
	}

	// isa.Block 0: x1 = x0 + 1; if c goto 0 (x0 ← x1) else goto 1, which reads
	// x0: the old value is live on the other edge, so the copy is a move.
	// Slots: 0 x0, 1 x1, 2 cond, 3 result, 10 the constant.
	mk := func(exitReads int32) *ir.Program {
		q := cfgProg(16,
			[][]ir.Inst{{inst(ir.OpFAddF32, 1, 0, 10), inst(ir.OpFOrdLessThanF32, 2, 1, 10)}, {inst(ir.OpFAddF32, 3, exitReads, 10)}},
			[]ir.Term{{Kind: ir.TermCond, Cond: 2}, {Kind: ir.TermReturn}},
			[][]ir.Edge{{{To: 0, Moves: []ir.Move{{Dst: 0, Src: 1, N: 1}}}, {To: 1}}, nil})
		q.Consts = []ir.Const{{Slot: 10, Value: 0x3f800000}}
		return q
	}
	for _, tt := range []struct {
		reads int32
		moves int
	}{{0, 1}, {1, 0}} {
		for _, gpu := range []string{"mali-g52", "adreno-640"} {
			lp := isatest.Lower(t, mk(tt.reads), gpu, 0)
			isatest.CheckInvariants(t, "loop", lp)
			if n := countClass(lp, 0, "move"); n != tt.moves {
				t.Errorf("%s, exit reads slot %d: %d moves, want %d", gpu, tt.reads, n, tt.moves)
			}
		}
	}

	// The loop as clang -O2 leaves it (LCSSA): the new value x1 goes to
	// the header's phi x0 on the back edge and to the exit block's phi x2
	// on the exit edge. x0 and x2 are never live together, so one
	// register holds all three and neither edge needs a move — the loop
	// must not pay each iteration for a copy its exit takes once.
	// Slots: 0 x0, 1 x1, 2 cond, 3 x2, 4 result, 10 the constant.
	lcssa := cfgProg(16,
		[][]ir.Inst{{inst(ir.OpFAddF32, 1, 0, 10), inst(ir.OpFOrdLessThanF32, 2, 1, 10)}, {inst(ir.OpFAddF32, 4, 3, 10)}},
		[]ir.Term{{Kind: ir.TermCond, Cond: 2}, {Kind: ir.TermReturn}},
		[][]ir.Edge{{{To: 0, Moves: []ir.Move{{Dst: 0, Src: 1, N: 1}}}, {To: 1, Moves: []ir.Move{{Dst: 3, Src: 1, N: 1}}}}, nil})
	lcssa.Consts = []ir.Const{{Slot: 10, Value: 0x3f800000}}
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		lp := isatest.Lower(t, lcssa, gpu, 0)
		isatest.CheckInvariants(t, "lcssa", lp)
		if n := countClass(lp, 0, "move"); n != 0 {
			t.Errorf("%s: an LCSSA loop's body has %d moves; its back-edge and exit copies coalesce", gpu, n)
		}
	}
}

// The static report sums groups along the CFG: the shortest and longest
// paths per pipe, loops once, and names the bounding pipe.
func TestAnalyzePaths(t *testing.T) {
	// 0: cond → 1 (one add) or 2 (four adds); both → 3: return.
	add := func(d int32) ir.Inst { return inst(ir.OpFAddF32, d, 0, 0) }
	p := cfgProg(32,
		[][]ir.Inst{{inst(ir.OpFOrdLessThanF32, 1, 0, 0)}, {add(2)}, {add(3), add(4), add(5), add(6)}, {}},
		[]ir.Term{{Kind: ir.TermCond, Cond: 1}, {Kind: ir.TermBranch}, {Kind: ir.TermBranch}, {Kind: ir.TermReturn}},
		[][]ir.Edge{{{To: 1}, {To: 2}}, {{To: 3}}, {{To: 3}}, nil})
	r, err := families.Analyze(p, isatest.MustGPU(t, "adreno-640"), 64)
	if err != nil {
		t.Fatal(err)
	}
	alu := r.Pipes[0]
	// wave64 on a 64-wide partition: 1 cycle an add or compare; 2 engines.
	if alu.Name != "alu" || alu.Shortest != 1 || alu.Longest != 2.5 || alu.Total != 3 || alu.Instructions != 6 {
		t.Errorf("alu row %+v; want shortest 2/2, longest 5/2, total 6/2 core cycles, 6 instructions", alu)
	}
	if r.HasLoops {
		t.Error("no loop here")
	}
	// A loop: 0 → 1 (two adds) → back to 1 or on to 2: counted once.
	p = cfgProg(32,
		[][]ir.Inst{{}, {add(2), inst(ir.OpFOrdLessThanF32, 1, 2, 0)}, {}},
		[]ir.Term{{Kind: ir.TermBranch}, {Kind: ir.TermCond, Cond: 1}, {Kind: ir.TermReturn}},
		[][]ir.Edge{{{To: 1}}, {{To: 1}, {To: 2}}, nil})
	r, err = families.Analyze(p, isatest.MustGPU(t, "adreno-640"), 64)
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasLoops || r.Pipes[0].Longest != 1 || r.Pipes[0].Shortest != 1 {
		t.Errorf("loop: has loops %v, alu %+v; want the body once (2 ops / 2 engines)", r.HasLoops, r.Pipes[0])
	}
	// A loop with its test at the top: 0 → 1 (compare) → 2 (three adds) →
	// back to 1, or 1 → 3: the longest path runs the body once and leaves
	// through the header's exit; the shortest skips it.
	p = cfgProg(32,
		[][]ir.Inst{{}, {inst(ir.OpFOrdLessThanF32, 1, 2, 0)}, {add(2), add(3), add(4)}, {add(5)}},
		[]ir.Term{{Kind: ir.TermBranch}, {Kind: ir.TermCond, Cond: 1}, {Kind: ir.TermBranch}, {Kind: ir.TermReturn}},
		[][]ir.Edge{{{To: 1}}, {{To: 2}, {To: 3}}, {{To: 1}}, nil})
	r, err = families.Analyze(p, isatest.MustGPU(t, "adreno-640"), 64)
	if err != nil {
		t.Fatal(err)
	}
	if alu := r.Pipes[0]; alu.Shortest != 1 || alu.Longest != 2.5 {
		t.Errorf("top-tested loop: alu %+v; want shortest 2/2 (compare, exit add), longest 5/2 (the body once)", alu)
	}
}

// Family sections of the report: Bifrost clauses and tuples, Adreno wave
// size, Rogue unified-store use, Midgard bundles. An ALU-bound kernel is
// bound by the Bifrost EE's tuple issue (FMA and FADD share it) and by the
// Adreno ALU pipe (wave128 FP32 takes it two cycles per issue).
func TestAnalyzeFamilies(t *testing.T) {
	p := isatest.CorpusProgram(t, "fma8")
	r, err := families.Analyze(p, isatest.MustGPU(t, "mali-g52"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if br, ok := r.Details.Details.(*bifrost.Report); !ok || br.Clauses < 5 || br.Tuples < br.Clauses || r.LongestBound != isa.RowIssue || !r.HasLoops {
		t.Errorf("g52 fma8: %+v bound %q", r.Details, r.LongestBound)
	}
	if r.Occupancy.ResidentThreads != 768 {
		t.Errorf("g52 fma8 with %d registers: %d threads resident, want 768 (seed 000)", r.Registers, r.Occupancy.ResidentThreads)
	}
	r, err = families.Analyze(p, isatest.MustGPU(t, "adreno-615"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if ar, ok := r.Details.Details.(*adreno.Report); !ok || ar.WaveSize != 64 || r.LongestBound != "alu" {
		t.Errorf("615 fma8: %+v bound %q", r.Details, r.LongestBound)
	}
	// fma() on the 615: hundreds of cycles a wave (seed 000).
	if r.Pipes[0].Longest < 8*600/2 {
		t.Errorf("615 fma8 loop: %v alu cycles, want at least 8 FMAs × 600 / 2 partitions", r.Pipes[0].Longest)
	}
	r, err = families.Analyze(p, isatest.MustGPU(t, "powervr-gx6250"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rr, ok := r.Details.Details.(*rogue.Report); !ok || rr.UnifiedStoreRegisters != (r.Registers+3)/4 || rr.PerTaskRegisters != 32*rr.UnifiedStoreRegisters {
		t.Errorf("gx6250: %+v for %d registers", r.Details, r.Registers)
	}
	r, err = families.Analyze(p, isatest.MustGPU(t, "mali-t760"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if mr, ok := r.Details.Details.(*midgard.Report); !ok || mr.Bundles == 0 {
		t.Errorf("t760: %+v", r.Details)
	}
	// Memory: vecadd's loads and store use the load/store row.
	r, err = families.Analyze(isatest.CorpusProgram(t, "vecadd"), isatest.MustGPU(t, "mali-g52"), 0)
	if err != nil {
		t.Fatal(err)
	}
	ls := r.Pipes[len(r.Pipes)-2]
	if ls.Name != isa.RowLoadStore || ls.Instructions != 3 || ls.Longest <= 0 || ls.Shortest != 0 {
		t.Errorf("vecadd load/store row %+v; want 3 messages, none on the shortest path (the bounds check skips them)", ls)
	}
	r, err = families.Analyze(isatest.CorpusProgram(t, "image2d"), isatest.MustGPU(t, "mali-g52"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tex := r.Pipes[len(r.Pipes)-1]; tex.Name != isa.RowTexture || tex.Instructions == 0 || tex.Longest <= 0 {
		t.Errorf("image2d texture row %+v", tex)
	}
}
