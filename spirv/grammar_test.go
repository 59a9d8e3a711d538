package spirv

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Values from the SPIR-V 1.6 specification (§3 "Binary Form" tables) and the
// extended instruction set specifications, typed in independently of the
// grammar files.
func TestKnownValues(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want uint32
	}{
		{"OpNop", uint32(OpNop), 0},
		{"OpExtInst", uint32(OpExtInst), 12},
		{"OpConstant", uint32(OpConstant), 43},
		{"OpFAdd", uint32(OpFAdd), 129},
		{"OpPhi", uint32(OpPhi), 245},
		{"OpSwitch", uint32(OpSwitch), 251},
		{"OpDecorateString", uint32(OpDecorateString), 5632},
		{"CapabilityKernel", uint32(CapabilityKernel), 6},
		{"CapabilityFloat16Buffer", uint32(CapabilityFloat16Buffer), 8},
		{"StorageClassCrossWorkgroup", uint32(StorageClassCrossWorkgroup), 5},
		{"StorageClassWorkgroup", uint32(StorageClassWorkgroup), 4},
		{"DecorationBuiltIn", uint32(DecorationBuiltIn), 11},
		{"BuiltInGlobalInvocationId", uint32(BuiltInGlobalInvocationId), 28},
		{"ExecutionModeLocalSize", uint32(ExecutionModeLocalSize), 17},
		{"ExecutionModelKernel", uint32(ExecutionModelKernel), 6},
		{"DimBuffer", uint32(DimBuffer), 5},
		{"MemoryAccessAligned", uint32(MemoryAccessAligned), 2},
		{"ImageOperandsLod", uint32(ImageOperandsLod), 2},
		{"FunctionControlDontInline", uint32(FunctionControlDontInline), 2},
		{"LoopControlUnroll", uint32(LoopControlUnroll), 1},
		{"MemorySemanticsWorkgroupMemory", uint32(MemorySemanticsWorkgroupMemory), 0x100},
		{"ScopeWorkgroup", uint32(ScopeWorkgroup), 2},
		{"OpenCLStdFma", uint32(OpenCLStdFma), 26},
		{"OpenCLStdMad", uint32(OpenCLStdMad), 42},
		{"OpenCLStdNativeRsqrt", uint32(OpenCLStdNativeRsqrt), 91},
		{"OpenCLStdVloadn", uint32(OpenCLStdVloadn), 171},
		{"GLSLStd450FAbs", uint32(GLSLStd450FAbs), 4},
		{"GLSLStd450InverseSqrt", uint32(GLSLStd450InverseSqrt), 32},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{OpFAdd.String(), "OpFAdd"},
		{OpSDotKHR.String(), "OpSDot"}, // alias: the first name
		{Op(9999).String(), "Op(9999)"},
		{CapabilityKernel.String(), "Kernel"},
		{Capability(99999).String(), "Capability(99999)"},
		{DecorationBuiltIn.String(), "BuiltIn"},
		{Dim2D.String(), "2D"},
		{MemoryAccess(0).String(), "None"},
		{(MemoryAccessVolatile | MemoryAccessAligned).String(), "Volatile|Aligned"},
		{MemoryAccess(0x80000002).String(), "Aligned|0x80000000"},
		{(ImageOperandsLod | ImageOperandsConstOffset).String(), "Lod|ConstOffset"},
		{OpenCLStdNativeRsqrt.String(), "native_rsqrt"},
		{OpenCLStdSMad24.String(), "s_mad24"},
		{OpenCLStd(5000).String(), "5000"},
		{GLSLStd450InverseSqrt.String(), "InverseSqrt"},
		{OperandKindIdRef.String(), "IdRef"},
		{OperandKind(200).String(), "OperandKind(200)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestInstInfo(t *testing.T) {
	for _, tc := range []struct {
		op                 Op
		hasType, hasResult bool
		operands           string
	}{
		{OpFAdd, true, true, "IdRef IdRef"},
		{OpStore, false, false, "IdRef IdRef MemoryAccess?"},
		{OpTypeInt, false, true, "LiteralInteger LiteralInteger"},
		{OpExtInst, true, true, "IdRef LiteralExtInstInteger IdRef*"},
		{OpSwitch, false, false, "IdRef IdRef PairLiteralIntegerIdRef*"},
		{OpPhi, true, true, "PairIdRefIdRef*"},
		{OpDecorate, false, false, "IdRef Decoration"},
		{OpEntryPoint, false, false, "ExecutionModel IdRef LiteralString IdRef*"},
	} {
		info := tc.op.Info()
		if info == nil {
			t.Fatalf("%v: no info", tc.op)
		}
		var ks []string
		for _, o := range info.Operands {
			s := o.Kind.String()
			switch o.Quant {
			case QuantOptional:
				s += "?"
			case QuantVariadic:
				s += "*"
			}
			ks = append(ks, s)
		}
		if info.Op != tc.op || info.HasType != tc.hasType || info.HasResult != tc.hasResult || strings.Join(ks, " ") != tc.operands {
			t.Errorf("%v: %+v operands %q, want type %v result %v operands %q", tc.op, info, ks, tc.hasType, tc.hasResult, tc.operands)
		}
	}
	if Op(9999).Info() != nil || Op(0xffff).Info() != nil {
		t.Error("Info of an opcode not in the grammar is not nil")
	}
	if e := OperandKindDecoration.Enumerants(); len(e) == 0 || OperandKindIdRef.Enumerants() != nil {
		t.Error("Enumerants")
	}
	if name, ok := EnumerantName(OperandKindStorageClass, 5); !ok || name != "CrossWorkgroup" {
		t.Errorf("EnumerantName = %q %v", name, ok)
	}
	if info, ok := LookupExtInst(ExtSetOpenCLStd, uint32(OpenCLStdVloadn)); !ok || len(info.Operands) != 3 || info.Operands[2].Kind != OperandKindLiteralInteger {
		t.Errorf("vloadn: %+v", info)
	}
	if _, ok := LookupExtInst("NonSemantic.Foo", 1); ok {
		t.Error("LookupExtInst of an unknown set")
	}
}

// headerEnums reads "NAME = VALUE," lines of a C header into a map.
func headerEnums(t *testing.T, path string, re *regexp.Regexp) map[string]uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%v: install spirv-headers", err)
	}
	defer f.Close()
	m := map[string]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := re.FindStringSubmatch(sc.Text()); s != nil {
			v, err := strconv.ParseUint(s[2], 0, 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			m[s[1]] = v
		}
	}
	return m
}

