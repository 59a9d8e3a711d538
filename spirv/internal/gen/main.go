// Command gen writes the SPIR-V tables of package spirv from the Khronos
// machine-readable grammar (Debian package spirv-headers,
// /usr/include/spirv/unified1/):
//
//	spirv.core.grammar.json            opcodes, operand kinds, enumerants
//	extinst.opencl.std.100.grammar.json  the OpenCL.std extended instructions
//	extinst.glsl.std.450.grammar.json    the GLSL.std.450 extended instructions
//
// Usage (from package spirv, see its go:generate line):
//
//	go run ./internal/gen -grammar /usr/include/spirv/unified1 -o tables.go
//
// The output is deterministic: the same grammar files give the same bytes.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Grammar file names inside the -grammar directory.
const (
	coreFile   = "spirv.core.grammar.json"
	openCLFile = "extinst.opencl.std.100.grammar.json"
	glslFile   = "extinst.glsl.std.450.grammar.json"
)

func main() {
	dir := flag.String("grammar", "/usr/include/spirv/unified1", "directory holding the SPIR-V grammar JSON files (Debian package spirv-headers)")
	out := flag.String("o", "tables.go", "output Go file")
	flag.Parse()
	src, err := Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// The JSON shapes of the grammar files (only the fields the tables use).
type grammar struct {
	Major        int           `json:"major_version"`
	Minor        int           `json:"minor_version"`
	Revision     int           `json:"revision"`
	Version      int           `json:"version"` // extended instruction sets
	Instructions []instruction `json:"instructions"`
	OperandKinds []operandKind `json:"operand_kinds"`
}

type instruction struct {
	Name     string    `json:"opname"`
	Class    string    `json:"class"`
	Opcode   uint32    `json:"opcode"`
	Operands []operand `json:"operands"`
}

type operand struct {
	Kind       string `json:"kind"`
	Quantifier string `json:"quantifier"`
	Name       string `json:"name"`
}

type operandKind struct {
	Category   string      `json:"category"`
	Kind       string      `json:"kind"`
	Enumerants []enumerant `json:"enumerants"`
	Bases      []string    `json:"bases"`
}

type enumerant struct {
	Name       string          `json:"enumerant"`
	Value      json.RawMessage `json:"value"` // a number, or a "0x..." string in bit enums
	Parameters []operand       `json:"parameters"`
}

func load(path string, g *grammar) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w (install the Debian package spirv-headers, or pass -grammar DIR)", err)
	}
	if err := json.Unmarshal(b, g); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// enumValue decodes an enumerant value: a JSON number or a hex string.
func enumValue(raw json.RawMessage) (uint32, error) {
	var n uint32
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("enumerant value %s is neither a number nor a string", raw)
	}
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		return 0, fmt.Errorf("enumerant value %q: %w", s, err)
	}
	return uint32(v), nil
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// typeName is the Go type of an enum operand kind. The package's Decoration
// struct (a decoration with its arguments) takes the plain name, so the enum
// is DecorationKind; its constants keep the grammar prefix (DecorationBuiltIn).
func typeName(kind string) string {
	if kind == "Decoration" {
		return "DecorationKind"
	}
	return kind
}

// camel turns an OpenCL.std name such as "native_rsqrt" into "NativeRsqrt".
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// cleanName turns a grammar operand name ("'Operand 1', +\n'Operand 2', +\n...")
// into plain text for error messages.
func cleanName(s string) string {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.ReplaceAll(s, "+\n", " ")
	return strings.Join(strings.Fields(s), " ")
}

func quant(q string) (string, error) {
	switch q {
	case "":
		return "QuantOne", nil
	case "?":
		return "QuantOptional", nil
	case "*":
		return "QuantVariadic", nil
	}
	return "", fmt.Errorf("unknown quantifier %q", q)
}

