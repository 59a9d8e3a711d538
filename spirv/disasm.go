package spirv

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Disassemble gives a listing of m in the format of `spirv-dis --raw-id`
// (ids as %N, enumerants by name, literal numbers typed by their result
// type), for error messages and debugging.
func Disassemble(m *Module) string {
	var b strings.Builder
	major, minor := m.Version>>16&0xff, m.Version>>8&0xff
	fmt.Fprintf(&b, "; SPIR-V\n; Version: %d.%d\n; Generator: vendor %d; %d\n; Bound: %d\n; Schema: 0\n",
		major, minor, m.Generator>>16, m.Generator&0xffff, m.Bound)
	p := operandParser{m: m}
	for i := range m.Insts {
		inst := &m.Insts[i]
		if inst.Result != 0 {
			fmt.Fprintf(&b, "%12s = ", "%"+strconv.FormatUint(uint64(inst.Result), 10))
		} else {
			b.WriteString(strings.Repeat(" ", 15))
		}
		writeInst(&b, &p, inst)
		b.WriteByte('\n')
	}
	return b.String()
}

// String gives inst as one line of Disassemble, without the indentation:
// "%7 = OpFAdd %2 %5 %6".
func (m *Module) String(inst *Inst) string {
	var b strings.Builder
	if inst.Result != 0 {
		b.WriteString("%" + strconv.FormatUint(uint64(inst.Result), 10) + " = ")
	}
	p := operandParser{m: m}
	writeInst(&b, &p, inst)
	return b.String()
}

func writeInst(b *strings.Builder, p *operandParser, inst *Inst) {
	b.WriteString(inst.Op.String())
	if inst.Type != 0 {
		b.WriteString(" %" + strconv.FormatUint(uint64(inst.Type), 10))
	}
	if err := p.parse(inst); err != nil {
		// Not from Decode: show the raw words and why.
		for _, w := range inst.Operands {
			b.WriteString(" " + strconv.FormatUint(uint64(w), 10))
		}
		b.WriteString(" ; " + err.Error())
		return
	}
	var extSet *extSet
	for i, sp := range p.out {
		o := Operand{Kind: sp.kind, Pos: int(sp.pos), Words: sp.words(inst)}
		b.WriteByte(' ')
		switch k := o.Kind; {
		case k.IsID():
			b.WriteString("%" + strconv.FormatUint(uint64(o.Words[0]), 10))
		case k.IsBitEnum():
			b.WriteString(bitEnumString(k, o.Words[0]))
		case k.IsEnum():
			b.WriteString(enumString(k, o.Words[0]))
		case k == OperandKindLiteralString:
			s, _, _ := LiteralString(o.Words)
			b.WriteString(quote(s))
		case k == OperandKindLiteralContextDependentNumber:
			b.WriteString(formatNumber(p.m, inst.Type, o.Words))
		case k == OperandKindLiteralInteger && inst.Op == OpSwitch && i >= 2:
			// A case literal: typed like the selector.
			sel := p.m.Def(inst.Operands[0])
			b.WriteString(formatNumber(p.m, sel.Type, o.Words))
		case k == OperandKindLiteralExtInstInteger:
			if i > 0 {
				extSet = lookupExtSet(p.m.ExtInstImports[inst.Operands[p.out[i-1].pos]])
			}
			if extSet != nil {
				if info := extSet.lookup(o.Words[0]); info != nil {
					b.WriteString(info.Name)
					break
				}
			}
			b.WriteString(strconv.FormatUint(uint64(o.Words[0]), 10))
		case k == OperandKindLiteralSpecConstantOpInteger:
			b.WriteString(strings.TrimPrefix(Op(o.Words[0]).String(), "Op"))
		case k == OperandKindOpaque:
			// The core grammar declares OpExtInst operands IdRef; sets
			// without a grammar here (NonSemantic.*) print as ids, like spirv-dis.
			b.WriteString("%" + strconv.FormatUint(uint64(o.Words[0]), 10))
		default:
			b.WriteString(strconv.FormatUint(uint64(o.Words[0]), 10))
		}
	}
}

