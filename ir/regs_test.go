package ir

import "testing"

// Lanes nothing writes (what a shufflevector leaves undef, read by the
// vector add after it, as in a horizontal sum of a float8) hold no
// register: clpeak's float8 bandwidth kernel needs about 19 registers, not
// the 64 that kept its 256-thread work-groups off a Mali-G52 core.
func TestRegistersIgnoreUndefinedLanes(t *testing.T) {
	// Slots 0..7 a loaded float8 (slot 8 the builtin id it is loaded
	// at), 16 its element 1 moved to lane 0 of a vector whose lanes
	// 17..23 are never written, 24..31 their sum.
	p := &Program{Regs: 40, ConstDataSlot: -1}
	p.Builtins = []BuiltinSlot{{Slot: 8, N: 1, Bits: 32}}
	p.Code = []Inst{
		{Op: OpLoadGlobal32, N: 8, Dst: 0, Src: [3]int32{8, -1, -1}},
		{Op: OpMov, N: 1, Dst: 16, Src: [3]int32{1, -1, -1}},
		{Op: OpFAddF32, N: 8, Dst: 24, Src: [3]int32{0, 16, -1}},
		{Op: OpStoreGlobal32, N: 1, Dst: -1, Src: [3]int32{8, 24, -1}},
	}
	p.Blocks = []Block{{Start: 0, End: int32(len(p.Code)), Term: Term{Kind: TermReturn}, IPDom: NoBlock}}
	// The loaded vector, the moved lane and the id (the sum takes the
	// vector's registers as they die); 17 with lanes 17..23 counted.
	if got := p.Registers(); got > 8+1+1 {
		t.Errorf("Registers() = %d; the never-written lanes 17..23 are counted", got)
	}
}

func TestResultBits(t *testing.T) {
	for _, c := range []struct {
		op   Op
		bits int
	}{{OpFAddF16, 16}, {OpFAddF32, 32}, {OpFAddF64, 64}, {OpIAddU8, 8}, {OpIAddU16, 16},
		{OpCvtF32U8, 32}, {OpCvtU8F32, 8}, {OpCvtF64F32, 64}, {OpCvtS16S64, 16}, {OpFOrdEqualF16, 0}} {
		if got := c.op.resultBits(); got != c.bits {
			t.Errorf("%v: %d bits, want %d", c.op, got, c.bits)
		}
	}
}

// Local and private addresses are 32-bit offsets (one register), global
// ones 64-bit addresses (two): four addresses into a work-group's arrays,
// computed before a loop and live through it as LLVM hoists them, cost a
// Rodinia hotspot-shaped kernel four registers, not eight (34 registers
// kept its 16×16 work-groups off a Mali-G52 core; 27 do not).
func TestLocalAddressesTakeOneRegister(t *testing.T) {
	regs := func(space Space) int {
		// Slot 0 the builtin id, 1 the array's base (an argument), 2..5
		// four addresses at different strides, 6..9 the values loaded
		// through them, 10 their sum.
		p := &Program{Regs: 12, ConstDataSlot: -1}
		p.Builtins = []BuiltinSlot{{Slot: 0, N: 1, Bits: 32}}
		p.Params = []Param{{Slot: 1}}
		for k := range int32(4) {
			p.Code = append(p.Code, Inst{Op: OpAddrIdx32, N: 1, Dst: 2 + k, Src: [3]int32{1, 0, -1}, Space: space, Imm: int64(4 << k), Aux: 32})
		}
		load := OpLoadLocal32
		if space == SpaceGlobal {
			load = OpLoadGlobal32
		}
		for k := range int32(4) {
			p.Code = append(p.Code, Inst{Op: load, N: 1, Dst: 6 + k, Src: [3]int32{2 + k, -1, -1}, Space: space})
		}
		p.Code = append(p.Code,
			Inst{Op: OpFAddF32, N: 1, Dst: 10, Src: [3]int32{6, 7, -1}},
			Inst{Op: OpFAddF32, N: 1, Dst: 10, Src: [3]int32{10, 8, -1}},
			Inst{Op: OpFAddF32, N: 1, Dst: 10, Src: [3]int32{10, 9, -1}},
			Inst{Op: OpStoreGlobal32, N: 1, Dst: -1, Src: [3]int32{1, 10, -1}})
		p.Blocks = []Block{{Start: 0, End: int32(len(p.Code)), Term: Term{Kind: TermReturn}, IPDom: NoBlock}}
		return p.Registers()
	}
	local, private, global := regs(SpaceLocal), regs(SpacePrivate), regs(SpaceGlobal)
	if local != 4 || private != 4 {
		t.Errorf("four local addresses: %d registers, four private ones %d; want 4 (one register an address)", local, private)
	}
	if global != 8 {
		t.Errorf("four global addresses: %d registers, want 8 (two registers an address)", global)
	}
}
