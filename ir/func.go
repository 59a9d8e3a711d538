package ir

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// fn lowers one instance of a function: the entry, or a callee being
// inlined at one call site. SPIR-V ids are module-unique, but a function
// inlined twice needs two sets of slots, so each instance maps ids itself.
type fn struct {
	b    *builder
	vals map[uint32]*value
	// pending holds results that alias another value's slots (extracts,
	// copies, same-layout bitcasts); they are resolved on first use, since
	// raw llvm-spirv output may use a value before the block defining it.
	pending map[uint32]*spirv.Inst
	labels  map[uint32]int32
	phis    map[uint32][]*spirv.Inst
	// curLabel is the SPIR-V label of the block being lowered (several IR
	// blocks share it after calls and barriers split it).
	curLabel uint32
	// For a callee: where returns go and where the result lands.
	cont   int32
	result *value
	funcID uint32
}

func (b *builder) newFunc(parent *fn) *fn {
	return &fn{b: b, vals: map[uint32]*value{}, pending: map[uint32]*spirv.Inst{},
		labels: map[uint32]int32{}, phis: map[uint32][]*spirv.Inst{}, cont: NoBlock}
}

// get returns what is known of id.
func (f *fn) get(id uint32) (*value, error) {
	if v := f.vals[id]; v != nil {
		return v, nil
	}
	if v := f.b.globals[id]; v != nil {
		return v, nil
	}
	if inst := f.pending[id]; inst != nil {
		delete(f.pending, id)
		v, err := f.resolveAlias(inst)
		if err != nil {
			return nil, err
		}
		f.vals[id] = v
		return v, nil
	}
	if d := f.b.m.Def(id); d != nil && d.Op == spirv.OpFunction {
		return &value{slot: -1, function: true}, nil
	}
	return nil, &Error{Msg: fmt.Sprintf("%s is used where it is not available (defined in another function, or a forward use the builder cannot follow)", f.b.m.Name(id))}
}

// typeOfID gives an id's type without resolving it.
func (f *fn) typeOfID(id uint32) *Type {
	if v := f.vals[id]; v != nil {
		return v.t
	}
	if v := f.b.globals[id]; v != nil {
		return v.t
	}
	if d := f.b.m.Def(id); d != nil && d.Type != 0 {
		return f.b.types[d.Type]
	}
	return nil
}

func (f *fn) block() *Block { return &f.b.p.Blocks[f.b.cur] }

func (f *fn) newBlock(label uint32) int32 {
	f.b.p.Blocks = append(f.b.p.Blocks, Block{Start: -1, IPDom: NoBlock, Label: label})
	return int32(len(f.b.p.Blocks) - 1)
}

// open makes block i current and starts its code here.
func (f *fn) open(i int32) {
	f.b.cur = i
	f.b.p.Blocks[i].Start = int32(len(f.b.p.Code))
}

// close ends the current block with a terminator.
func (f *fn) close(t Term, succs ...Edge) {
	blk := f.block()
	blk.End = int32(len(f.b.p.Code))
	blk.Term = t
	blk.Succs = succs
}

