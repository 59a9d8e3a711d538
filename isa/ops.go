package isa

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// OpKind is what a machine operation does to the engine.
type OpKind uint8

const (
	OpALU     OpKind = iota // runs on an execution pipe
	OpMessage               // a message to a unit outside the engine (memory, texture)
	OpBranch                // the block's terminator
	OpBarrier               // a barrier terminator (a message on Bifrost)
)

// Operand kinds: where a value comes from.
const (
	FromReg   uint8 = iota // the register file
	FromArg                // a uniform (kernel argument, constant-data address)
	FromConst              // a constant embedded in the code
)

// Operand is one IR slot a machine operation reads and the 32-bit register
// words it costs (a packed chunk puts its words on its first slot).
type Operand struct {
	Slot  int32
	Words uint8
	From  uint8
}

// MachineOp is one machine operation.
type MachineOp struct {
	Inst   int32 // IR instruction, -1 for a phi copy, -2 for the terminator, InstSpill for a spill
	Class  int16 // index into ClassNames
	Kind   OpKind
	Pipes  []int   // pipes that can run it (ALU)
	Cost   float64 // busy cycles on one of them, from arch IssueCycles
	Comps  int     // components it covers per thread
	Reads  []Operand
	Writes []int32 // slots it writes: ALU results, or a message's results
	WWords int     // register words an ALU op writes
	SFU    bool
	Prev   int32 // the previous operation of the same expansion chain, -1
	Priv   bool  // a private-memory access (ordered among themselves)
	// Messages.
	Space ir.Space
	Bytes int // bytes per thread
	// Spill is a spill store or reload (Inst is InstSpill).
	Spill *SpillMsg
}

// InstSpill is the Inst of a spill store or reload: the lowering's, not an
// IR instruction.
const InstSpill = -3

// lowerer holds what lowering a program for one GPU needs.
type lowerer struct {
	p    *ir.Program
	g    *arch.GPU
	w    int
	fam  Family
	from []uint8 // per slot: fromReg, fromArg or fromConst
	cost map[costKey]costVal
	pipe map[string]int
	live []bitset // live-in slots per block (phi-copy coalescing)
	ops  []MachineOp
	// pipeOps counts the machine operations placed on each pipe.
	pipeOps []int
	// spill is the spill choice (nil: nothing spilled) and lv the
	// liveness it was made on.
	spill *spillPlan
	lv    *ir.Liveness
}

type costKey struct {
	class string
	comps int
}

type costVal struct {
	pipes []int
	cost  float64
}

