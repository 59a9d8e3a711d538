package spirv

import (
	"fmt"
)

// Operand is one parsed operand of an instruction: its kind and its words.
// Enumerant parameters (Decoration BuiltIn X, MemoryAccess Aligned n) follow
// their enum operand as operands of their own kinds; a pair (OpPhi,
// OpSwitch, OpGroupMemberDecorate) is two operands of its element kinds.
type Operand struct {
	Kind  OperandKind
	Pos   int      // index of the first word in Inst.Operands
	Words []uint32 // the operand's words (a slice of Inst.Operands)
}

// Operands parses inst's operands by the grammar. inst must belong to m (the
// widths of OpConstant values and OpSwitch literals come from the types
// that m defines).
func (m *Module) Operands(inst *Inst) ([]Operand, error) {
	p := operandParser{m: m}
	if err := p.parse(inst); err != nil {
		return nil, err
	}
	ops := make([]Operand, len(p.out))
	for i, s := range p.out {
		ops[i] = Operand{Kind: s.kind, Pos: int(s.pos), Words: s.words(inst)}
	}
	return ops, nil
}

// span is an Operand without the slice: the parser's output (pointer-free,
// so the decoder's hot loop has no write barriers).
type span struct {
	kind OperandKind
	pos  int32 // index of the first word in Inst.Operands
	n    int32 // number of words
}

func (s span) words(inst *Inst) []uint32 {
	return inst.Operands[s.pos : s.pos+s.n : s.pos+s.n]
}

// operandParser parses one instruction at a time; out is reused.
type operandParser struct {
	m     *Module
	check bool // check that id operands are defined
	inst  *Inst
	words []uint32
	pos   int
	done  bool // the operands were consumed by an ExtInst or SpecConstantOp sub-grammar
	out   []span
	// switchWidth is the number of words of an OpSwitch case literal, 0 until known.
	switchWidth int
}

// base is the word offset in the binary of inst.Operands[0].
func (p *operandParser) base() int {
	b := p.inst.Offset + 1
	info := p.inst.Op.Info()
	if info.HasType {
		b++
	}
	if info.HasResult {
		b++
	}
	return b
}

func (p *operandParser) errAt(pos int, format string, args ...any) error {
	return &DecodeError{Offset: p.base() + pos, Op: p.inst.Op, Msg: fmt.Sprintf(format, args...)}
}

// errInst reports a problem with the instruction as a whole (its word count),
// at its first word.
func (p *operandParser) errInst(format string, args ...any) error {
	return &DecodeError{Offset: p.inst.Offset, Op: p.inst.Op, Msg: fmt.Sprintf(format, args...)}
}

func (p *operandParser) parse(inst *Inst) error {
	info := inst.Op.Info()
	if info == nil {
		return &DecodeError{Offset: inst.Offset, Op: inst.Op, Msg: fmt.Sprintf("opcode %d is not in the SPIR-V %d.%d grammar", uint16(inst.Op), GrammarMajor, GrammarMinor)}
	}
	p.inst, p.words, p.pos, p.done, p.out, p.switchWidth = inst, inst.Operands, 0, false, p.out[:0], 0
	if err := p.list(info.Operands); err != nil {
		return err
	}
	if p.pos < len(p.words) {
		return p.errAt(p.pos, "%d word(s) after the last operand the grammar defines (word count %d)", len(p.words)-p.pos, p.wordCount())
	}
	return nil
}

func (p *operandParser) wordCount() int {
	return p.base() - p.inst.Offset + len(p.words)
}

