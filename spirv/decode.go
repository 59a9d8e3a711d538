package spirv

import (
	"encoding/binary"
	"fmt"
)

// headerWords is the length of the module header: magic, version,
// generator, bound, schema (SPIR-V spec §2.3, "Physical Layout").
const headerWords = 5

// Decode decodes a SPIR-V binary in either byte order. Malformed input gives
// a *DecodeError naming the word offset; Decode never panics.
func Decode(b []byte) (*Module, error) {
	words, err := toWords(b)
	if err != nil {
		return nil, err
	}
	m := &Module{
		Version:           words[1],
		Generator:         words[2],
		Bound:             words[3],
		ExtInstImports:    map[uint32]string{},
		ExecutionModes:    map[uint32][]ExecModeInst{},
		Names:             map[uint32]string{},
		MemberNames:       map[uint32]map[uint32]string{},
		Decorations:       map[uint32][]Decoration{},
		MemberDecorations: map[uint32]map[uint32][]Decoration{},
	}
	if err := checkHeader(words); err != nil {
		return nil, err
	}
	if err := m.split(words); err != nil {
		return nil, err
	}
	if err := m.resolve(); err != nil {
		return nil, err
	}
	return m, nil
}

func headerErr(offset int, format string, args ...any) error {
	return &DecodeError{Offset: offset, Msg: fmt.Sprintf(format, args...), header: true}
}

// toWords checks the length and magic number and gives the words in host
// order, swapping bytes when the module was written big-endian.
func toWords(b []byte) ([]uint32, error) {
	if len(b) == 0 {
		return nil, headerErr(0, "empty input: a SPIR-V module starts with a %d-word header", headerWords)
	}
	// The magic number first: a text file or an ELF object given in place
	// of a module is "not SPIR-V" whatever its length.
	little := len(b) >= 4 && binary.LittleEndian.Uint32(b) == Magic
	if len(b) >= 4 && !little && binary.BigEndian.Uint32(b) != Magic {
		return nil, headerErr(0, "magic number 0x%08x is not SPIR-V's 0x%08x in either byte order: not a SPIR-V binary", binary.LittleEndian.Uint32(b), Magic)
	}
	if len(b)%4 != 0 {
		return nil, headerErr(len(b)/4, "input is %d bytes, not a whole number of 32-bit words", len(b))
	}
	if len(b) < 4*headerWords {
		return nil, headerErr(len(b)/4, "input is %d bytes, shorter than the %d-word (%d-byte) SPIR-V header", len(b), headerWords, 4*headerWords)
	}
	words := make([]uint32, len(b)/4)
	if little {
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
	} else {
		for i := range words {
			words[i] = binary.BigEndian.Uint32(b[4*i:])
		}
	}
	return words, nil
}

func checkHeader(words []uint32) error {
	v := words[1]
	major, minor := v>>16&0xff, v>>8&0xff
	if v&0xff0000ff != 0 || major != 1 || minor > 6 {
		return headerErr(1, "version word 0x%08x (SPIR-V %d.%d) is not supported: want SPIR-V 1.0 to 1.6", v, major, minor)
	}
	if words[3] == 0 {
		return headerErr(3, "id bound is 0; a module with any id has a bound above it")
	}
	if words[3] > MaxBound {
		return headerErr(3, "id bound %d exceeds the limit %d (SPIR-V spec §2.17 Universal Limits)", words[3], MaxBound)
	}
	if words[4] != 0 {
		return headerErr(4, "schema word is 0x%08x; SPIR-V reserves it and requires 0", words[4])
	}
	return nil
}