// gen accumulates the output.
type gen struct {
	buf   bytes.Buffer
	kinds map[string]operandKind
	names map[string]string // Go identifier -> what declared it, to catch clashes
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

func (g *gen) declare(ident, what string) error {
	if !identRE.MatchString(ident) {
		return fmt.Errorf("%s: %q is not a Go identifier", what, ident)
	}
	if prev, ok := g.names[ident]; ok {
		return fmt.Errorf("%s: identifier %s already declared by %s", what, ident, prev)
	}
	g.names[ident] = what
	return nil
}

// operandList writes a []OperandInfo literal.
func (g *gen) operandList(ops []operand) error {
	if len(ops) == 0 {
		g.p("nil")
		return nil
	}
	g.p("[]OperandInfo{")
	for _, o := range ops {
		if _, ok := g.kinds[o.Kind]; !ok {
			return fmt.Errorf("operand of unknown kind %q", o.Kind)
		}
		q, err := quant(o.Quantifier)
		if err != nil {
			return err
		}
		g.p("{OperandKind%s, %s, %q}, ", o.Kind, q, cleanName(o.Name))
	}
	g.p("}")
	return nil
}

// Generate reads the grammar files in dir and returns the formatted Go source.
func Generate(dir string) ([]byte, error) {
	var core, ocl, glsl grammar
	for _, f := range []struct {
		name string
		g    *grammar
	}{{coreFile, &core}, {openCLFile, &ocl}, {glslFile, &glsl}} {
		if err := load(filepath.Join(dir, f.name), f.g); err != nil {
			return nil, err
		}
	}
	g := &gen{kinds: map[string]operandKind{}, names: map[string]string{}}
	for _, k := range core.OperandKinds {
		g.kinds[k.Kind] = k
	}
	g.p("// Code generated by \"go run ./internal/gen\" from the Khronos SPIR-V grammar; DO NOT EDIT.\n\n")
	g.p("// Sources (Debian package spirv-headers):\n")
	g.p("//\t%s: SPIR-V %d.%d revision %d\n", coreFile, core.Major, core.Minor, core.Revision)
	g.p("//\t%s: version %d revision %d\n", openCLFile, ocl.Version, ocl.Revision)
	g.p("//\t%s: version %d revision %d\n\n", glslFile, glsl.Version, glsl.Revision)
	g.p("package spirv\n\n")
	g.p("// Grammar version the tables were generated from.\n")
	g.p("const (\n\tGrammarMajor = %d\n\tGrammarMinor = %d\n\tGrammarRevision = %d\n)\n\n", core.Major, core.Minor, core.Revision)

	if err := g.kindsDecl(core); err != nil {
		return nil, err
	}
	if err := g.opsDecl(core); err != nil {
		return nil, err
	}
	for _, k := range core.OperandKinds {
		if k.Category == "ValueEnum" || k.Category == "BitEnum" {
			if err := g.enumDecl(k); err != nil {
				return nil, fmt.Errorf("operand kind %s: %w", k.Kind, err)
			}
		}
	}
	if err := g.enumTables(core); err != nil {
		return nil, err
	}
	if err := g.extDecl("OpenCLStd", "openCLStd", "OpenCL.std", ocl, camel); err != nil {
		return nil, err
	}
	if err := g.extDecl("GLSLStd450", "glslStd450", "GLSL.std.450", glsl, func(s string) string { return s }); err != nil {
		return nil, err
	}
	src, err := format.Source(g.buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated source: %w", err)
	}
	return src, nil
}

// kindsDecl writes the OperandKind constants and their categories.
func (g *gen) kindsDecl(core grammar) error {
	g.p("// Operand kinds of the grammar, plus OperandKindOpaque for the operands of\n")
	g.p("// extended instructions whose grammar the package does not have.\n")
	g.p("const (\n")
	for i, k := range core.OperandKinds {
		if err := g.declare("OperandKind"+k.Kind, "operand kind "+k.Kind); err != nil {
			return err
		}
		g.p("\tOperandKind%s OperandKind = %d\n", k.Kind, i+1)
	}
	g.p("\tOperandKindOpaque OperandKind = %d\n", len(core.OperandKinds)+1)
	g.p(")\n\n")

	g.p("var operandKindNames = [...]string{\n")
	for _, k := range core.OperandKinds {
		g.p("\tOperandKind%s: %q,\n", k.Kind, k.Kind)
	}
	g.p("\tOperandKindOpaque: \"Opaque\",\n}\n\n")

	g.p("var operandKindCategories = [...]kindCategory{\n")
	for _, k := range core.OperandKinds {
		var c string
		switch k.Category {
		case "BitEnum":
			c = "catBitEnum"
		case "ValueEnum":
			c = "catValueEnum"
		case "Id":
			c = "catID"
		case "Literal":
			c = "catLiteral"
		case "Composite":
			c = "catComposite"
			if len(k.Bases) != 2 {
				return fmt.Errorf("composite kind %s has %d bases, the decoder handles pairs", k.Kind, len(k.Bases))
			}
		default:
			return fmt.Errorf("operand kind %s: unknown category %q", k.Kind, k.Category)
		}
		g.p("\tOperandKind%s: %s,\n", k.Kind, c)
	}
	g.p("\tOperandKindOpaque: catOpaque,\n}\n\n")

	g.p("// pairBases gives the two element kinds of each Composite (pair) kind.\n")
	g.p("var pairBases = [...][2]OperandKind{\n")
	for _, k := range core.OperandKinds {
		if k.Category == "Composite" {
			for _, b := range k.Bases {
				if _, ok := g.kinds[b]; !ok {
					return fmt.Errorf("composite kind %s: unknown base %q", k.Kind, b)
				}
			}
			g.p("\tOperandKind%s: {OperandKind%s, OperandKind%s},\n", k.Kind, k.Bases[0], k.Bases[1])
		}
	}
	g.p("}\n\n")
	return nil
}

// opsDecl writes the Op constants, the instruction table and its index.
func (g *gen) opsDecl(core grammar) error {
	insts := append([]instruction(nil), core.Instructions...)
	sort.SliceStable(insts, func(i, j int) bool { return insts[i].Opcode < insts[j].Opcode })
	canon := map[uint32]string{}
	g.p("// Opcodes, named as in the grammar. Later names for an opcode that already\n")
	g.p("// has one (OpSDotKHR for OpSDot) are aliases; String gives the first name.\n")
	g.p("const (\n")
	for _, in := range insts {
		if in.Opcode > 0xffff {
			return fmt.Errorf("%s: opcode %d does not fit 16 bits", in.Name, in.Opcode)
		}
		if err := g.declare(in.Name, "instruction "+in.Name); err != nil {
			return err
		}
		if c, ok := canon[in.Opcode]; ok {
			g.p("\t%s Op = %d // alias of %s\n", in.Name, in.Opcode, c)
			continue
		}
		canon[in.Opcode] = in.Name
		g.p("\t%s Op = %d\n", in.Name, in.Opcode)
	}
	g.p(")\n\n")

	g.p("// instTable holds one InstInfo per opcode (aliases left out), by opcode.\n")
	g.p("var instTable = [...]InstInfo{\n")
	index := map[uint32]int{}
	var maxOp uint32
	for _, in := range insts {
		if canon[in.Opcode] != in.Name {
			continue
		}
		index[in.Opcode] = len(index)
		if in.Opcode > maxOp {
			maxOp = in.Opcode
		}
		ops := in.Operands
		hasType, hasResult := false, false
		if len(ops) > 0 && ops[0].Kind == "IdResultType" {
			hasType, ops = true, ops[1:]
		}
		if len(ops) > 0 && ops[0].Kind == "IdResult" {
			hasResult, ops = true, ops[1:]
		}
		for _, o := range ops {
			if o.Kind == "IdResultType" || o.Kind == "IdResult" {
				return fmt.Errorf("%s: %s in an unexpected position", in.Name, o.Kind)
			}
		}
		g.p("\t{Op: %s, Name: %q, Class: %q, HasType: %v, HasResult: %v, Operands: ", in.Name, in.Name, in.Class, hasType, hasResult)
		if err := g.operandList(ops); err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		g.p("},\n")
	}
	g.p("}\n\n")
	if len(index) >= 0xffff {
		return fmt.Errorf("%d instructions do not fit the uint16 index", len(index))
	}
	g.p("// opIndex maps an opcode to 1 + its index in instTable; 0 means not in the grammar.\n")
	g.p("var opIndex = [%d]uint16{", maxOp+1)
	ops := make([]uint32, 0, len(index))
	for op := range index {
		ops = append(ops, op)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i] < ops[j] })
	for i, op := range ops {
		if i%8 == 0 {
			g.p("\n\t")
		}
		g.p("%d: %d, ", op, index[op]+1)
	}
	g.p("\n}\n\n")
	return nil
}