func (p *operandParser) list(ops []OperandInfo) error {
	for i := range ops {
		if p.done {
			return nil
		}
		o := &ops[i]
		switch o.Quant {
		case QuantOne:
			if p.pos >= len(p.words) {
				return p.missing(o)
			}
			if err := p.one(o.Kind); err != nil {
				return err
			}
		case QuantOptional:
			if p.pos < len(p.words) {
				if err := p.one(o.Kind); err != nil {
					return err
				}
			}
		case QuantVariadic:
			for p.pos < len(p.words) && !p.done {
				if err := p.one(o.Kind); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (p *operandParser) missing(o *OperandInfo) error {
	what := o.Kind.String()
	if o.Name != "" {
		what = "'" + o.Name + "' (" + what + ")"
	}
	return p.errInst("word count %d is too small: operand %s is missing", p.wordCount(), what)
}

// emit records an operand of n words at p.pos and advances.
func (p *operandParser) emit(k OperandKind, n int) {
	p.out = append(p.out, span{kind: k, pos: int32(p.pos), n: int32(n)})
	p.pos += n
}

// one parses one operand of kind k; the caller made sure a word remains.
func (p *operandParser) one(k OperandKind) error {
	switch k.category() {
	case catID:
		id := p.words[p.pos]
		if p.check {
			if err := p.checkID(p.pos, id); err != nil {
				return err
			}
		}
		p.emit(k, 1)
		return nil
	case catValueEnum:
		v := p.words[p.pos]
		e := lookupEnum(k, v)
		if e == nil {
			return p.errAt(p.pos, "%d is not a %s in the SPIR-V %d.%d grammar", v, k, GrammarMajor, GrammarMinor)
		}
		p.emit(k, 1)
		return p.list(e.Params)
	case catBitEnum:
		v := p.words[p.pos]
		pos := p.pos
		p.emit(k, 1)
		for bit := uint32(1); bit != 0 && v != 0; bit <<= 1 {
			if v&bit == 0 {
				continue
			}
			v &^= bit
			e := lookupEnum(k, bit)
			if e == nil {
				return p.errAt(pos, "bit 0x%x is not a %s flag in the SPIR-V %d.%d grammar", bit, k, GrammarMajor, GrammarMinor)
			}
			if err := p.list(e.Params); err != nil {
				return err
			}
		}
		return nil
	case catComposite:
		b := pairBases[k]
		need := 2
		lit := 1
		if k == OperandKindPairLiteralIntegerIdRef {
			w, err := p.switchLiteralWords()
			if err != nil {
				return err
			}
			lit = w
			need = w + 1
		}
		if len(p.words)-p.pos < need {
			return p.errInst("word count %d leaves an incomplete %s (%d of %d words)", p.wordCount(), k, len(p.words)-p.pos, need)
		}
		if b[0] == OperandKindLiteralInteger {
			p.emit(b[0], lit)
		} else if err := p.one(b[0]); err != nil {
			return err
		}
		return p.one(b[1])
	case catOpaque:
		p.emit(k, 1)
		return nil
	}
	switch k {
	case OperandKindLiteralInteger:
		p.emit(k, 1)
	case OperandKindLiteralString:
		n, ok := stringWords(p.words[p.pos:])
		if !ok {
			return p.errAt(p.pos, "literal string has no terminating nul before the end of the instruction")
		}
		p.emit(k, n)
	case OperandKindLiteralContextDependentNumber:
		n, err := p.numberWords()
		if err != nil {
			return err
		}
		if rest := len(p.words) - p.pos; rest != n {
			return p.errAt(p.pos, "value of result type %s takes %d word(s), the instruction has %d", p.typeDesc(p.inst.Type), n, rest)
		}
		p.emit(k, n)
	case OperandKindLiteralExtInstInteger:
		return p.extInst()
	case OperandKindLiteralSpecConstantOpInteger:
		return p.specConstantOp()
	default:
		return p.errAt(p.pos, "operand kind %s has no decoding rule", k)
	}
	return nil
}

// checkID reports an id operand that no instruction defines.
func (p *operandParser) checkID(pos int, id uint32) error {
	if id == 0 || id >= uint32(len(p.m.Defs)) {
		return p.errAt(pos, "id %%%d is out of range (bound %d)", id, len(p.m.Defs))
	}
	if p.m.Defs[id] < 0 {
		return p.errAt(pos, "undefined id %%%d", id)
	}
	return nil
}

// typeDesc describes a type id for messages: "%5 (OpTypeFloat 32)".
func (p *operandParser) typeDesc(id uint32) string {
	d := p.m.Def(id)
	if d == nil {
		return fmt.Sprintf("%%%d (undefined)", id)
	}
	if (d.Op == OpTypeInt || d.Op == OpTypeFloat) && len(d.Operands) > 0 {
		return fmt.Sprintf("%%%d (%s %d)", id, d.Op, d.Operands[0])
	}
	return fmt.Sprintf("%%%d (%s)", id, d.Op)
}

// scalarWords gives the number of words of a literal of the integer or
// float type id: one per 32 bits (SPIR-V spec §2.2.1, "Literal").
func (p *operandParser) scalarWords(id uint32) (int, bool) {
	d := p.m.Def(id)
	if d == nil || (d.Op != OpTypeInt && d.Op != OpTypeFloat) || len(d.Operands) == 0 {
		return 0, false
	}
	w := d.Operands[0]
	if w == 0 {
		return 0, false
	}
	return int((uint64(w) + 31) / 32), true
}

// numberWords gives the width in words of an OpConstant/OpSpecConstant value.
func (p *operandParser) numberWords() (int, error) {
	t := p.inst.Type
	if t == 0 {
		return 0, p.errAt(p.pos, "literal number in an instruction without a result type")
	}
	n, ok := p.scalarWords(t)
	if !ok {
		return 0, p.errAt(p.pos, "result type %s of a literal number is not a scalar OpTypeInt or OpTypeFloat", p.typeDesc(t))
	}
	return n, nil
}

// switchLiteralWords gives the width in words of OpSwitch case literals:
// that of the selector's integer type (operand 0).
func (p *operandParser) switchLiteralWords() (int, error) {
	if p.switchWidth > 0 {
		return p.switchWidth, nil
	}
	if p.inst.Op != OpSwitch || len(p.words) == 0 {
		return 0, p.errAt(p.pos, "PairLiteralIntegerIdRef outside OpSwitch")
	}
	sel := p.words[0]
	d := p.m.Def(sel)
	if d == nil {
		return 0, p.errAt(0, "undefined id %%%d", sel)
	}
	td := p.m.Def(d.Type)
	if td == nil || td.Op != OpTypeInt {
		return 0, p.errAt(0, "selector %%%d has type %s, want a scalar OpTypeInt", sel, p.typeDesc(d.Type))
	}
	n, _ := p.scalarWords(d.Type)
	if n == 0 || n > 2 {
		return 0, p.errAt(0, "selector %%%d has type %s; case literals of 1 or 2 words are supported", sel, p.typeDesc(d.Type))
	}
	p.switchWidth = n
	return n, nil
}

// extInst parses OpExtInst's instruction number and the operands that the
// set's grammar gives it. The set id is the previous word.
func (p *operandParser) extInst() error {
	setPos := p.pos - 1
	if p.inst.Op != OpExtInst || setPos < 0 {
		return p.errAt(p.pos, "LiteralExtInstInteger outside OpExtInst")
	}
	set := p.words[setPos]
	d := p.m.Def(set)
	if d == nil {
		return p.errAt(setPos, "undefined id %%%d", set)
	}
	if d.Op != OpExtInstImport {
		return p.errAt(setPos, "set %%%d is defined by %s, want OpExtInstImport", set, d.Op)
	}
	name := p.m.ExtInstImports[set]
	num := p.words[p.pos]
	numPos := p.pos
	p.emit(OperandKindLiteralExtInstInteger, 1)
	es := lookupExtSet(name)
	if es == nil {
		// A set without a grammar here (NonSemantic.*, debug info): its
		// operands are kept as opaque words.
		for p.pos < len(p.words) {
			p.emit(OperandKindOpaque, 1)
		}
		p.done = true
		return nil
	}
	info := es.lookup(num)
	if info == nil {
		return p.errAt(numPos, "%s has no instruction %d", name, num)
	}
	if err := p.list(info.Operands); err != nil {
		return err
	}
	p.done = true
	if p.pos < len(p.words) {
		return p.errAt(p.pos, "%d word(s) after the last operand of %s %s", len(p.words)-p.pos, name, info.Name)
	}
	return nil
}

// specConstantOp parses OpSpecConstantOp's opcode and that opcode's operands
// (those after its result type and result id).
func (p *operandParser) specConstantOp() error {
	opPos := p.pos
	op := Op(p.words[p.pos])
	if p.words[p.pos] > 0xffff || op.Info() == nil {
		return p.errAt(opPos, "opcode %d is not in the SPIR-V %d.%d grammar", p.words[p.pos], GrammarMajor, GrammarMinor)
	}
	info := op.Info()
	if !info.HasType || !info.HasResult || op == OpSpecConstantOp {
		return p.errAt(opPos, "%s cannot be the operation of OpSpecConstantOp", op)
	}
	p.emit(OperandKindLiteralSpecConstantOpInteger, 1)
	if err := p.list(info.Operands); err != nil {
		return err
	}
	p.done = true
	return nil
}