// entryFunction lowers the entry point: its parameters become the kernel's
// arguments and its body is inlined after the prologue.
func (b *builder) entryFunction() error {
	fi := b.m.Def(b.ep.Func)
	if fi == nil || fi.Op != spirv.OpFunction {
		return &Error{Msg: "entry point function is missing"}
	}
	body := b.functionBody(b.ep.Func)
	var args []*value
	for _, inst := range body {
		if inst.Op != spirv.OpFunctionParameter {
			continue
		}
		v, err := b.kernelParam(inst)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	// The prologue (block 0) holds the code module-level instructions
	// emitted; close it before the function's code follows.
	b.p.Blocks[0].End = int32(len(b.p.Code))
	f := b.newFunc(nil)
	entry, err := f.inline(b.ep.Func, args, NoBlock, nil, fi)
	if err != nil {
		return err
	}
	p := &b.p.Blocks[0]
	p.Term = Term{Kind: TermBranch}
	p.Succs = []Edge{{To: entry}}
	b.nameParams(body)
	return nil
}

// nameParams gives OpenCL parameters the names of the kernel function the
// entry wrapper calls, when the wrapper's own parameters are unnamed.
func (b *builder) nameParams(body []*spirv.Inst) {
	for _, inst := range body {
		if inst.Op != spirv.OpFunctionCall || len(inst.Operands) < 1 {
			continue
		}
		callee := b.functionBody(inst.Operands[0])
		i := 0
		for _, c := range callee {
			if c.Op != spirv.OpFunctionParameter {
				continue
			}
			if i < len(b.p.Params) && b.p.Params[i].Name == "" {
				b.p.Params[i].Name = b.m.Names[c.Result]
			}
			i++
		}
		return
	}
}

// hasBlocks reports whether a function's instructions hold a block: a
// declaration (OpFunction, its parameters, OpFunctionEnd) holds none.
func hasBlocks(body []*spirv.Inst) bool {
	for _, inst := range body {
		if inst.Op == spirv.OpLabel {
			return true
		}
	}
	return false
}

func (b *builder) functionBody(id uint32) []*spirv.Inst {
	i := int32(-1)
	if id < uint32(len(b.m.Defs)) {
		i = b.m.Defs[id]
	}
	if i < 0 {
		return nil
	}
	var out []*spirv.Inst
	for j := int(i) + 1; j < len(b.m.Insts); j++ {
		inst := &b.m.Insts[j]
		if inst.Op == spirv.OpFunctionEnd {
			break
		}
		out = append(out, inst)
	}
	return out
}

// kernelParam turns an OpenCL kernel parameter into a Param.
func (b *builder) kernelParam(inst *spirv.Inst) (*value, error) {
	t, err := b.typ(inst, inst.Type)
	if err != nil {
		return nil, err
	}
	p := Param{Name: b.m.Names[inst.Result], Type: t}
	attr := func(a spirv.FunctionParameterAttribute) bool {
		for _, d := range b.m.Decorations[inst.Result] {
			if d.Kind == spirv.DecorationFuncParamAttr && len(d.Args) > 0 && spirv.FunctionParameterAttribute(d.Args[0]) == a {
				return true
			}
		}
		return false
	}
	_, nonWritable := b.decor(inst.Result, spirv.DecorationNonWritable)
	switch t.Kind {
	case KindPointer:
		p.Elem = t.Elem
		switch t.Storage {
		case spirv.StorageClassCrossWorkgroup:
			p.Kind = ParamGlobal
			p.ReadOnly = nonWritable || attr(spirv.FunctionParameterAttributeNoWrite)
		case spirv.StorageClassUniformConstant:
			p.Kind = ParamConstant
			p.ReadOnly = true
		case spirv.StorageClassWorkgroup:
			p.Kind = ParamLocal
		case spirv.StorageClassFunction:
			// A struct passed by value: the dispatcher copies its bytes
			// into every work-item's frame, the parameter holds their offset.
			p.Kind = ParamValue
			p.Type = t.Elem
			off := b.privateVar(t.Elem, nil)
			p.Slot = b.alloc(1)
			p.ByValOffset = off
			b.p.Params = append(b.p.Params, p)
			return &value{slot: p.Slot, t: t}, nil
		default:
			return nil, b.errf(inst, "kernel parameter in storage class %s is not supported", t.Storage)
		}
		p.Slot = b.alloc(1)
	case KindImage:
		p.Kind, p.Image, p.Slot = ParamImage, t.Image, b.alloc(1)
	case KindSampler:
		p.Kind, p.Slot = ParamSampler, b.alloc(1)
	case KindBool, KindInt, KindFloat, KindVector, KindStruct, KindArray:
		p.Kind, p.Slot = ParamValue, b.alloc(t.Slots)
	default:
		return nil, b.errf(inst, "kernel parameter of type %s is not supported", t)
	}
	p.ByValOffset = -1
	b.p.Params = append(b.p.Params, p)
	return &value{slot: p.Slot, t: t}, nil
}

// inline lowers function id with the given arguments. Returns go to cont
// with the returned value copied into result; for the entry function cont
// is NoBlock and returns end the work-item. It returns the function's first
// block.
func (f *fn) inline(id uint32, args []*value, cont int32, result *value, call *spirv.Inst) (int32, error) {
	b := f.b
	for _, active := range b.inlining {
		if active == id {
			return 0, b.errf(call, "recursive call to %s: recursion is not allowed in kernels and shaders", b.m.Name(id))
		}
	}
	if len(b.inlining) > 64 {
		return 0, b.errf(call, "calls nested more than 64 deep")
	}
	b.inlining = append(b.inlining, id)
	defer func() { b.inlining = b.inlining[:len(b.inlining)-1] }()

	g := b.newFunc(f)
	g.cont, g.result, g.funcID = cont, result, id
	body := b.functionBody(id)
	if !hasBlocks(body) {
		// A declaration: its parameters and no block.
		return 0, b.errf(call, "function %s has no body (an import the module does not define)", b.m.Name(id))
	}
	// Pre-pass: parameters, labels, phis and result slots.
	pi := 0
	for _, inst := range body {
		switch inst.Op {
		case spirv.OpFunctionParameter:
			if pi >= len(args) {
				return 0, b.errf(inst, "call passes %d arguments, %s takes more", len(args), b.m.Name(id))
			}
			g.vals[inst.Result] = args[pi]
			pi++
		case spirv.OpLabel:
			g.labels[inst.Result] = g.newBlock(inst.Result)
		}
	}
	if pi != len(args) {
		return 0, b.errf(call, "call passes %d arguments, %s takes %d", len(args), b.m.Name(id), pi)
	}
	var label uint32
	for _, inst := range body {
		switch inst.Op {
		case spirv.OpLabel:
			label = inst.Result
		case spirv.OpPhi:
			g.phis[label] = append(g.phis[label], inst)
		}
		if inst.Op != spirv.OpFunctionParameter && inst.Op != spirv.OpLabel {
			if err := g.allocResult(inst); err != nil {
				return 0, err
			}
		}
	}
	// Emission, in module order.
	first := NoBlock
	open := false
	for _, inst := range body {
		if inst.Op == spirv.OpFunctionParameter {
			continue
		}
		switch inst.Op {
		case spirv.OpLine:
			b.setLine(inst)
		case spirv.OpNoLine, spirv.OpLabel:
			b.srcFile, b.srcLine = "", 0
		case spirv.OpExtInst:
			b.debugLine(inst)
		}
		if inst.Op == spirv.OpLabel {
			if open {
				return 0, b.errf(inst, "block %s has no terminator", b.m.Name(g.curLabel))
			}
			g.curLabel = inst.Result
			g.open(g.labels[inst.Result])
			if first == NoBlock {
				first = g.labels[inst.Result]
			}
			open = true
			continue
		}
		if !open {
			return 0, b.errf(inst, "instruction outside a block")
		}
		done, err := g.lowerBody(inst)
		if err != nil {
			return 0, err
		}
		if done {
			open = false
		}
	}
	if open {
		return 0, b.errf(call, "function %s ends without a terminator", b.m.Name(id))
	}
	return first, nil
}

// aliasOps produce results that share their operand's slots.
var aliasOps = map[spirv.Op]bool{
	spirv.OpCompositeExtract: true, spirv.OpCopyObject: true, spirv.OpCopyLogical: true,
	spirv.OpImage: true, spirv.OpExpectKHR: true,
}

// allocResult gives an instruction's result its slots, or defers it as an
// alias.
func (f *fn) allocResult(inst *spirv.Inst) error {
	if inst.Result == 0 || inst.Type == 0 {
		return nil
	}
	b := f.b
	t, err := b.typ(inst, inst.Type)
	if err != nil {
		return err
	}
	if aliasOps[inst.Op] || f.isAliasCast(inst, t) || f.isBuiltinAccess(inst) {
		f.pending[inst.Result] = inst
		return nil
	}
	switch inst.Op {
	case spirv.OpVariable:
		if len(inst.Operands) < 1 || spirv.StorageClass(inst.Operands[0]) != spirv.StorageClassFunction {
			return b.errf(inst, "function-scope variable not in the Function storage class")
		}
		off := b.privateVar(t.Elem, nil)
		f.vals[inst.Result] = &value{slot: b.constSlots([]uint64{uint64(off)}), t: t}
		return nil
	case spirv.OpUndef:
		f.vals[inst.Result] = &value{slot: b.constSlots(make([]uint64, t.Slots)), t: t, konst: make([]uint64, t.Slots)}
		return nil
	}
	n := t.Slots
	if t.Kind == KindVoid {
		n = 0
	}
	f.vals[inst.Result] = &value{slot: b.alloc(n), t: t}
	return nil
}

// isAliasCast reports bitcasts and pointer/integer conversions that keep
// the slot layout: the executor holds every value as zero-extended bits, so
// f32<->u32 or pointer<->u64 is the same slot.
func (f *fn) isAliasCast(inst *spirv.Inst, t *Type) bool {
	switch inst.Op {
	case spirv.OpBitcast, spirv.OpConvertPtrToU, spirv.OpConvertUToPtr, spirv.OpPtrCastToGeneric, spirv.OpGenericCastToPtr:
	default:
		return false
	}
	if len(inst.Operands) < 1 {
		return false
	}
	src := f.typeOfID(inst.Operands[0])
	return src != nil && sameSlotLayout(src, t)
}

func sameSlotLayout(a, b *Type) bool {
	if a.Slots != b.Slots {
		return false
	}
	bitsOf := func(t *Type) int {
		s := t.Scalar()
		if s.Kind == KindPointer {
			return 64
		}
		return s.Bits
	}
	return (a.IsScalar() || a.Kind == KindVector || a.Kind == KindPointer) &&
		(b.IsScalar() || b.Kind == KindVector || b.Kind == KindPointer) && bitsOf(a) == bitsOf(b)
}

// isBuiltinAccess reports loads and access chains through a builtin input
// (or an image/sampler resource variable), which read slots directly.
func (f *fn) isBuiltinAccess(inst *spirv.Inst) bool {
	switch inst.Op {
	case spirv.OpLoad, spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
	default:
		return false
	}
	return len(inst.Operands) > 0 && f.builtinPtr(inst.Operands[0])
}

func (f *fn) builtinPtr(id uint32) bool {
	if v := f.b.globals[id]; v != nil {
		return v.builtin
	}
	if v := f.vals[id]; v != nil {
		return v.builtin
	}
	d := f.b.m.Def(id)
	if d != nil && (d.Op == spirv.OpAccessChain || d.Op == spirv.OpInBoundsAccessChain) && len(d.Operands) > 0 {
		return f.builtinPtr(d.Operands[0])
	}
	return false
}

// resolveAlias computes an aliasing result's slots.
func (f *fn) resolveAlias(inst *spirv.Inst) (*value, error) {
	b := f.b
	t, _ := b.typ(inst, inst.Type)
	ops := inst.Operands
	src, err := f.get(ops[0])
	if err != nil {
		return nil, err
	}
	switch inst.Op {
	case spirv.OpCompositeExtract:
		off, et, err := f.compositeOffset(inst, src.t, ops[1:])
		if err != nil {
			return nil, err
		}
		v := &value{slot: src.slot + int32(off), t: et}
		if src.isConst() {
			v.konst = src.konst[off : off+et.Slots]
		}
		v.t = t
		return v, nil
	case spirv.OpLoad:
		if !src.builtin {
			break
		}
		return &value{slot: src.bslot, t: t}, nil
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		off, _, err := f.compositeOffsetIDs(inst, src.t.Elem, ops[1:])
		if err != nil {
			return nil, err
		}
		return &value{slot: -1, t: t, builtin: true, bslot: src.bslot + int32(off)}, nil
	}
	// Copies and same-layout casts.
	v := *src
	v.t = t
	return &v, nil
}

// compositeOffset walks literal indices into a composite: the slot offset
// and the type reached.
func (f *fn) compositeOffset(inst *spirv.Inst, t *Type, idx []uint32) (int, *Type, error) {
	off := 0
	for _, i := range idx {
		switch t.Kind {
		case KindVector, KindMatrix, KindArray:
			if int(i) >= t.Len {
				return 0, nil, f.b.errf(inst, "index %d out of range for %s", i, t)
			}
			off += int(i) * t.Elem.Slots
			t = t.Elem
		case KindStruct:
			if int(i) >= len(t.Members) {
				return 0, nil, f.b.errf(inst, "member %d out of range for %s", i, t)
			}
			for j := 0; j < int(i); j++ {
				off += t.Members[j].Slots
			}
			t = t.Members[i]
		default:
			return 0, nil, f.b.errf(inst, "cannot index into %s", t)
		}
	}
	return off, t, nil
}

// compositeOffsetIDs is compositeOffset with constant-id indices.
func (f *fn) compositeOffsetIDs(inst *spirv.Inst, t *Type, ids []uint32) (int, *Type, error) {
	lits := make([]uint32, len(ids))
	for i, id := range ids {
		v, err := f.get(id)
		if err != nil {
			return 0, nil, err
		}
		if !v.isConst() {
			return 0, nil, f.b.errf(inst, "a builtin or resource is indexed by a non-constant value")
		}
		lits[i] = uint32(v.konst[0])
	}
	return f.compositeOffset(inst, t, lits)
}

func (f *fn) emit(in Inst) { f.b.emit(in) }

func (f *fn) site(inst *spirv.Inst) int32 { return f.b.site(inst) }

// out gives an instruction's result value (allocated in the pre-pass).
func (f *fn) out(inst *spirv.Inst) *value { return f.vals[inst.Result] }

// edge builds the edge from the current SPIR-V block to label, with the
// phi copies for that edge.
func (f *fn) edge(inst *spirv.Inst, label uint32) (Edge, error) {
	to, ok := f.labels[label]
	if !ok {
		return Edge{}, f.b.errf(inst, "branch to %s, which is not a block of this function", f.b.m.Name(label))
	}
	e := Edge{To: to}
	for _, phi := range f.phis[label] {
		dst := f.vals[phi.Result]
		found := false
		for k := 0; k+1 < len(phi.Operands); k += 2 {
			if phi.Operands[k+1] != f.curLabel {
				continue
			}
			src, err := f.get(phi.Operands[k])
			if err != nil {
				return Edge{}, err
			}
			if dst.t.Slots > 0 && src.slot >= 0 && src.slot != dst.slot {
				e.Moves = append(e.Moves, Move{Dst: dst.slot, Src: src.slot, N: uint16(dst.t.Slots)})
			}
			found = true
			break
		}
		if !found {
			return Edge{}, f.b.errf(phi, "OpPhi has no value for predecessor %s", f.b.m.Name(f.curLabel))
		}
	}
	for i, a := range e.Moves {
		for j, c := range e.Moves {
			if i != j && overlaps(a.Dst, a.N, c.Src, c.N) {
				e.Overlap = true
			}
		}
	}
	return e, nil
}

func overlaps(a int32, an uint16, b int32, bn uint16) bool {
	return a < b+int32(bn) && b < a+int32(an)
}

// lowerBody lowers one instruction of a function body; done reports a
// terminator.
func (f *fn) lowerBody(inst *spirv.Inst) (done bool, err error) {
	b := f.b
	ops := inst.Operands
	switch inst.Op {
	case spirv.OpBranch:
		e, err := f.edge(inst, ops[0])
		if err != nil {
			return false, err
		}
		f.close(Term{Kind: TermBranch, Site: f.site(inst)}, e)
		return true, nil
	case spirv.OpBranchConditional:
		c, err := f.get(ops[0])
		if err != nil {
			return false, err
		}
		t, err := f.edge(inst, ops[1])
		if err != nil {
			return false, err
		}
		e, err := f.edge(inst, ops[2])
		if err != nil {
			return false, err
		}
		f.close(Term{Kind: TermCond, Cond: c.slot, Site: f.site(inst)}, t, e)
		return true, nil
	case spirv.OpSwitch:
		sel, err := f.get(ops[0])
		if err != nil {
			return false, err
		}
		def, err := f.edge(inst, ops[1])
		if err != nil {
			return false, err
		}
		words := 1
		if sel.t.Scalar().Bits == 64 {
			words = 2
		}
		term := Term{Kind: TermSwitch, Cond: sel.slot, Site: f.site(inst)}
		succs := []Edge{def}
		for k := 2; k < len(ops); k += words + 1 {
			if k+words >= len(ops) {
				return false, b.errf(inst, "malformed OpSwitch: a case without a label")
			}
			lit := uint64(ops[k])
			if words == 2 {
				lit |= uint64(ops[k+1]) << 32
			}
			e, err := f.edge(inst, ops[k+words])
			if err != nil {
				return false, err
			}
			term.Cases = append(term.Cases, maskBits(lit, sel.t.Scalar().Bits))
			succs = append(succs, e)
		}
		f.close(term, succs...)
		return true, nil
	case spirv.OpReturn, spirv.OpReturnValue:
		if f.cont == NoBlock {
			f.close(Term{Kind: TermReturn, Site: f.site(inst)})
			return true, nil
		}
		e := Edge{To: f.cont}
		if inst.Op == spirv.OpReturnValue && f.result != nil && f.result.t.Slots > 0 {
			v, err := f.get(ops[0])
			if err != nil {
				return false, err
			}
			if v.slot >= 0 {
				e.Moves = []Move{{Dst: f.result.slot, Src: v.slot, N: uint16(f.result.t.Slots)}}
			}
		}
		f.close(Term{Kind: TermBranch, Site: f.site(inst)}, e)
		return true, nil
	case spirv.OpKill, spirv.OpTerminateInvocation:
		f.close(Term{Kind: TermKill, Site: f.site(inst)})
		return true, nil
	case spirv.OpUnreachable:
		f.close(Term{Kind: TermUnreachable, Site: f.site(inst)})
		return true, nil
	case spirv.OpControlBarrier:
		return false, f.barrier(inst)
	case spirv.OpFunctionCall:
		return false, f.call(inst)
	case spirv.OpPhi, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpLine, spirv.OpNoLine,
		spirv.OpNop, spirv.OpLifetimeStart, spirv.OpLifetimeStop, spirv.OpMemoryBarrier,
		spirv.OpUndef, spirv.OpGroupWaitEvents, spirv.OpAssumeTrueKHR:
		return false, nil
	case spirv.OpVariable:
		if len(ops) > 1 {
			// An initialised function variable is (re)initialised where it
			// is declared.
			ptr := f.vals[inst.Result]
			init, err := f.get(ops[1])
			if err != nil {
				return false, err
			}
			return false, f.store(inst, ptr, init)
		}
		return false, nil
	}
	if _, ok := f.pending[inst.Result]; ok && inst.Result != 0 {
		// Aliases cost nothing; resolve now so errors surface in order.
		_, err := f.get(inst.Result)
		return false, err
	}
	if inst.Result != 0 && f.vals[inst.Result] != nil && f.vals[inst.Result].builtin {
		return false, nil
	}
	return false, f.lower(inst)
}

// barrier ends the block at a work-group barrier.
func (f *fn) barrier(inst *spirv.Inst) error {
	ops := inst.Operands
	scope := func(i int) uint32 {
		if v, err := f.get(ops[i]); err == nil && v.isConst() {
			return uint32(v.konst[0])
		}
		return uint32(spirv.ScopeWorkgroup)
	}
	exec := scope(0)
	if exec == uint32(spirv.ScopeSubgroup) || exec == uint32(spirv.ScopeInvocation) {
		// Lanes of a warp run in lockstep: a subgroup barrier is a no-op.
		return nil
	}
	f.b.p.UsesBarrier = true
	next := f.newBlock(f.curLabel)
	f.close(Term{Kind: TermBarrier, ExecScope: exec, MemScope: scope(1), Semantics: scope(2), Site: f.site(inst)}, Edge{To: next})
	f.open(next)
	return nil
}

// call inlines a function call: the current block branches to the callee,
// whose returns branch to a new block that continues this one.
func (f *fn) call(inst *spirv.Inst) error {
	ops := inst.Operands
	var args []*value
	for _, id := range ops[1:] {
		v, err := f.get(id)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	cont := f.newBlock(f.curLabel)
	entry, err := f.inlineFrom(ops[0], args, cont, f.vals[inst.Result], inst)
	if err != nil {
		return err
	}
	_ = entry
	return nil
}

func (f *fn) inlineFrom(callee uint32, args []*value, cont int32, result *value, inst *spirv.Inst) (int32, error) {
	// Close the caller's current block with a branch to the callee; the
	// callee's code follows in Code, then the continuation opens.
	here := f.b.cur
	f.block().End = int32(len(f.b.p.Code))
	// The callee's lines are its own; the caller's resume after it.
	file, line := f.b.srcFile, f.b.srcLine
	entry, err := f.inline(callee, args, cont, result, inst)
	if err != nil {
		return 0, err
	}
	f.b.srcFile, f.b.srcLine = file, line
	blk := &f.b.p.Blocks[here]
	blk.Term = Term{Kind: TermBranch, Site: f.site(inst)}
	blk.Succs = []Edge{{To: entry}}
	f.open(cont)
	return entry, nil
}
