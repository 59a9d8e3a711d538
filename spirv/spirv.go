// Package spirv decodes SPIR-V binaries into a flat, checked Module.
//
// Every instruction's operands are parsed by the Khronos grammar (the tables
// in tables.go are generated from the grammar JSON of the Debian package
// spirv-headers by go generate), so a Module that Decode returns has:
// a valid header, instructions whose word counts match the grammar, enumerant
// values the grammar knows, and every <id> operand defined by some
// instruction (forward references are legal: raw llvm-spirv output places
// blocks before their dominators, and OpPhi refers forward).
//
// Decode does not check what spirv-val checks beyond that (types of
// operands, dominance, structured control flow, capabilities); the IR
// builder reports what it does not support.
package spirv

import (
	"fmt"
	"strconv"
)

// Magic is the first word of every SPIR-V module (SPIR-V spec §2.3, "Physical Layout").
const Magic = 0x07230203

// MaxBound is the largest id bound Decode accepts: SPIRV-Tools' limit
// (SPV_LIMIT_RESULT_ID_BOUND = 0x400000); the SPIR-V spec §2.17 "Universal
// Limits" makes 4,194,303 the bound every implementation must at least accept.
// It keeps a hostile header from making Decode allocate gigabytes for Defs.
const MaxBound = 0x400000

// Module is a decoded SPIR-V module.
type Module struct {
	Version, Generator, Bound uint32

	// Insts holds every instruction, in module order.
	Insts []Inst
	// Defs has length Bound: Defs[id] is the index into Insts of the
	// instruction whose result is id, or -1 if none.
	Defs []int32

	Capabilities []Capability
	Extensions   []string
	// ExtInstImports maps an OpExtInstImport result id to the set's name
	// ("OpenCL.std", "GLSL.std.450").
	ExtInstImports  map[uint32]string
	AddressingModel AddressingModel
	MemoryModel     MemoryModel
	EntryPoints     []EntryPoint
	// ExecutionModes holds OpExecutionMode and OpExecutionModeId, by entry function id.
	ExecutionModes map[uint32][]ExecModeInst
	// Names holds OpName, by target id.
	Names map[uint32]string
	// MemberNames holds OpMemberName, by struct type id and member.
	MemberNames map[uint32]map[uint32]string
	// Decorations holds OpDecorate, OpDecorateId and OpDecorateString by
	// target id, with the decorations of an OpDecorationGroup applied to the
	// targets of its OpGroupDecorate (and not listed under the group's id).
	Decorations map[uint32][]Decoration
	// MemberDecorations holds OpMemberDecorate, OpMemberDecorateString and
	// OpGroupMemberDecorate, by struct type id and member.
	MemberDecorations map[uint32]map[uint32][]Decoration
}

// Inst is one instruction.
type Inst struct {
	Op     Op
	Offset int    // word offset of the instruction's first word in the binary (the header is words 0..4)
	Type   uint32 // IdResultType, 0 if the opcode has none
	Result uint32 // IdResult, 0 if none
	// Operands holds the words after the result type and result id. All
	// instructions' Operands share the module's one word array.
	Operands []uint32
}

// Decoration is one decoration applied to an id or a struct member. The enum
// of decoration kinds is DecorationKind (its constants keep the grammar's
// names: DecorationBuiltIn, DecorationLinkageAttributes, ...).
type Decoration struct {
	Kind DecorationKind
	// Args holds the decoration's operand words after Str, if any
	// (BuiltIn: [BuiltIn]; LinkageAttributes: [LinkageType]; Offset: [n]).
	Args []uint32
	// Str is the decoration's leading string operand (the LinkageAttributes
	// name, UserSemantic), "" for decorations without one.
	Str string
}

// EntryPoint is one OpEntryPoint.
type EntryPoint struct {
	Model     ExecutionModel
	Func      uint32 // the entry OpFunction's id
	Name      string
	Interface []uint32
}

// ExecModeInst is one OpExecutionMode or OpExecutionModeId.
type ExecModeInst struct {
	Mode ExecutionMode
	Args []uint32 // the mode's operands: LocalSize x y z, LocalSizeId %x %y %z, ...
}

// DecodeError reports malformed input: where (the word offset of the
// offending word) and in which instruction.
type DecodeError struct {
	Offset int // word offset in the binary (header words are 0..4)
	Op     Op  // the instruction the word belongs to; 0 with Msg about the header
	Msg    string
	header bool // the error is about the header or the stream, not one instruction
}

// Error gives "spirv: word 123 (OpFAdd): undefined id %45".
func (e *DecodeError) Error() string {
	if e.header {
		return "spirv: word " + strconv.Itoa(e.Offset) + ": " + e.Msg
	}
	return "spirv: word " + strconv.Itoa(e.Offset) + " (" + e.Op.String() + "): " + e.Msg
}

// Def gives the instruction that defines id, or nil if none does.
func (m *Module) Def(id uint32) *Inst {
	if id >= uint32(len(m.Defs)) || m.Defs[id] < 0 {
		return nil
	}
	return &m.Insts[m.Defs[id]]
}

// Name gives id's OpName, or "%id" when it has none.
func (m *Module) Name(id uint32) string {
	if n, ok := m.Names[id]; ok && n != "" {
		return n
	}
	return "%" + strconv.FormatUint(uint64(id), 10)
}

// Decorated reports the first decoration of kind k on id.
func (m *Module) Decorated(id uint32, k DecorationKind) (Decoration, bool) {
	for _, d := range m.Decorations[id] {
		if d.Kind == k {
			return d, true
		}
	}
	return Decoration{}, false
}

// EntryPoint finds the entry point called name; the error lists those present.
func (m *Module) EntryPoint(name string) (*EntryPoint, error) {
	for i := range m.EntryPoints {
		if m.EntryPoints[i].Name == name {
			return &m.EntryPoints[i], nil
		}
	}
	names := make([]string, len(m.EntryPoints))
	for i, ep := range m.EntryPoints {
		names[i] = strconv.Quote(ep.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("spirv: no entry point %q: the module has no entry points", name)
	}
	return nil, fmt.Errorf("spirv: no entry point %q; the module has %v", name, names)
}

// LiteralString decodes a literal string (UTF-8 octets packed four per word,
// the first in the lowest-order byte, nul-terminated, nul-padded to a word
// boundary; SPIR-V spec §2.2.1). n is the number of words used, including
// the one holding the terminating nul. ok is false when words hold no nul.
func LiteralString(words []uint32) (s string, n int, ok bool) {
	for i, w := range words {
		for b := 0; b < 4; b++ {
			if byte(w>>(8*b)) == 0 {
				nbytes := 4*i + b
				buf := make([]byte, nbytes)
				for j := range buf {
					buf[j] = byte(words[j/4] >> (8 * (j % 4)))
				}
				return string(buf), i + 1, true
			}
		}
	}
	return "", 0, false
}

// stringWords gives the number of words of the literal string at the start
// of words, without building it; ok is false when there is no nul.
func stringWords(words []uint32) (n int, ok bool) {
	for i, w := range words {
		if w&0xff == 0 || w&0xff00 == 0 || w&0xff0000 == 0 || w&0xff000000 == 0 {
			return i + 1, true
		}
	}
	return 0, false
}
