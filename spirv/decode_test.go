package spirv

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The modules in testdata come from the real compilers; testdata/build.sh
// remakes them from the sources next to them (kernels.cl, raw_o2.cl,
// compute.comp, grammar.spvasm).
var testModules = []string{"kernels.spv", "raw_o2.spv", "compute.spv", "grammar.spv"}

func decodeFile(t testing.TB, name string) *Module {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// byName finds the id whose OpName is name.
func byName(t *testing.T, m *Module, name string) uint32 {
	t.Helper()
	for id, n := range m.Names {
		if n == name {
			return id
		}
	}
	t.Fatalf("no OpName %q", name)
	return 0
}

// countOps counts the instructions with each opcode.
func countOps(m *Module) map[Op]int {
	c := map[Op]int{}
	for _, in := range m.Insts {
		c[in.Op]++
	}
	return c
}

// extInsts lists the names of the OpExtInst instructions of m, in order.
func extInsts(t *testing.T, m *Module) []string {
	t.Helper()
	var names []string
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op != OpExtInst {
			continue
		}
		set := m.ExtInstImports[in.Operands[0]]
		info, ok := LookupExtInst(set, in.Operands[1])
		if !ok {
			names = append(names, set+":?")
			continue
		}
		names = append(names, info.Name)
	}
	return names
}

func TestDecodeOpenCL(t *testing.T) {
	m := decodeFile(t, "kernels.spv")
	if m.Version != 0x00010000 || m.Bound == 0 || len(m.Defs) != int(m.Bound) {
		t.Errorf("header: version %#x bound %d len(Defs) %d", m.Version, m.Bound, len(m.Defs))
	}
	if m.AddressingModel != AddressingModelPhysical64 || m.MemoryModel != MemoryModelOpenCL {
		t.Errorf("memory model %v %v, want Physical64 OpenCL", m.AddressingModel, m.MemoryModel)
	}
	for _, c := range []Capability{CapabilityKernel, CapabilityAddresses, CapabilityFloat16Buffer, CapabilityInt64} {
		found := false
		for _, have := range m.Capabilities {
			found = found || have == c
		}
		if !found {
			t.Errorf("capability %v missing from %v", c, m.Capabilities)
		}
	}
	if got := len(m.ExtInstImports); got != 1 {
		t.Errorf("%d ext imports, want 1", got)
	}
	for id, name := range m.ExtInstImports {
		if name != ExtSetOpenCLStd || m.Def(id).Op != OpExtInstImport {
			t.Errorf("ext import %%%d = %q (%v)", id, name, m.Def(id).Op)
		}
	}
	var eps []string
	for _, ep := range m.EntryPoints {
		eps = append(eps, ep.Name)
		if ep.Model != ExecutionModelKernel {
			t.Errorf("entry %s: model %v", ep.Name, ep.Model)
		}
		if d := m.Def(ep.Func); d == nil || d.Op != OpFunction {
			t.Errorf("entry %s: %%%d is not an OpFunction", ep.Name, ep.Func)
		}
	}
	if want := []string{"saxpy", "reduce", "classify"}; !reflect.DeepEqual(eps, want) {
		t.Errorf("entry points %v, want %v", eps, want)
	}
	if _, err := m.EntryPoint("nope"); err == nil || !strings.Contains(err.Error(), `"saxpy"`) {
		t.Errorf("EntryPoint(nope) error %v, want it to list saxpy", err)
	}
	reduce, err := m.EntryPoint("reduce")
	if err != nil {
		t.Fatal(err)
	}
	if modes := m.ExecutionModes[reduce.Func]; len(modes) != 1 || modes[0].Mode != ExecutionModeContractionOff {
		t.Errorf("reduce execution modes %v, want [ContractionOff]", modes)
	}

	// llvm-spirv's builtins: Input variables decorated BuiltIn and Import-linked.
	gid := byName(t, m, "__spirv_BuiltInGlobalInvocationId")
	d, ok := m.Decorated(gid, DecorationBuiltIn)
	if !ok || !reflect.DeepEqual(d.Args, []uint32{uint32(BuiltInGlobalInvocationId)}) {
		t.Errorf("gid BuiltIn decoration %+v %v", d, ok)
	}
	d, ok = m.Decorated(gid, DecorationLinkageAttributes)
	if !ok || d.Str != "__spirv_BuiltInGlobalInvocationId" || !reflect.DeepEqual(d.Args, []uint32{uint32(LinkageTypeImport)}) {
		t.Errorf("gid LinkageAttributes %+v %v", d, ok)
	}
	if v := m.Def(gid); v.Op != OpVariable || StorageClass(v.Operands[0]) != StorageClassInput {
		t.Errorf("gid is %s", m.String(v))
	}
	for _, ep := range m.EntryPoints {
		if len(ep.Interface) == 0 || ep.Interface[0] != gid {
			t.Errorf("entry %s interface %v, want %%%d first", ep.Name, ep.Interface, gid)
		}
	}
	// The wrapper calls the kernel function named as the entry point.
	saxpy := byName(t, m, "saxpy")
	if m.Def(saxpy).Op != OpFunction || m.Name(saxpy) != "saxpy" {
		t.Errorf("saxpy: %s", m.String(m.Def(saxpy)))
	}

	want := []string{"mad", "native_rsqrt", "fma", "fclamp", "vload_half", "s_mad24"}
	if got := extInsts(t, m); !reflect.DeepEqual(got, want) {
		t.Errorf("ext instructions %v, want %v", got, want)
	}

	// The switch on a long: two-word case literals.
	var sw *Inst
	for i := range m.Insts {
		if m.Insts[i].Op == OpSwitch {
			sw = &m.Insts[i]
		}
	}
	if sw == nil {
		t.Fatal("no OpSwitch")
	}
	ops, err := m.Operands(sw)
	if err != nil {
		t.Fatal(err)
	}
	var cases []uint64
	for _, o := range ops[2:] {
		if o.Kind == OperandKindLiteralInteger {
			if len(o.Words) != 2 {
				t.Fatalf("case literal %v is not 2 words", o.Words)
			}
			cases = append(cases, uint64(o.Words[0])|uint64(o.Words[1])<<32)
		}
	}
	if want := []uint64{1, 1 << 32, 1<<64 - 7}; !reflect.DeepEqual(cases, want) {
		t.Errorf("switch cases %v, want %v", cases, want)
	}
}