// split is the first pass: it cuts the stream into instructions, records
// result types and ids, and fills Defs and ExtInstImports.
func (m *Module) split(words []uint32) error {
	n := 0
	for pos := headerWords; pos < len(words); n++ {
		c := int(words[pos] >> 16)
		if c == 0 {
			break // reported below
		}
		pos += c
	}
	m.Insts = make([]Inst, 0, n)
	m.Defs = make([]int32, m.Bound)
	for i := range m.Defs {
		m.Defs[i] = -1
	}
	for pos := headerWords; pos < len(words); {
		w := words[pos]
		count, op := int(w>>16), Op(w&0xffff)
		if count == 0 {
			return &DecodeError{Offset: pos, Op: op, Msg: "word count is 0 (word 0x" + fmt.Sprintf("%08x", w) + "); every instruction has at least its opcode word"}
		}
		if pos+count > len(words) {
			return &DecodeError{Offset: pos, Op: op, Msg: fmt.Sprintf("word count %d runs past the end of the module (%d word(s) remain)", count, len(words)-pos)}
		}
		info := op.Info()
		if info == nil {
			return &DecodeError{Offset: pos, Op: op, Msg: fmt.Sprintf("opcode %d is not in the SPIR-V %d.%d grammar", uint16(op), GrammarMajor, GrammarMinor)}
		}
		inst := Inst{Op: op, Offset: pos}
		j := 1
		if info.HasType {
			if j >= count {
				return &DecodeError{Offset: pos, Op: op, Msg: fmt.Sprintf("word count %d is too small: the result type is missing", count)}
			}
			inst.Type = words[pos+j]
			j++
		}
		if info.HasResult {
			if j >= count {
				return &DecodeError{Offset: pos, Op: op, Msg: fmt.Sprintf("word count %d is too small: the result id is missing", count)}
			}
			id := words[pos+j]
			if id == 0 || id >= m.Bound {
				return &DecodeError{Offset: pos + j, Op: op, Msg: fmt.Sprintf("result id %%%d is out of range: ids are 1 to bound-1 = %d", id, m.Bound-1)}
			}
			if prev := m.Defs[id]; prev >= 0 {
				first := &m.Insts[prev]
				return &DecodeError{Offset: pos + j, Op: op, Msg: fmt.Sprintf("result id %%%d is already defined by %s at word %d", id, first.Op, first.Offset)}
			}
			m.Defs[id] = int32(len(m.Insts))
			inst.Result = id
			j++
		}
		inst.Operands = words[pos+j : pos+count : pos+count]
		if op == OpExtInstImport {
			// Needed by the second pass for every OpExtInst, wherever it is;
			// a malformed name is reported there.
			if s, _, ok := LiteralString(inst.Operands); ok {
				m.ExtInstImports[inst.Result] = s
			}
		}
		m.Insts = append(m.Insts, inst)
		pos += count
	}
	return nil
}

// groupUse is an OpGroupDecorate or OpGroupMemberDecorate, applied after the pass.
type groupUse struct {
	inst  *Inst
	group uint32
}