// enumDecl writes an enum type, its constants and its String method.
func (g *gen) enumDecl(k operandKind) error {
	tn := typeName(k.Kind)
	if err := g.declare(tn, "type of operand kind "+k.Kind); err != nil {
		return err
	}
	bit := k.Category == "BitEnum"
	if bit {
		g.p("// %s is the SPIR-V %s operand: a bit mask; the constants are its flags.\n", tn, k.Kind)
	} else {
		g.p("// %s is the SPIR-V %s operand (a value enum).\n", tn, k.Kind)
	}
	g.p("type %s uint32\n\n", tn)
	g.p("// %s values.\nconst (\n", tn)
	canon := map[uint32]string{}
	for _, e := range k.Enumerants {
		v, err := enumValue(e.Value)
		if err != nil {
			return err
		}
		if bit && v&(v-1) != 0 {
			return fmt.Errorf("bit enumerant %s has several bits set (0x%x)", e.Name, v)
		}
		name := k.Kind + e.Name
		if err := g.declare(name, k.Kind+" enumerant "+e.Name); err != nil {
			return err
		}
		if c, ok := canon[v]; ok {
			g.p("\t%s %s = 0x%x // alias of %s\n", name, tn, v, c)
			continue
		}
		canon[v] = name
		if bit {
			g.p("\t%s %s = 0x%x\n", name, tn, v)
		} else {
			g.p("\t%s %s = %d\n", name, tn, v)
		}
	}
	g.p(")\n\n")
	if bit {
		g.p("// String gives the set flags as grammar names joined by \"|\" (spirv-dis style).\n")
		g.p("func (v %s) String() string { return bitEnumString(OperandKind%s, uint32(v)) }\n\n", tn, k.Kind)
	} else {
		g.p("// String gives the grammar name of v, or the number for a value not in the grammar.\n")
		g.p("func (v %s) String() string { return enumString(OperandKind%s, uint32(v)) }\n\n", tn, k.Kind)
	}
	return nil
}