func newLowerer(p *ir.Program, g *arch.GPU, w int, f Family) (*lowerer, error) {
	l := &lowerer{p: p, g: g, w: w, fam: f, cost: map[costKey]costVal{}, pipe: map[string]int{}, pipeOps: make([]int, len(g.Pipes))}
	for i, pp := range g.Pipes {
		l.pipe[pp.Name] = i
	}
	l.from = make([]uint8, p.Regs)
	for _, c := range p.Consts {
		if int(c.Slot) < len(l.from) {
			l.from[c.Slot] = FromConst
		}
	}
	for _, par := range p.Params {
		n := 1
		if par.Type != nil {
			n = max(par.Type.Slots, 1)
		}
		for k := 0; k < n && int(par.Slot)+k < len(l.from); k++ {
			if par.Slot >= 0 {
				l.from[int(par.Slot)+k] = FromArg
			}
		}
	}
	if p.ConstDataSlot >= 0 && int(p.ConstDataSlot) < len(l.from) {
		l.from[p.ConstDataSlot] = FromArg
	}
	for i := range p.Code {
		if err := l.checkInst(int32(i)); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// classCost is the pipes and cycles of one machine operation of class
// covering comps components, at the lowering's warp width.
func (l *lowerer) classCost(class string, comps int) (costVal, error) {
	k := costKey{class, comps}
	if v, ok := l.cost[k]; ok {
		return v, nil
	}
	names, c := l.g.IssueCycles(class, l.w, comps)
	if len(names) == 0 || c <= 0 {
		return costVal{}, fmt.Errorf("no cost for %s", class)
	}
	v := costVal{cost: c}
	for _, n := range names {
		v.pipes = append(v.pipes, l.pipe[n])
	}
	l.cost[k] = v
	return v, nil
}

// inPasses reports whether a machine operation of class runs in several
// passes of lanes_per_engine lanes that the GPU skips when all their lanes
// are inactive (execution.skips_idle_passes): the warp is wider than the
// engine and the class covers fewer lanes a cycle than the warp has (a
// wave128 FP32 operation on a 64-wide partition, not its double-rate
// FP16), or is a sequence of such instructions (cycles_per_warp).
func (l *lowerer) inPasses(class int16) bool {
	lanes := l.g.PassLanes(l.w)
	if lanes == 0 || int(class) >= len(ClassNames) {
		return false
	}
	op, ok := l.g.Op(ClassNames[class])
	if !ok {
		return false
	}
	return op.CyclesPerWarp > 0 || float64(lanes)*op.Rate < float64(l.w)
}

// pack is how many components one machine operation of class covers.
func (l *lowerer) pack(class string) int {
	if pk, ok := l.fam.(Packer); ok {
		return max(pk.Pack(l.g, class), 1)
	}
	if op, ok := l.g.Op(class); ok && op.Pack > 1 {
		return op.Pack
	}
	return 1
}

// expand replaces emulated classes by their sequences (arch expands_to).
func (l *lowerer) expand(classes []string) []string {
	var out []string
	for _, c := range classes {
		out = append(out, l.g.OpSequence(c)...)
	}
	return out
}

// checkInst refuses an instruction whose classes the GPU cannot execute.
func (l *lowerer) checkInst(i int32) error {
	in := &l.p.Code[i]
	for _, c := range l.instClasses(in) {
		for _, s := range l.g.OpSequence(c) {
			if op, ok := l.g.Op(s); !ok || op.Unsupported {
				return &UnsupportedError{GPU: l.g.ID, Class: s, Site: l.p.Sites[in.Site]}
			}
		}
	}
	return nil
}

// instClasses lists the ALU classes an instruction uses (for checkInst).
func (l *lowerer) instClasses(in *ir.Inst) []string {
	if in.Op == ir.OpExt {
		c := &l.p.Ext[in.Aux]
		steps, _ := extSteps(c)
		f, b := tagInfo(c.Tag)
		var out []string
		for _, s := range steps {
			out = append(out, resolve(s, f, b)...)
		}
		return out
	}
	if gen, ok := genInfo(in.Op); ok {
		var out []string
		for _, s := range gen.steps {
			out = append(out, resolve(s, gen.float, gen.bits)...)
		}
		return out
	}
	return nil
}

// words is the 32-bit register words k components of a type of the given
// bits occupy.
func words(bitsPer, k int) int {
	if bitsPer >= 64 {
		return 2 * k
	}
	return max((k*bitsPer+31)/32, 1)
}

// span lists the operands of slots [s, s+k) of a type of bitsPer bits.
func (l *lowerer) span(s int32, k, bitsPer int) []Operand {
	if s < 0 {
		return nil
	}
	out := make([]Operand, 0, k)
	w := words(bitsPer, k)
	for j := 0; j < k; j++ {
		o := Operand{Slot: s + int32(j), From: l.fromOf(s + int32(j))}
		if j == 0 {
			o.Words = uint8(min(w, 255))
		}
		out = append(out, o)
	}
	return out
}

func (l *lowerer) fromOf(s int32) uint8 {
	if s >= 0 && int(s) < len(l.from) {
		return l.from[s]
	}
	return FromReg
}

func slotsFrom(s int32, k int) []int32 {
	if s < 0 {
		return nil
	}
	out := make([]int32, k)
	for j := range out {
		out[j] = s + int32(j)
	}
	return out
}

// chain appends one machine operation per class (emulated classes
// expanded), each depending on the previous: the first reads the operands,
// the last writes the results. comps is the components each covers.
func (l *lowerer) chain(inst int32, classes []string, comps int, reads []Operand, writes []int32, wwords int) error {
	classes = l.expand(classes)
	first := true
	prev := int32(-1)
	for k, c := range classes {
		v, err := l.classCost(c, comps)
		if err != nil {
			return l.costErr(inst, c)
		}
		m := MachineOp{Inst: inst, Class: classIndex[c], Kind: OpALU, Pipes: v.pipes, Cost: v.cost, Comps: comps, Prev: prev, WWords: 1,
			SFU: strings.HasSuffix(c, "_sfu") || c == "fp32_div"}
		if first {
			m.Reads = reads
			first = false
		}
		if k == len(classes)-1 {
			m.Writes = writes
			m.WWords = max(wwords, 1)
		}
		l.ops = append(l.ops, m)
		prev = int32(len(l.ops) - 1)
	}
	return nil
}

func (l *lowerer) costErr(inst int32, class string) error {
	site := "a block terminator"
	if inst >= 0 {
		site = l.p.Sites[l.p.Code[inst].Site].String()
	}
	return &UnsupportedError{GPU: l.g.ID, Class: class, Site: ir.Site{Name: site}}
}

// elementwise lowers an instruction applied component by component: the
// components are cut into chunks one machine operation covers (the class's
// pack, or Adreno's repeat), each chunk a chain of the steps' classes.
func (l *lowerer) elementwise(inst int32, classes []string, n int, srcs []int32, bcast []bool, srcBits int, dst int32, dstBits int) error {
	classes = l.expand(classes)
	chunk := 1 << 30
	for _, c := range classes {
		chunk = min(chunk, l.pack(c))
	}
	chunk = max(chunk, 1)
	for a := 0; a < n; a += chunk {
		k := min(chunk, n-a)
		var reads []Operand
		for j, s := range srcs {
			if s < 0 {
				continue
			}
			if bcast != nil && bcast[j] {
				reads = append(reads, l.span(s, 1, srcBits)...)
				continue
			}
			reads = append(reads, l.span(s+int32(a), k, srcBits)...)
		}
		var writes []int32
		if dst >= 0 {
			writes = slotsFrom(dst+int32(a), k)
		}
		if err := l.chain(inst, classes, k, reads, writes, words(dstBits, k)); err != nil {
			return err
		}
	}
	return nil
}

// message appends a memory or texture message. Only its first operand (the
// address) goes through the register read ports: a message reads its data
// and coordinates as a block of staging registers named in the Bifrost
// clause header (Connor Abbott's Bifrost ISA notes, "Register field").
func (l *lowerer) message(inst int32, class string, reads []Operand, results []int32, space ir.Space, bytes int) {
	if len(reads) > 1 {
		reads = append([]Operand(nil), reads...)
		for k := 1; k < len(reads); k++ {
			reads[k].Words = 0
		}
	}
	l.ops = append(l.ops, MachineOp{Inst: inst, Class: classIndex[class], Kind: OpMessage, Cost: 1, Reads: reads, Writes: results,
		Prev: -1, Space: space, Bytes: bytes})
}

// addrBits is the width of an address slot in a space: 64-bit device
// addresses, 32-bit local and private offsets.
func addrBits(s ir.Space) int {
	if s == ir.SpaceGlobal {
		return 64
	}
	return 32
}

// instOps appends the machine operations of IR instruction i.
func (l *lowerer) instOps(i int32) error {
	in := &l.p.Code[i]
	n := int(in.N)
	if gen, ok := genInfo(in.Op); ok {
		classes := l.resolveAll(gen.steps, gen.float, gen.bits)
		srcs := in.Src[:]
		return l.elementwise(i, classes, n, srcs, nil, gen.srcBits, in.Dst, gen.dstBits)
	}
	if sp, b, store, ok := in.Op.MemInfo(); ok {
		if sp == ir.SpacePrivate {
			// The private frame lives in registers: a move per 32-bit word.
			reads := l.span(in.Src[0], 1, 32)
			var writes []int32
			if store {
				reads = append(reads, l.span(in.Src[1], n, b*8)...)
			} else {
				writes = slotsFrom(in.Dst, n)
			}
			start := len(l.ops)
			if err := l.chain(i, repeat("move", words(b*8, n)), 1, reads, writes, words(b*8, n)); err != nil {
				return err
			}
			for k := start; k < len(l.ops); k++ {
				l.ops[k].Priv = true
			}
			return nil
		}
		reads := l.span(in.Src[0], 1, addrBits(sp))
		var results []int32
		class := PseudoLoad
		if store {
			class = PseudoStore
			reads = append(reads, l.span(in.Src[1], n, b*8)...)
		} else {
			results = slotsFrom(in.Dst, n)
		}
		l.message(i, class, reads, results, sp, n*b)
		return nil
	}
	switch in.Op {
	case ir.OpNop:
		return nil
	case ir.OpMov:
		return l.elementwise(i, []string{"move"}, n, []int32{in.Src[0]}, nil, 32, in.Dst, 32)
	case ir.OpBroadcast:
		return l.elementwise(i, []string{"move"}, n, []int32{in.Src[0]}, []bool{true}, 32, in.Dst, 32)
	case ir.OpSelect:
		return l.elementwise(i, []string{"select"}, n, in.Src[:], []bool{in.Imm == 1, false, false}, 32, in.Dst, 32)
	case ir.OpExtractDyn:
		k := max(int(in.Imm), 1)
		reads := append(l.span(in.Src[0], k, 32), l.span(in.Src[1], 1, 32)...)
		return l.chain(i, repeatPair("int32_cmp", "select", k-1, "move"), 1, reads, slotsFrom(in.Dst, 1), 1)
	case ir.OpInsertDyn:
		reads := append(append(l.span(in.Src[0], n, 32), l.span(in.Src[1], 1, 32)...), l.span(in.Src[2], 1, 32)...)
		return l.chain(i, repeatPair("int32_cmp", "select", n, "move"), 1, reads, slotsFrom(in.Dst, n), n)
	case ir.OpRepack:
		r := &l.p.Repacks[in.Aux]
		reads := l.span(in.Src[0], r.FromN, r.FromBytes*8)
		k := max(r.FromN, r.ToN)
		class := "int32_logic" // unpacking or packing sub-words: a shift-and-mask each
		if r.FromBytes == r.ToBytes {
			class = "move"
		}
		return l.chain(i, repeat(class, k), 1, reads, slotsFrom(in.Dst, r.ToN), words(r.ToBytes*8, r.ToN))
	case ir.OpAddrImm:
		// Local and private addresses are 32-bit offsets; global ones
		// 64-bit addresses.
		if in.Space != ir.SpaceGlobal {
			class := "int32_add"
			if in.Imm == 0 {
				class = "move"
			}
			return l.chain(i, []string{class}, 1, l.span(in.Src[0], 1, 32), slotsFrom(in.Dst, 1), 1)
		}
		class := "int64_add"
		if in.Imm == 0 {
			class = "move"
		}
		return l.chain(i, []string{class}, 1, l.span(in.Src[0], 1, 64), slotsFrom(in.Dst, 1), 2)
	case ir.OpAddrIdx32, ir.OpAddrIdx64:
		wide := in.Op == ir.OpAddrIdx64
		ib := 32
		if wide {
			ib = 64
		}
		if in.Space != ir.SpaceGlobal {
			reads := append(l.span(in.Src[0], 1, 32), l.span(in.Src[1], 1, 32)...)
			return l.chain(i, scaleAdd32(in.Imm), 1, reads, slotsFrom(in.Dst, 1), 1)
		}
		reads := append(l.span(in.Src[0], 1, 64), l.span(in.Src[1], 1, ib)...)
		return l.chain(i, scaleAdd(in.Imm, wide), 1, reads, slotsFrom(in.Dst, 1), 2)
	case ir.OpPtrDiff:
		reads := append(l.span(in.Src[0], 1, 64), l.span(in.Src[1], 1, 64)...)
		classes := []string{"int64_add"}
		if d := in.Imm; d > 1 && d&(d-1) == 0 {
			classes = append(classes, "int32_shift", "int32_shift")
		} else if d > 1 {
			classes = append(classes, "int64_mul") // exact division: multiply by the inverse
		}
		return l.chain(i, classes, 1, reads, slotsFrom(in.Dst, 1), 2)
	case ir.OpIAddCarry32, ir.OpISubBorrow32:
		return l.twoResults(i, in, []string{"int32_add", "int32_cmp"}, 32)
	case ir.OpIAddCarry64, ir.OpISubBorrow64:
		return l.twoResults(i, in, []string{"int64_add", "int32_cmp", "int32_cmp"}, 64)
	case ir.OpUMulExtended32, ir.OpSMulExtended32:
		return l.twoResults(i, in, []string{"int32_mul", "int32_mul"}, 32)
	case ir.OpUMulExtended64, ir.OpSMulExtended64:
		return l.twoResults(i, in, []string{"int64_mul", "int64_mul", "int64_mul"}, 64)
	case ir.OpCopyMemory:
		c := &l.p.Copies[in.Aux]
		reads := append(l.span(in.Src[0], 1, addrBits(c.DstSpace)), l.span(in.Src[1], 1, addrBits(c.SrcSpace))...)
		if c.Bytes < 0 {
			reads = append(reads, l.span(in.Src[2], 1, 64)...)
		}
		l.message(i, PseudoLoad, reads, nil, c.SrcSpace, max(c.Bytes, 0))
		return nil
	case ir.OpAtomic:
		a := &l.p.Atomics[in.Aux]
		reads := l.span(a.Addr, 1, addrBits(a.Space))
		reads = append(reads, l.span(a.Value, 1, a.Bytes*8)...)
		reads = append(reads, l.span(a.Comp, 1, a.Bytes*8)...)
		l.message(i, PseudoAtomic, reads, slotsFrom(a.Dst, 1), a.Space, a.Bytes)
		return nil
	case ir.OpImage:
		return l.imageOps(i, in)
	case ir.OpExt:
		return l.extOps(i, in)
	}
	return fmt.Errorf("isa: no lowering for IR operation %s (%s)", in.Op, l.p.Sites[in.Site])
}

// twoResults lowers an operation writing a pair of N-component results
// (sum and carry, low and high halves).
func (l *lowerer) twoResults(i int32, in *ir.Inst, classes []string, b int) error {
	n := int(in.N)
	for c := 0; c < n; c++ {
		reads := append(l.span(in.Src[0]+int32(c), 1, b), l.span(in.Src[1]+int32(c), 1, b)...)
		writes := []int32{in.Dst + int32(c), in.Dst + int32(n+c)}
		if err := l.chain(i, classes, 1, reads, writes, 2*words(b, 1)); err != nil {
			return err
		}
	}
	return nil
}

// scaleAdd is base + index × scale on 64-bit addresses: a shift for a power
// of two (a widening multiply, low and high halves, otherwise), then a
// 64-bit add.
// scaleAdd32 is index × scale + base on 32-bit offsets (local and
// private memory).
func scaleAdd32(scale int64) []string {
	switch {
	case scale == 1 || scale == 0:
		return []string{"int32_add"}
	case scale > 0 && bits.OnesCount64(uint64(scale)) == 1:
		return []string{"int32_shift", "int32_add"}
	}
	return []string{"int32_mul", "int32_add"}
}

func scaleAdd(scale int64, wideIndex bool) []string {
	switch {
	case scale == 1 || scale == 0:
		return []string{"int64_add"}
	case scale > 0 && bits.OnesCount64(uint64(scale)) == 1:
		if wideIndex {
			return []string{"int32_shift", "int32_shift", "int64_add"}
		}
		return []string{"int32_shift", "int64_add"}
	case wideIndex:
		return []string{"int64_mul", "int64_add"}
	}
	return []string{"int32_mul", "int32_mul", "int64_add"}
}

func (l *lowerer) imageOps(i int32, in *ir.Inst) error {
	io := &l.p.Images[in.Aux]
	n := max(io.N, 1)
	switch io.Kind {
	case ir.ImageQuerySize, ir.ImageQueryFormat, ir.ImageQueryOrder, ir.ImageQueryLevels:
		// Read from the image descriptor (a uniform): moves.
		return l.chain(i, repeat("move", n), 1, l.span(io.Image, 1, 64), slotsFrom(io.Dst, n), n)
	}
	reads := l.span(io.Image, 1, 64)
	reads = append(reads, l.span(io.Sampler, 1, 32)...)
	cb := 32
	reads = append(reads, l.span(io.Coord, io.CoordN, cb)...)
	reads = append(reads, l.span(io.Lod, 1, 32)...)
	reads = append(reads, l.span(io.Bias, 1, 32)...)
	reads = append(reads, l.span(io.MinLod, 1, 32)...)
	reads = append(reads, l.span(io.GradX, io.GradN, 32)...)
	reads = append(reads, l.span(io.GradY, io.GradN, 32)...)
	texelBits := 32
	if io.ResultTag == "F16" {
		texelBits = 16
	}
	if io.Kind == ir.ImageWrite {
		reads = append(reads, l.span(io.Texel, n, texelBits)...)
		l.message(i, PseudoStore, reads, nil, ir.SpaceGlobal, n*texelBits/8)
		return nil
	}
	l.message(i, PseudoTexture, reads, slotsFrom(io.Dst, n), ir.SpaceGlobal, n*texelBits/8)
	return nil
}

func repeat(class string, k int) []string {
	out := make([]string, max(k, 1))
	for j := range out {
		out[j] = class
	}
	return out
}

// repeatPair is a, b repeated k times, or [alone] when k is 0.
func repeatPair(a, b string, k int, alone string) []string {
	if k <= 0 {
		return []string{alone}
	}
	out := make([]string, 0, 2*k)
	for j := 0; j < k; j++ {
		out = append(out, a, b)
	}
	return out
}

func (l *lowerer) resolveAll(steps []string, float bool, b int) []string {
	var out []string
	for _, s := range steps {
		out = append(out, resolve(s, float, b)...)
	}
	return out
}