const headerDir = "/usr/include/spirv/unified1"

// TestTablesAgreeWithCHeaders checks every generated opcode and enumerant
// against spirv.h, and the extended sets against GLSL.std.450.h and
// OpenCL.std.h: the same registry, but files produced by other tools.
func TestTablesAgreeWithCHeaders(t *testing.T) {
	re := regexp.MustCompile(`^\s+Spv(\w+) = (0x[0-9a-fA-F]+|\d+),?$`)
	h := headerEnums(t, filepath.Join(headerDir, "spirv.h"), re)
	check := func(cname string, v uint32, what string) {
		hv, ok := h[cname]
		if !ok {
			t.Errorf("%s: Spv%s not in spirv.h", what, cname)
		} else if hv != uint64(v) {
			t.Errorf("%s = %d, spirv.h has %d", what, v, hv)
		}
	}
	n := 0
	for _, info := range instTable {
		check(info.Name, uint32(info.Op), info.Name)
		n++
	}
	for k := OperandKind(1); k < OperandKindOpaque; k++ {
		for _, e := range k.Enumerants() {
			switch {
			case k.IsBitEnum() && e.Value == 0:
				check(k.String()+"MaskNone", e.Value, k.String()+e.Name)
			case k.IsBitEnum():
				check(k.String()+e.Name+"Mask", e.Value, k.String()+e.Name)
			default:
				check(k.String()+e.Name, e.Value, k.String()+e.Name)
			}
			n++
		}
	}
	t.Logf("%d opcodes and enumerants agree with spirv.h", n)

	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	for _, set := range []struct {
		file  string
		re    *regexp.Regexp
		table []ExtInstInfo
	}{
		{"GLSL.std.450.h", regexp.MustCompile(`^\s+GLSLstd450(\w+) = (\d+),`), glslStd450Table[:]},
		{"OpenCL.std.h", regexp.MustCompile(`^\s+OpenCLstd_(\w+) = (\d+),`), openCLStdTable[:]},
	} {
		hv := headerEnums(t, filepath.Join(headerDir, set.file), set.re)
		byName := map[string]uint64{}
		for name, v := range hv {
			byName[norm(name)] = v
		}
		for _, in := range set.table {
			v, ok := byName[norm(in.Name)]
			if !ok || v != uint64(in.Number) {
				t.Errorf("%s: %s = %d, header has %d (found %v)", set.file, in.Name, in.Number, v, ok)
			}
		}
		if len(set.table) < 80 {
			t.Errorf("%s: only %d instructions", set.file, len(set.table))
		}
	}
}