// quote writes s between double quotes, escaping '"' and '\' with a backslash.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// formatNumber prints a literal number of the scalar type typ: integers in
// decimal (signed if the type is), normal floats with enough digits to round
// trip, other floats (and all halves) in hexadecimal, as spirv-dis does.
func formatNumber(m *Module, typ uint32, words []uint32) string {
	t := m.Def(typ)
	if t == nil || len(t.Operands) == 0 || len(words) == 0 {
		return rawWords(words)
	}
	width := t.Operands[0]
	var v uint64
	switch len(words) {
	case 1:
		v = uint64(words[0])
	case 2:
		v = uint64(words[0]) | uint64(words[1])<<32 // low-order word first (spec §2.2.1)
	default:
		return rawWords(words)
	}
	switch {
	case t.Op == OpTypeInt && width <= 64:
		signed := len(t.Operands) > 1 && t.Operands[1] != 0
		if width < 64 {
			v &= 1<<width - 1
		}
		if signed && width > 0 {
			s := int64(v<<(64-width)) >> (64 - width)
			return strconv.FormatInt(s, 10)
		}
		return strconv.FormatUint(v, 10)
	case t.Op == OpTypeFloat && width == 16:
		return hexFloat(v&0xffff, 5, 10)
	case t.Op == OpTypeFloat && width == 32:
		f := math.Float32frombits(uint32(v))
		exp := v >> 23 & 0xff
		if exp == 0xff || (exp == 0 && v&0x7fffff != 0) {
			return hexFloat(v&0xffffffff, 8, 23)
		}
		return strconv.FormatFloat(float64(f), 'g', 9, 32)
	case t.Op == OpTypeFloat && width == 64:
		exp := v >> 52 & 0x7ff
		if exp == 0x7ff || (exp == 0 && v&(1<<52-1) != 0) {
			return hexFloat(v, 11, 52)
		}
		return strconv.FormatFloat(math.Float64frombits(v), 'g', 17, 64)
	}
	return rawWords(words)
}

func rawWords(words []uint32) string {
	s := make([]string, len(words))
	for i, w := range words {
		s[i] = "0x" + strconv.FormatUint(uint64(w), 16)
	}
	return strings.Join(s, " ")
}

// hexFloat prints an IEEE binary float with expBits exponent and manBits
// fraction bits as a C hex float ("0x1.8p+3", "-0x1p-149", "0x0p+0");
// infinities and NaNs print with the exponent one past the largest finite
// one, as spirv-dis does ("0x1p+128").
func hexFloat(v uint64, expBits, manBits uint) string {
	sign := v >> (expBits + manBits) & 1
	e := int64(v >> manBits & (1<<expBits - 1))
	man := v & (1<<manBits - 1)
	bias := int64(1)<<(expBits-1) - 1
	var b strings.Builder
	if sign != 0 {
		b.WriteByte('-')
	}
	if e == 0 && man == 0 {
		b.WriteString("0x0p+0")
		return b.String()
	}
	exp := e - bias
	if e == 0 { // subnormal: normalise
		exp = 1 - bias
		for man&(1<<manBits) == 0 {
			man <<= 1
			exp--
		}
		man &= 1<<manBits - 1
	}
	// Align the fraction to whole hex digits.
	digits := (manBits + 3) / 4
	man <<= digits*4 - manBits
	frac := fmt.Sprintf("%0*x", digits, man)
	frac = strings.TrimRight(frac, "0")
	b.WriteString("0x1")
	if frac != "" {
		b.WriteString("." + frac)
	}
	b.WriteString("p")
	if exp >= 0 {
		b.WriteByte('+')
	}
	b.WriteString(strconv.FormatInt(exp, 10))
	return b.String()
}