func TestDecodeRawO2ForwardReferences(t *testing.T) {
	m := decodeFile(t, "raw_o2.spv")
	// The property that makes this input worth keeping: an ordinary
	// instruction uses a value defined later in the binary.
	forward := 0
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op == OpPhi || in.Op == OpBranch || in.Op == OpBranchConditional ||
			in.Op == OpLoopMerge || in.Op == OpSelectionMerge || in.Op == OpSwitch ||
			in.Op == OpEntryPoint || in.Op == OpName || in.Op == OpDecorate ||
			in.Op == OpExecutionMode || in.Op == OpFunctionCall {
			continue
		}
		ops, err := m.Operands(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range ops {
			if o.Kind.IsID() && int(m.Defs[o.Words[0]]) > i {
				forward++
				t.Logf("forward use: %s (defined at word %d)", m.String(in), m.Def(o.Words[0]).Offset)
			}
		}
	}
	if forward == 0 {
		t.Error("raw_o2.spv has no use before definition; rebuild it so that it does")
	}
	if len(m.EntryPoints) != 1 || m.EntryPoints[0].Name != "firstbig" {
		t.Errorf("entry points %+v", m.EntryPoints)
	}
}

func TestDecodeGLSL(t *testing.T) {
	m := decodeFile(t, "compute.spv")
	if m.AddressingModel != AddressingModelLogical || m.MemoryModel != MemoryModelGLSL450 {
		t.Errorf("memory model %v %v", m.AddressingModel, m.MemoryModel)
	}
	if m.Version != 0x00010300 {
		t.Errorf("version %#x, want 1.3 (vulkan1.1)", m.Version)
	}
	ep, err := m.EntryPoint("main")
	if err != nil {
		t.Fatal(err)
	}
	if ep.Model != ExecutionModelGLCompute || len(ep.Interface) != 3 {
		t.Errorf("entry %+v", ep)
	}
	modes := m.ExecutionModes[ep.Func]
	if len(modes) != 1 || modes[0].Mode != ExecutionModeLocalSize || !reflect.DeepEqual(modes[0].Args, []uint32{1, 1, 1}) {
		t.Errorf("modes %+v, want LocalSize 1 1 1", modes)
	}
	for name, b := range map[string]BuiltIn{
		"gl_GlobalInvocationID": BuiltInGlobalInvocationId,
		"gl_LocalInvocationID":  BuiltInLocalInvocationId,
		"gl_WorkGroupID":        BuiltInWorkgroupId,
	} {
		d, ok := m.Decorated(byName(t, m, name), DecorationBuiltIn)
		if !ok || BuiltIn(d.Args[0]) != b {
			t.Errorf("%s: BuiltIn %+v, want %v", name, d, b)
		}
	}
	for name, binding := range map[string]uint32{"src": 0, "dst": 1} {
		id := byName(t, m, name)
		set, ok1 := m.Decorated(id, DecorationDescriptorSet)
		bnd, ok2 := m.Decorated(id, DecorationBinding)
		if !ok1 || !ok2 || set.Args[0] != 0 || bnd.Args[0] != binding {
			t.Errorf("%s: set %+v binding %+v", name, set, bnd)
		}
	}
	if d, ok := m.Decorated(byName(t, m, "SCALE"), DecorationSpecId); !ok || d.Args[0] != 1 {
		t.Errorf("SCALE SpecId %+v", d)
	}
	pc := byName(t, m, "PC")
	if !reflect.DeepEqual(m.MemberNames[pc], map[uint32]string{0: "n", 1: "mode"}) {
		t.Errorf("PC member names %v", m.MemberNames[pc])
	}
	if ds := m.MemberDecorations[pc][1]; len(ds) != 1 || ds[0].Kind != DecorationOffset || ds[0].Args[0] != 4 {
		t.Errorf("PC.mode decorations %+v", ds)
	}
	if got, want := extInsts(t, m), []string{"FMax", "FAbs", "InverseSqrt", "Fma", "Length", "FClamp"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ext instructions %v, want %v", got, want)
	}
	var specOps []string
	for i := range m.Insts {
		if m.Insts[i].Op == OpSpecConstantOp {
			specOps = append(specOps, m.String(&m.Insts[i]))
		}
	}
	if len(specOps) != 2 || !strings.Contains(specOps[0], "IMul") || !strings.Contains(specOps[1], "IAdd") {
		t.Errorf("spec constant ops %q", specOps)
	}
}