// enumTables writes the enumerant table of every enum kind, sorted by value.
func (g *gen) enumTables(core grammar) error {
	g.p("// enumTables holds, per enum operand kind, its enumerants (aliases left\n")
	g.p("// out) sorted by value, with the operands each one takes.\n")
	g.p("var enumTables = [...][]Enumerant{\n")
	for _, k := range core.OperandKinds {
		if k.Category != "ValueEnum" && k.Category != "BitEnum" {
			continue
		}
		type ent struct {
			v uint32
			e enumerant
		}
		var list []ent
		seen := map[uint32]int{}
		for _, e := range k.Enumerants {
			v, err := enumValue(e.Value)
			if err != nil {
				return err
			}
			if i, ok := seen[v]; ok {
				if !sameParams(list[i].e.Parameters, e.Parameters) {
					return fmt.Errorf("%s: alias %s takes other operands than %s", k.Kind, e.Name, list[i].e.Name)
				}
				continue
			}
			seen[v] = len(list)
			list = append(list, ent{v, e})
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].v < list[j].v })
		g.p("\tOperandKind%s: {\n", k.Kind)
		for _, it := range list {
			g.p("\t\t{Value: 0x%x, Name: %q", it.v, it.e.Name)
			if len(it.e.Parameters) > 0 {
				g.p(", Params: ")
				if err := g.operandList(it.e.Parameters); err != nil {
					return fmt.Errorf("%s %s: %w", k.Kind, it.e.Name, err)
				}
			}
			g.p("},\n")
		}
		g.p("\t},\n")
	}
	g.p("}\n\n")
	return nil
}

func sameParams(a, b []operand) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Quantifier != b[i].Quantifier {
			return false
		}
	}
	return true
}

// extDecl writes an extended instruction set: its type, constants, String,
// instruction table and index.
// Its table and index are the package variables lower+"Table" and lower+"Index".
func (g *gen) extDecl(tn, lower, setName string, gr grammar, goName func(string) string) error {
	if err := g.declare(tn, "extended set "+setName); err != nil {
		return err
	}
	insts := append([]instruction(nil), gr.Instructions...)
	sort.SliceStable(insts, func(i, j int) bool { return insts[i].Opcode < insts[j].Opcode })
	g.p("// %s is an instruction number of the %q extended instruction set.\n", tn, setName)
	g.p("type %s uint32\n\n", tn)
	g.p("// %s instructions; String gives the grammar name (%q).\nconst (\n", tn, insts[0].Name)
	var maxN uint32
	seen := map[uint32]bool{}
	for _, in := range insts {
		name := tn + goName(in.Name)
		if err := g.declare(name, setName+" instruction "+in.Name); err != nil {
			return err
		}
		if seen[in.Opcode] {
			return fmt.Errorf("%s: instruction number %d used twice", setName, in.Opcode)
		}
		seen[in.Opcode] = true
		if in.Opcode > maxN {
			maxN = in.Opcode
		}
		g.p("\t%s %s = %d\n", name, tn, in.Opcode)
	}
	g.p(")\n\n")
	g.p("// String gives the grammar name of v, or the number for a value not in the grammar.\n")
	g.p("func (v %s) String() string { return extInstString(%sTable[:], %sIndex[:], uint32(v)) }\n\n", tn, lower, lower)
	g.p("var %sTable = [...]ExtInstInfo{\n", lower)
	for _, in := range insts {
		for _, o := range in.Operands {
			if o.Kind == "IdResultType" || o.Kind == "IdResult" {
				return fmt.Errorf("%s %s: unexpected %s operand", setName, in.Name, o.Kind)
			}
		}
		g.p("\t{Number: %d, Name: %q, Operands: ", in.Opcode, in.Name)
		if err := g.operandList(in.Operands); err != nil {
			return fmt.Errorf("%s %s: %w", setName, in.Name, err)
		}
		g.p("},\n")
	}
	g.p("}\n\n")
	g.p("// %sIndex maps an instruction number to 1 + its index in %sTable; 0 means none.\n", lower, lower)
	g.p("var %sIndex = [%d]uint8{", lower, maxN+1)
	if len(insts) >= 0xff {
		return fmt.Errorf("%s: %d instructions do not fit the uint8 index", setName, len(insts))
	}
	for i, in := range insts {
		if i%8 == 0 {
			g.p("\n\t")
		}
		g.p("%d: %d, ", in.Opcode, i+1)
	}
	g.p("\n}\n\n")
	return nil
}
