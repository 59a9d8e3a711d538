package spirv

import (
	"sort"
	"strconv"
	"strings"
)

//go:generate go run ./internal/gen -grammar /usr/include/spirv/unified1 -o tables.go

// Op is a SPIR-V opcode. The constants (OpNop, OpFAdd, OpExtInst, ...) are
// generated from the grammar; String gives the grammar name ("OpFAdd").
type Op uint16

// String gives the grammar name of op, or "Op(N)" for an opcode not in the grammar.
func (op Op) String() string {
	if info := op.Info(); info != nil {
		return info.Name
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// Info gives the grammar's description of op, or nil if op is not in the grammar.
func (op Op) Info() *InstInfo {
	if int(op) >= len(opIndex) {
		return nil
	}
	i := opIndex[op]
	if i == 0 {
		return nil
	}
	return &instTable[i-1]
}

// InstInfo describes an instruction as the grammar does.
type InstInfo struct {
	Op        Op
	Name      string // "OpFAdd"
	Class     string // grammar class: "Arithmetic", "Memory", ...
	HasType   bool   // the first word after the opcode is an IdResultType
	HasResult bool   // an IdResult follows (after the type, if any)
	// Operands after the result type and result id, in order.
	Operands []OperandInfo
}

// OperandInfo is one operand of an instruction or of an enumerant.
type OperandInfo struct {
	Kind  OperandKind
	Quant Quantifier
	Name  string // the grammar's name, e.g. "Pointer"; may be empty
}

// Quantifier says how many times an operand appears.
type Quantifier uint8

// Quantifiers of the grammar: none, "?" and "*".
const (
	QuantOne      Quantifier = iota // exactly once
	QuantOptional                   // "?": zero or one time
	QuantVariadic                   // "*": zero or more times, to the end of the instruction
)

// OperandKind is an operand kind of the grammar (IdRef, LiteralInteger,
// StorageClass, PairIdRefIdRef, ...). The constants OperandKindXxx are generated.
type OperandKind uint8

// String gives the grammar name of the kind ("IdRef").
func (k OperandKind) String() string {
	if int(k) < len(operandKindNames) && operandKindNames[k] != "" {
		return operandKindNames[k]
	}
	return "OperandKind(" + strconv.Itoa(int(k)) + ")"
}

// IsID reports whether an operand of kind k is one <id> word (IdRef,
// IdResultType, IdResult, IdScope, IdMemorySemantics).
func (k OperandKind) IsID() bool { return k.category() == catID }

// IsEnum reports whether k is a value enum or a bit enum.
func (k OperandKind) IsEnum() bool {
	c := k.category()
	return c == catValueEnum || c == catBitEnum
}

// IsBitEnum reports whether k is a bit enum (a mask of flags).
func (k OperandKind) IsBitEnum() bool { return k.category() == catBitEnum }

// Enumerants gives the enumerants of an enum kind sorted by value (aliases
// left out), or nil for other kinds. The slice must not be modified.
func (k OperandKind) Enumerants() []Enumerant {
	if int(k) < len(enumTables) {
		return enumTables[k]
	}
	return nil
}

// Enumerant is one named value of an enum operand kind.
type Enumerant struct {
	Value  uint32
	Name   string        // grammar name, without the kind prefix: "BuiltIn"
	Params []OperandInfo // operands that follow when this enumerant is used
}

type kindCategory uint8

const (
	catNone kindCategory = iota
	catBitEnum
	catValueEnum
	catID
	catLiteral
	catComposite
	catOpaque
)

func (k OperandKind) category() kindCategory {
	if int(k) < len(operandKindCategories) {
		return operandKindCategories[k]
	}
	return catNone
}

// lookupEnum finds the enumerant of kind k with value v.
func lookupEnum(k OperandKind, v uint32) *Enumerant {
	if int(k) >= len(enumTables) {
		return nil
	}
	t := enumTables[k]
	i := sort.Search(len(t), func(i int) bool { return t[i].Value >= v })
	if i < len(t) && t[i].Value == v {
		return &t[i]
	}
	return nil
}

// EnumerantName gives the grammar name of value v of enum kind k.
func EnumerantName(k OperandKind, v uint32) (string, bool) {
	if e := lookupEnum(k, v); e != nil {
		return e.Name, true
	}
	return "", false
}

func enumString(k OperandKind, v uint32) string {
	if e := lookupEnum(k, v); e != nil {
		return e.Name
	}
	return k.String() + "(" + strconv.FormatUint(uint64(v), 10) + ")"
}

func bitEnumString(k OperandKind, v uint32) string {
	if v == 0 {
		if e := lookupEnum(k, 0); e != nil {
			return e.Name
		}
		return "0"
	}
	var b strings.Builder
	for bit := uint32(1); bit != 0; bit <<= 1 {
		if v&bit == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		if e := lookupEnum(k, bit); e != nil {
			b.WriteString(e.Name)
		} else {
			b.WriteString("0x" + strconv.FormatUint(uint64(bit), 16))
		}
	}
	return b.String()
}

// ExtInstInfo describes one instruction of an extended instruction set.
type ExtInstInfo struct {
	Number   uint32
	Name     string        // grammar name: "mad", "native_rsqrt", "FAbs"
	Operands []OperandInfo // after the OpExtInst's set and instruction number
}

// Names of the extended instruction sets the package has grammars for, as
// they appear in OpExtInstImport.
const (
	ExtSetOpenCLStd  = "OpenCL.std"
	ExtSetGLSLStd450 = "GLSL.std.450"
)

// extSet is an extended instruction set's table and index.
type extSet struct {
	table []ExtInstInfo
	index []uint8
}

// lookupExtSet gives the grammar of a set imported by OpExtInstImport, or
// nil when the package has none (NonSemantic.*, debug info, vendor sets).
func lookupExtSet(name string) *extSet {
	switch name {
	case ExtSetOpenCLStd:
		return &openCLStdSet
	case ExtSetGLSLStd450:
		return &glslStd450Set
	}
	return nil
}

var (
	openCLStdSet  = extSet{openCLStdTable[:], openCLStdIndex[:]}
	glslStd450Set = extSet{glslStd450Table[:], glslStd450Index[:]}
)

func (s *extSet) lookup(n uint32) *ExtInstInfo {
	if n >= uint32(len(s.index)) || s.index[n] == 0 {
		return nil
	}
	return &s.table[s.index[n]-1]
}

// LookupExtInst gives the grammar of instruction n of the extended set named
// set ("OpenCL.std" or "GLSL.std.450").
func LookupExtInst(set string, n uint32) (*ExtInstInfo, bool) {
	s := lookupExtSet(set)
	if s == nil {
		return nil, false
	}
	info := s.lookup(n)
	return info, info != nil
}

func extInstString(table []ExtInstInfo, index []uint8, v uint32) string {
	s := extSet{table, index}
	if info := s.lookup(v); info != nil {
		return info.Name
	}
	return strconv.FormatUint(uint64(v), 10)
}