func TestDecodeGrammarShapes(t *testing.T) {
	m := decodeFile(t, "grammar.spv")
	ep, err := m.EntryPoint(`main "quoted" \ name`)
	if err != nil {
		t.Fatal(err)
	}
	if modes := m.ExecutionModes[ep.Func]; len(modes) != 2 || !reflect.DeepEqual(modes[0].Args, []uint32{8, 4, 1}) || modes[1].Args != nil {
		t.Errorf("modes %+v", modes)
	}
	if !reflect.DeepEqual(m.Extensions, []string{"SPV_GOOGLE_hlsl_functionality1", "SPV_KHR_non_semantic_info"}) {
		t.Errorf("extensions %q", m.Extensions)
	}
	// Function parameters %p0, %p1 got the group's decorations.
	var params []uint32
	for _, in := range m.Insts {
		if in.Op == OpFunctionParameter {
			params = append(params, in.Result)
		}
	}
	restrictAligned := []Decoration{{Kind: DecorationRestrict}, {Kind: DecorationAlignment, Args: []uint32{16}}}
	if got, want := m.Decorations[params[0]], append([]Decoration{{Kind: DecorationUserSemantic, Str: "weights"}}, restrictAligned...); !reflect.DeepEqual(got, want) {
		t.Errorf("p0 decorations %+v, want %+v", got, want)
	}
	if got := m.Decorations[params[1]]; !reflect.DeepEqual(got, restrictAligned) {
		t.Errorf("p1 decorations %+v", got)
	}
	for id := range m.Decorations {
		if m.Def(id).Op == OpDecorationGroup {
			t.Errorf("group %%%d still listed in Decorations", id)
		}
	}
	s := byName(t, m, "S")
	wantMembers := map[uint32][]Decoration{
		0: {{Kind: DecorationOffset, Args: []uint32{0}}, {Kind: DecorationUserSemantic, Str: "first"}},
		1: append([]Decoration{{Kind: DecorationOffset, Args: []uint32{8}}}, restrictAligned...),
	}
	if !reflect.DeepEqual(m.MemberDecorations[s], wantMembers) {
		t.Errorf("S member decorations %+v, want %+v", m.MemberDecorations[s], wantMembers)
	}
	if got, want := extInsts(t, m), []string{"vloadn", "vload_half", "vstore_half_r", "printf", "NonSemantic.Example:?"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ext instructions %v, want %v", got, want)
	}
	// Operand kinds of instructions whose shapes depend on enumerant
	// parameters, sub-grammars and types.
	kinds := map[Op]string{}
	for i := range m.Insts {
		in := &m.Insts[i]
		ops, err := m.Operands(in)
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, o := range ops {
			ks = append(ks, o.Kind.String()+"/"+strconv.Itoa(len(o.Words)))
		}
		if _, seen := kinds[in.Op]; !seen {
			kinds[in.Op] = strings.Join(ks, " ")
		}
	}
	for op, want := range map[Op]string{
		OpLoopMerge:              "IdRef/1 IdRef/1 LoopControl/1 LiteralInteger/1 LiteralInteger/1",
		OpImageSampleExplicitLod: "IdRef/1 IdRef/1 ImageOperands/1 IdRef/1 IdRef/1",
		OpSwitch:                 "IdRef/1 IdRef/1 LiteralInteger/1 IdRef/1 LiteralInteger/1 IdRef/1",
		OpLoad:                   "IdRef/1 MemoryAccess/1 LiteralInteger/1",
		OpDecorate:               "IdRef/1 Decoration/1",
		OpEntryPoint:             "ExecutionModel/1 IdRef/1 LiteralString/6 IdRef/1",
		OpSpecConstantOp:         "LiteralSpecConstantOpInteger/1 IdRef/1 IdRef/1",
		OpExtInst:                "IdRef/1 LiteralExtInstInteger/1 IdRef/1 IdRef/1 LiteralInteger/1",
		OpGroupMemberDecorate:    "IdRef/1 IdRef/1 LiteralInteger/1",
		OpPhi:                    "IdRef/1 IdRef/1 IdRef/1 IdRef/1",
		OpTypeImage:              "IdRef/1 Dim/1 LiteralInteger/1 LiteralInteger/1 LiteralInteger/1 LiteralInteger/1 ImageFormat/1 AccessQualifier/1",
		OpSource:                 "SourceLanguage/1 LiteralInteger/1 IdRef/1 LiteralString/4",
		OpFunction:               "FunctionControl/1 IdRef/1",
		OpExecutionMode:          "IdRef/1 ExecutionMode/1 LiteralInteger/1 LiteralInteger/1 LiteralInteger/1",
		OpMemberDecorateString:   "IdRef/1 LiteralInteger/1 Decoration/1 LiteralString/2",
		OpConstant:               "LiteralContextDependentNumber/1",
		OpSpecConstant:           "LiteralContextDependentNumber/1",
		OpStore:                  "IdRef/1 IdRef/1 MemoryAccess/1 LiteralInteger/1",
		OpExtInstImport:          "LiteralString/3",
		OpTypeStruct:             "IdRef/1 IdRef/1",
		OpGroupDecorate:          "IdRef/1 IdRef/1 IdRef/1",
		OpDecorateString:         "IdRef/1 Decoration/1 LiteralString/2",
		OpCompositeExtract:       "IdRef/1 LiteralInteger/1",
		OpBranchConditional:      "IdRef/1 IdRef/1 IdRef/1",
		OpSampledImage:           "IdRef/1 IdRef/1",
		OpTypeFunction:           "IdRef/1 IdRef/1 IdRef/1 IdRef/1 IdRef/1",
		OpMemberDecorate:         "IdRef/1 LiteralInteger/1 Decoration/1 LiteralInteger/1",
		OpDecorationGroup:        "",
		OpFunctionParameter:      "",
		OpUConvert:               "IdRef/1",
		OpSLessThan:              "IdRef/1 IdRef/1",
		OpTypePointer:            "StorageClass/1 IdRef/1",
		OpVariable:               "StorageClass/1",
		OpIAdd:                   "IdRef/1 IdRef/1",
		OpCapability:             "Capability/1",
		OpMemoryModel:            "AddressingModel/1 MemoryModel/1",
		OpTypeInt:                "LiteralInteger/1 LiteralInteger/1",
		OpTypeVector:             "IdRef/1 LiteralInteger/1",
		OpTypeSampledImage:       "IdRef/1",
		OpTypeFloat:              "LiteralInteger/1",
		OpMemberName:             "IdRef/1 LiteralInteger/1 LiteralString/1",
		OpString:                 "LiteralString/3",
		OpBitcast:                "IdRef/1",
		OpBranch:                 "IdRef/1",
		OpReturn:                 "",
		OpFunctionEnd:            "",
		OpLabel:                  "",
		OpTypeVoid:               "",
		OpTypeBool:               "",
		OpTypeSampler:            "",
		OpName:                   "IdRef/1 LiteralString/2",
		OpExtension:              "LiteralString/8",
	} {
		if got, ok := kinds[op]; !ok || got != want {
			t.Errorf("%v operands: %q, want %q", op, got, want)
		}
	}
	// The second OpSwitch selects on a 64-bit int: 2-word literals.
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op == OpSwitch && m.Def(m.Def(in.Operands[0]).Type).Operands[0] == 64 {
			if got := m.String(in); !strings.Contains(got, " -1 %") || !strings.Contains(got, " 9223372036854775807 %") {
				t.Errorf("64-bit switch: %s", got)
			}
		}
	}
}