// resolve is the second pass: it parses every instruction's operands by the
// grammar, checks that every id operand is defined, and collects the
// module-level information.
func (m *Module) resolve() error {
	p := operandParser{m: m, check: true, out: make([]span, 0, 16)}
	var groups []groupUse
	for i := range m.Insts {
		inst := &m.Insts[i]
		if inst.Op.Info().HasType {
			if err := m.checkResultType(inst); err != nil {
				return err
			}
		}
		if err := p.parse(inst); err != nil {
			return err
		}
		ops := p.out
		switch inst.Op {
		case OpCapability:
			m.Capabilities = append(m.Capabilities, Capability(inst.Operands[ops[0].pos]))
		case OpExtension:
			s, _, _ := LiteralString(ops[0].words(inst))
			m.Extensions = append(m.Extensions, s)
		case OpMemoryModel:
			m.AddressingModel = AddressingModel(inst.Operands[ops[0].pos])
			m.MemoryModel = MemoryModel(inst.Operands[ops[1].pos])
		case OpEntryPoint:
			name, _, _ := LiteralString(ops[2].words(inst))
			ep := EntryPoint{Model: ExecutionModel(inst.Operands[ops[0].pos]), Func: inst.Operands[ops[1].pos], Name: name}
			if len(ops) > 3 {
				ep.Interface = inst.Operands[ops[3].pos:]
			}
			m.EntryPoints = append(m.EntryPoints, ep)
		case OpExecutionMode, OpExecutionModeId:
			em := ExecModeInst{Mode: ExecutionMode(inst.Operands[ops[1].pos])}
			if len(inst.Operands) > 2 {
				em.Args = inst.Operands[2:]
			}
			m.ExecutionModes[inst.Operands[ops[0].pos]] = append(m.ExecutionModes[inst.Operands[ops[0].pos]], em)
		case OpName:
			s, _, _ := LiteralString(ops[1].words(inst))
			m.Names[inst.Operands[ops[0].pos]] = s
		case OpMemberName:
			s, _, _ := LiteralString(ops[2].words(inst))
			t := inst.Operands[ops[0].pos]
			if m.MemberNames[t] == nil {
				m.MemberNames[t] = map[uint32]string{}
			}
			m.MemberNames[t][inst.Operands[ops[1].pos]] = s
		case OpDecorate, OpDecorateId, OpDecorateString:
			t := inst.Operands[ops[0].pos]
			m.Decorations[t] = append(m.Decorations[t], makeDecoration(inst, ops[1:]))
		case OpMemberDecorate, OpMemberDecorateString:
			m.addMemberDecoration(inst.Operands[ops[0].pos], inst.Operands[ops[1].pos], makeDecoration(inst, ops[2:]))
		case OpGroupDecorate, OpGroupMemberDecorate:
			g := inst.Operands[ops[0].pos]
			if d := m.Def(g); d.Op != OpDecorationGroup {
				return p.errAt(0, "%%%d is defined by %s, want OpDecorationGroup", g, d.Op)
			}
			groups = append(groups, groupUse{inst, g})
		}
	}
	m.applyGroups(groups)
	return nil
}

func (m *Module) checkResultType(inst *Inst) error {
	t := inst.Type
	if t == 0 || t >= m.Bound {
		return &DecodeError{Offset: inst.Offset + 1, Op: inst.Op, Msg: fmt.Sprintf("result type id %%%d is out of range (bound %d)", t, m.Bound)}
	}
	if m.Defs[t] < 0 {
		return &DecodeError{Offset: inst.Offset + 1, Op: inst.Op, Msg: fmt.Sprintf("undefined id %%%d (result type)", t)}
	}
	return nil
}

func (m *Module) addMemberDecoration(t, member uint32, d Decoration) {
	if m.MemberDecorations[t] == nil {
		m.MemberDecorations[t] = map[uint32][]Decoration{}
	}
	m.MemberDecorations[t][member] = append(m.MemberDecorations[t][member], d)
}

// makeDecoration builds a Decoration from its operands: the decoration kind
// and its parameters (all up to the end of the instruction).
func makeDecoration(inst *Inst, ops []span) Decoration {
	d := Decoration{Kind: DecorationKind(inst.Operands[ops[0].pos])}
	rest := int(ops[0].pos) + 1
	if len(ops) > 1 && ops[1].kind == OperandKindLiteralString {
		d.Str, _, _ = LiteralString(ops[1].words(inst))
		rest = int(ops[1].pos + ops[1].n)
	}
	if rest < len(inst.Operands) {
		d.Args = inst.Operands[rest:]
	}
	return d
}

// applyGroups gives the targets of OpGroupDecorate and OpGroupMemberDecorate
// the decorations of their group, then drops the groups' own entries.
func (m *Module) applyGroups(uses []groupUse) {
	if len(uses) == 0 {
		return
	}
	groupDecos := map[uint32][]Decoration{}
	for _, u := range uses {
		if _, ok := groupDecos[u.group]; !ok {
			groupDecos[u.group] = m.Decorations[u.group]
		}
	}
	for _, u := range uses {
		decos := groupDecos[u.group]
		targets := u.inst.Operands[1:]
		if u.inst.Op == OpGroupDecorate {
			for _, t := range targets {
				m.Decorations[t] = append(m.Decorations[t], decos...)
			}
			continue
		}
		for k := 0; k+1 < len(targets); k += 2 {
			for _, d := range decos {
				m.addMemberDecoration(targets[k], targets[k+1], d)
			}
		}
	}
	for g := range groupDecos {
		delete(m.Decorations, g)
	}
}