// TestDisassembleMatchesSpirvDis compares the whole listing with
// `spirv-dis --raw-id` (header comments aside): every instruction, every
// operand, every literal's formatting.
func TestDisassembleMatchesSpirvDis(t *testing.T) {
	tool, err := exec.LookPath("spirv-dis")
	if err != nil {
		t.Skip("spirv-dis not found: install spirv-tools")
	}
	for _, name := range testModules {
		t.Run(name, func(t *testing.T) {
			m := decodeFile(t, name)
			out, err := exec.Command(tool, "--raw-id", "--no-color", filepath.Join("testdata", name)).Output()
			if err != nil {
				t.Fatalf("spirv-dis: %v", err)
			}
			want := body(string(out))
			got := body(Disassemble(m))
			if len(got) != len(want) {
				t.Errorf("%d instructions, spirv-dis has %d", len(got), len(want))
			}
			if len(m.Insts) != len(want) {
				t.Errorf("len(Insts) = %d, spirv-dis lists %d", len(m.Insts), len(want))
			}
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("instruction %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// body gives the instruction lines of a listing (the ";" header dropped).
func body(s string) []string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l == "" || strings.HasPrefix(l, ";") {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

func TestDecodeBigEndian(t *testing.T) {
	for _, name := range testModules {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		little := decodeFile(t, name)
		words := make([]uint32, len(b)/4)
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		big, err := Decode(wordsToBytes(words, binary.BigEndian))
		if err != nil {
			t.Fatalf("%s big-endian: %v", name, err)
		}
		if Disassemble(big) != Disassemble(little) || !reflect.DeepEqual(big.Decorations, little.Decorations) {
			t.Errorf("%s: big-endian decode differs", name)
		}
	}
}

func TestStringAndName(t *testing.T) {
	m, err := Decode(newAsm(10).kernelPrologue().
		inst(OpName, 6, "acc").
		inst(OpConstant, 3, 6, 0x3fc00000).
		inst(OpFunction, 1, 7, FunctionControlNone, 4).
		inst(OpLabel, 8).
		inst(OpFAdd, 3, 9, 6, 6).
		inst(OpReturn).
		inst(OpFunctionEnd).bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   uint32
		want string
	}{
		{6, "%6 = OpConstant %3 1.5"},
		{9, "%9 = OpFAdd %3 %6 %6"},
		{7, "%7 = OpFunction %1 None %4"},
		{5, `%5 = OpExtInstImport "OpenCL.std"`},
	} {
		if got := m.String(m.Def(tc.id)); got != tc.want {
			t.Errorf("String(%%%d) = %q, want %q", tc.id, got, tc.want)
		}
	}
	if m.Name(6) != "acc" || m.Name(9) != "%9" {
		t.Errorf("Name: %q %q", m.Name(6), m.Name(9))
	}
	if m.Def(0) != nil || m.Def(1000) != nil || m.Def(9).Op != OpFAdd {
		t.Error("Def")
	}
}

func TestLiteralString(t *testing.T) {
	for _, tc := range []struct {
		words []uint32
		s     string
		n     int
		ok    bool
	}{
		{strWords(""), "", 1, true},
		{strWords("abc"), "abc", 1, true},
		{strWords("abcd"), "abcd", 2, true},
		{append(strWords("OpenCL.std"), 7, 8), "OpenCL.std", 3, true},
		{[]uint32{0x64636261}, "", 0, false},
		{nil, "", 0, false},
		{strWords("héllo"), "héllo", 2, true},
	} {
		s, n, ok := LiteralString(tc.words)
		if s != tc.s || n != tc.n || ok != tc.ok {
			t.Errorf("LiteralString(%#x) = %q %d %v, want %q %d %v", tc.words, s, n, ok, tc.s, tc.n, tc.ok)
		}
	}
}

// TestDecodeForwardReferences builds the shapes of raw llvm-spirv output by
// hand: a block placed before the block that defines a value it uses, an
// OpPhi naming a later value, and a decoration on a later group.
func TestDecodeForwardReferences(t *testing.T) {
	a := newAsm(20).kernelPrologue().
		inst(OpConstant, 2, 6, 1).
		inst(OpTypeBool, 14).
		inst(OpFunction, 1, 7, FunctionControlNone, 4).
		inst(OpLabel, 8).
		inst(OpBranch, 10).
		inst(OpLabel, 9). // uses %11, defined in %10 below
		inst(OpIAdd, 2, 12, 11, 6).
		inst(OpReturn).
		inst(OpLabel, 10).
		inst(OpPhi, 2, 11, 6, 8, 13, 10). // %13 defined after
		inst(OpIAdd, 2, 13, 11, 6).
		inst(OpULessThan, 14, 15, 13, 6).
		inst(OpBranchConditional, 15, 10, 9).
		inst(OpFunctionEnd)
	m, err := Decode(a.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if m.Def(11).Op != OpPhi || m.Def(12).Op != OpIAdd || m.Defs[11] <= m.Defs[12]-2 {
		t.Errorf("defs: %v", m.Defs)
	}
}

func TestDecodeErrors(t *testing.T) {
	// Offsets in a module started with kernelPrologue: the next
	// instruction starts at word p.
	p := newAsm(1).kernelPrologue().offset()
	k := func(bound uint32) *asm { return newAsm(bound).kernelPrologue() }
	for _, tc := range []struct {
		name string
		in   []byte
		want string // the whole message, word offset included
	}{
		{"empty", nil, "spirv: word 0: empty input: a SPIR-V module starts with a 5-word header"},
		{"odd length", []byte{3, 2, 0x23, 7, 0, 0}, "spirv: word 1: input is 6 bytes, not a whole number of 32-bit words"},
		{"three bytes", []byte{3, 2, 0x23}, "spirv: word 0: input is 3 bytes, not a whole number of 32-bit words"},
		{"source text", []byte("__kernel void k() {}\n"), "spirv: word 0: magic number 0x656b5f5f is not SPIR-V's 0x07230203 in either byte order: not a SPIR-V binary"},
		{"short header", newAsm(1).bytes()[:16], "spirv: word 4: input is 16 bytes, shorter than the 5-word (20-byte) SPIR-V header"},
		{"not spirv", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00"), "spirv: word 0: magic number 0x464c457f is not SPIR-V's 0x07230203 in either byte order: not a SPIR-V binary"},
		{"version 2.0", newAsm(1).set(1, 0x00020000).bytes(), "spirv: word 1: version word 0x00020000 (SPIR-V 2.0) is not supported: want SPIR-V 1.0 to 1.6"},
		{"version 1.7", newAsm(1).set(1, 0x00010700).bytes(), "spirv: word 1: version word 0x00010700 (SPIR-V 1.7) is not supported: want SPIR-V 1.0 to 1.6"},
		{"bound 0", newAsm(0).bytes(), "spirv: word 3: id bound is 0; a module with any id has a bound above it"},
		{"bound huge", newAsm(0xffffffff).bytes(), "spirv: word 3: id bound 4294967295 exceeds the limit 4194304 (SPIR-V spec §2.17 Universal Limits)"},
		{"schema", newAsm(1).set(4, 1).bytes(), "spirv: word 4: schema word is 0x00000001; SPIR-V reserves it and requires 0"},
		{"zero word count", newAsm(5).inst(OpCapability, CapabilityKernel).raw(0x00000011).bytes(),
			"spirv: word 7 (OpCapability): word count is 0 (word 0x00000011); every instruction has at least its opcode word"},
		{"past the end", newAsm(5).raw(4<<16|uint32(OpTypeInt), 1, 32).bytes(),
			"spirv: word 5 (OpTypeInt): word count 4 runs past the end of the module (3 word(s) remain)"},
		{"unknown opcode", newAsm(5).raw(1<<16 | 9999).bytes(),
			"spirv: word 5 (Op(9999)): opcode 9999 is not in the SPIR-V 1.6 grammar"},
		{"no result id", newAsm(5).raw(1<<16 | uint32(OpTypeVoid)).bytes(),
			"spirv: word 5 (OpTypeVoid): word count 1 is too small: the result id is missing"},
		{"no result type", newAsm(5).raw(1<<16 | uint32(OpUndef)).bytes(),
			"spirv: word 5 (OpUndef): word count 1 is too small: the result type is missing"},
		{"result id 0", newAsm(5).inst(OpTypeVoid, 0).bytes(),
			"spirv: word 6 (OpTypeVoid): result id %0 is out of range: ids are 1 to bound-1 = 4"},
		{"result id over bound", newAsm(5).inst(OpTypeVoid, 5).bytes(),
			"spirv: word 6 (OpTypeVoid): result id %5 is out of range: ids are 1 to bound-1 = 4"},
		{"defined twice", newAsm(5).inst(OpTypeVoid, 1).inst(OpTypeBool, 1).bytes(),
			"spirv: word 8 (OpTypeBool): result id %1 is already defined by OpTypeVoid at word 5"},
		{"undefined id", k(20).inst(OpTypePointer, 10, StorageClassFunction, 12).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpTypePointer): undefined id %12"},
		{"id over bound", k(20).inst(OpTypePointer, 10, StorageClassFunction, 99).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpTypePointer): id %99 is out of range (bound 20)"},
		{"undefined result type", k(20).inst(OpUndef, 17, 10).bytes(),
			"spirv: word " + strconv.Itoa(p+1) + " (OpUndef): undefined id %17 (result type)"},
		{"missing operand", k(20).inst(OpTypeInt, 10, 32).bytes(),
			"spirv: word " + strconv.Itoa(p) + " (OpTypeInt): word count 3 is too small: operand 'Signedness' (LiteralInteger) is missing"},
		{"extra word", k(20).inst(OpTypeBool, 10, 7).bytes(),
			"spirv: word " + strconv.Itoa(p+2) + " (OpTypeBool): 1 word(s) after the last operand the grammar defines (word count 3)"},
		{"unterminated string", k(20).raw(2<<16|uint32(OpExtension), 0x64636261).bytes(),
			"spirv: word " + strconv.Itoa(p+1) + " (OpExtension): literal string has no terminating nul before the end of the instruction"},
		{"unknown capability", k(20).inst(OpCapability, 9999).bytes(),
			"spirv: word " + strconv.Itoa(p+1) + " (OpCapability): 9999 is not a Capability in the SPIR-V 1.6 grammar"},
		{"unknown storage class", k(20).inst(OpTypePointer, 10, 77, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+2) + " (OpTypePointer): 77 is not a StorageClass in the SPIR-V 1.6 grammar"},
		{"unknown mask bit", k(20).inst(OpTypePointer, 10, StorageClassFunction, 2).inst(OpVariable, 10, 11, StorageClassFunction).
			inst(OpLoad, 2, 12, 11, 0x80000000).bytes(),
			"spirv: word " + strconv.Itoa(p+4+4+4) + " (OpLoad): bit 0x80000000 is not a MemoryAccess flag in the SPIR-V 1.6 grammar"},
		{"aligned without its literal", k(20).inst(OpTypePointer, 10, StorageClassFunction, 2).inst(OpVariable, 10, 11, StorageClassFunction).
			inst(OpLoad, 2, 12, 11, MemoryAccessAligned).bytes(),
			"spirv: word " + strconv.Itoa(p+4+4) + " (OpLoad): word count 5 is too small: operand LiteralInteger is missing"},
		{"BuiltIn without its value", k(20).inst(OpDecorate, 2, DecorationBuiltIn).bytes(),
			"spirv: word " + strconv.Itoa(p) + " (OpDecorate): word count 3 is too small: operand BuiltIn is missing"},
		{"unknown BuiltIn", k(20).inst(OpDecorate, 2, DecorationBuiltIn, 100000).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpDecorate): 100000 is not a BuiltIn in the SPIR-V 1.6 grammar"},
		{"LocalSize short", k(20).inst(OpExecutionMode, 4, ExecutionModeLocalSize, 8, 1).bytes(),
			"spirv: word " + strconv.Itoa(p) + " (OpExecutionMode): word count 5 is too small: operand 'z size' (LiteralInteger) is missing"},
		{"ext set is not an import", k(20).inst(OpExtInst, 3, 10, 2, OpenCLStdFabs, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpExtInst): set %2 is defined by OpTypeInt, want OpExtInstImport"},
		{"ext set undefined", k(20).inst(OpExtInst, 3, 10, 19, OpenCLStdFabs, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpExtInst): undefined id %19"},
		{"unknown ext instruction", k(20).inst(OpExtInst, 3, 10, 5, 999, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+4) + " (OpExtInst): OpenCL.std has no instruction 999"},
		{"vloadn without n", k(20).inst(OpExtInst, 3, 10, 5, OpenCLStdVloadn, 2, 2).bytes(),
			"spirv: word " + strconv.Itoa(p) + " (OpExtInst): word count 7 is too small: operand 'n' (LiteralInteger) is missing"},
		{"ext instruction extra operand", k(20).inst(OpExtInst, 3, 10, 5, OpenCLStdFabs, 2, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+6) + " (OpExtInst): 1 word(s) after the last operand of OpenCL.std fabs"},
		{"ext operand undefined", k(20).inst(OpExtInst, 3, 10, 5, OpenCLStdFabs, 18).bytes(),
			"spirv: word " + strconv.Itoa(p+5) + " (OpExtInst): undefined id %18"},
		{"64-bit constant in one word", k(20).inst(OpTypeInt, 10, 64, 0).inst(OpConstant, 10, 11, 5).bytes(),
			"spirv: word " + strconv.Itoa(p+4+3) + " (OpConstant): value of result type %10 (OpTypeInt 64) takes 2 word(s), the instruction has 1"},
		{"32-bit constant in two words", k(20).inst(OpConstant, 3, 11, 5, 6).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpConstant): value of result type %3 (OpTypeFloat 32) takes 1 word(s), the instruction has 2"},
		{"constant of a non-scalar type", k(20).inst(OpConstant, 4, 11, 5).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpConstant): result type %4 (OpTypeFunction) of a literal number is not a scalar OpTypeInt or OpTypeFloat"},
		{"switch on a float", k(20).inst(OpConstant, 3, 11, 0).inst(OpSwitch, 11, 12, 1, 12).inst(OpLabel, 12).bytes(),
			"spirv: word " + strconv.Itoa(p+4+1) + " (OpSwitch): selector %11 has type %3 (OpTypeFloat 32), want a scalar OpTypeInt"},
		{"switch incomplete pair", k(20).inst(OpConstant, 2, 11, 0).inst(OpSwitch, 11, 12, 1).inst(OpLabel, 12).bytes(),
			"spirv: word " + strconv.Itoa(p+4) + " (OpSwitch): word count 4 leaves an incomplete PairLiteralIntegerIdRef (1 of 2 words)"},
		{"switch 64-bit incomplete pair", k(20).inst(OpTypeInt, 10, 64, 0).inst(OpConstant, 10, 11, 0, 0).inst(OpSwitch, 11, 12, 1, 12).inst(OpLabel, 12).bytes(),
			"spirv: word " + strconv.Itoa(p+4+5) + " (OpSwitch): word count 5 leaves an incomplete PairLiteralIntegerIdRef (2 of 3 words)"},
		{"phi odd operands", k(20).inst(OpConstant, 2, 11, 0).inst(OpPhi, 2, 12, 11).bytes(),
			"spirv: word " + strconv.Itoa(p+4) + " (OpPhi): word count 4 leaves an incomplete PairIdRefIdRef (1 of 2 words)"},
		{"spec op unknown opcode", k(20).inst(OpSpecConstantOp, 2, 11, 4242).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpSpecConstantOp): opcode 4242 is not in the SPIR-V 1.6 grammar"},
		{"spec op without result", k(20).inst(OpSpecConstantOp, 2, 11, OpStore, 2, 2).bytes(),
			"spirv: word " + strconv.Itoa(p+3) + " (OpSpecConstantOp): OpStore cannot be the operation of OpSpecConstantOp"},
		{"spec op missing operand", k(20).inst(OpConstant, 2, 11, 0).inst(OpSpecConstantOp, 2, 12, OpIAdd, 11).bytes(),
			"spirv: word " + strconv.Itoa(p+4) + " (OpSpecConstantOp): word count 5 is too small: operand 'Operand 2' (IdRef) is missing"},
		{"spec op undefined operand", k(20).inst(OpSpecConstantOp, 2, 11, OpIAdd, 11, 17).bytes(),
			"spirv: word " + strconv.Itoa(p+5) + " (OpSpecConstantOp): undefined id %17"},
		{"group decorate without a group", k(20).inst(OpGroupDecorate, 2, 3).bytes(),
			"spirv: word " + strconv.Itoa(p+1) + " (OpGroupDecorate): %2 is defined by OpTypeInt, want OpDecorationGroup"},
		{"entry point to nowhere", k(20).inst(OpEntryPoint, ExecutionModelKernel, 15, "k").bytes(),
			"spirv: word " + strconv.Itoa(p+2) + " (OpEntryPoint): undefined id %15"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(tc.in)
			if err == nil {
				t.Fatalf("no error; module:\n%s", Disassemble(m))
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *DecodeError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}
