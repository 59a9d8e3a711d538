package ir

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// FuzzBuild lowers every entry point of whatever decodes. The builder must
// answer with an *Error, never crash; an "internal error" (a recovered
// panic) counts as a failure so that fuzzing finds the hole.
func FuzzBuild(f *testing.F) {
	for _, b := range corpus.SPIRVSeeds("../cmd/pocketgpu/testdata/kernels/*.spv", "../spirv/testdata/*.spv") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		for _, ep := range m.EntryPoints {
			p, err := Build(m, ep.Name, Options{})
			if err != nil {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("entry %q: %v", ep.Name, err)
				}
				continue
			}
			p.Registers()
			_ = p.String()
		}
	})
}

// readFuzzInput reads a corpus file of go test's fuzzing format (a header
// line, then one []byte literal).
func readFuzzInput(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 3)
	if len(lines) < 2 || lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: not a fuzz corpus file", path)
	}
	lit := strings.TrimSpace(lines[1])
	if !strings.HasPrefix(lit, "[]byte(") || !strings.HasSuffix(lit, ")") {
		t.Fatalf("%s: not a []byte input", path)
	}
	s, err := strconv.Unquote(lit[len("[]byte(") : len(lit)-1])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

// fuzzRegressions keeps every input FuzzBuild found, by name, with the
// error it gets now. The first cases are the bugs fuzzing found in the
// builder and that were fixed (36e7edc): modules that crashed it or made
// it allocate without bound, rebuilt by hand as testdata/bad/*.spvasm
// since the original inputs no longer pass the stricter decoder; then the
// corpus FuzzBuild keeps in testdata/fuzz/FuzzBuild, where every input but
// one stops in the decoder.
var fuzzRegressions = []struct{ name, file, want string }{
	{"OpTranspose of a vector (crashed the builder)", "testdata/bad/transpose_of_a_vector.spv", "OpTranspose needs a matrix"},
	{"program-scope constants past 1 GiB (allocated without bound)", "testdata/bad/constant_data_over_1GiB.spv", "program-scope constant data over 1073741824 bytes"},
	{"a 1.2 MB private array (frames without bound)", "testdata/bad/private_memory_over_1MiB.spv", "each work-item needs 1200000 bytes of private memory; pocketgpu allows 1048576"},
	{"two million value slots (registers without bound)", "testdata/bad/value_slots_over_the_limit.spv", "the kernel needs 2097153 value slots per work-item; pocketgpu allows 1048576"},
	{"a 1.25 GiB array type (types without bound)", "testdata/bad/type_over_1GiB.spv", "type f32x4[16777216][5] is larger than 1073741824 bytes"},

	{"OpFAdd with a result type id out of range", "testdata/fuzz/FuzzBuild/01a63cd2e132e89d", "result type id %60678 is out of range (bound 90)"},
	{"OpNop with two words too many", "testdata/fuzz/FuzzBuild/07ecfbb73f5f4a26", "(OpNop): 2 word(s) after the last operand the grammar defines"},
	{"OpExtInst operand id out of range", "testdata/fuzz/FuzzBuild/0cd1ca2b78a898cb", "(OpExtInst): id %16744192 is out of range (bound 140)"},
	{"linkage type 4", "testdata/fuzz/FuzzBuild/1c68fc91e9464637", "4 is not a LinkageType"},
	{"a constant's result id defined twice", "testdata/fuzz/FuzzBuild/2012d911cf1cb1ae", "result id %5 is already defined by OpConstant"},
	{"function parameter result id out of range", "testdata/fuzz/FuzzBuild/229969007a9cb96d", "(OpFunctionParameter): result id %16777228 is out of range"},
	{"version 48.48", "testdata/fuzz/FuzzBuild/2845da099c6c71f0", "(SPIR-V 48.48) is not supported: want SPIR-V 1.0 to 1.6"},
	{"id bound 808464432", "testdata/fuzz/FuzzBuild/3eb666f7dbb554a4", "id bound 808464432 exceeds the limit 4194304"},
	{"decoration 65321", "testdata/fuzz/FuzzBuild/3fcf052af3133457", "65321 is not a Decoration"},
	{"spec constant result id out of range, bound 48", "testdata/fuzz/FuzzBuild/4b0c823e7ba9985b", "result id %808464432 is out of range: ids are 1 to bound-1 = 47"},
	{"opcode 40", "testdata/fuzz/FuzzBuild/4d62308710caef84", "opcode 40 is not in the SPIR-V 1.6 grammar"},
	{"spec constant op redefining the import", "testdata/fuzz/FuzzBuild/4daede75b6ecbc7a", "result id %1 is already defined by OpExtInstImport"},
	{"spec constant result id out of range, bound 12336", "testdata/fuzz/FuzzBuild/51c971e1f2c4bb51", "ids are 1 to bound-1 = 12335"},
	{"memory model 65536", "testdata/fuzz/FuzzBuild/5492e7c81aa3b37e", "65536 is not a MemoryModel"},
	{"one byte", "testdata/fuzz/FuzzBuild/582528ddfad69eb5", "input is 1 bytes, not a whole number of 32-bit words"},
	{"word count 0", "testdata/fuzz/FuzzBuild/5a168509411c7f4d", "word count is 0"},
	{"image write of an undefined id", "testdata/fuzz/FuzzBuild/61621d4b96ed81eb", "(OpImageWrite): undefined id %2109488"},
	{"entry point function id out of range", "testdata/fuzz/FuzzBuild/713fa31c292327a5", "(OpEntryPoint): id %808464432 is out of range (bound 48)"},
	{"function id out of range", "testdata/fuzz/FuzzBuild/7693eaae8fb09514", "(OpFunction): id %4294967273 is out of range (bound 139)"},
	{"phi operand out of range", "testdata/fuzz/FuzzBuild/8cd8c9f70fbc6afa", "(OpPhi): id %1900578 is out of range (bound 99)"},
	{"constant result id out of range", "testdata/fuzz/FuzzBuild/ac1b402abc0e5999", "(OpConstant): result id %14614571 is out of range"},
	{"vector of 229 components behind a quoted entry name", "testdata/fuzz/FuzzBuild/bb68f0b165411c77", "(OpTypeVector): vector of 229 u64 is not supported (2 to 16 scalars are)"},
	{"schema word 0x30", "testdata/fuzz/FuzzBuild/c7eccad2d8c914fc", "schema word is 0x00000030"},
	{"empty input", "testdata/fuzz/FuzzBuild/caf81e9797b19c76", "empty input"},
	{"spec constant result type id out of range", "testdata/fuzz/FuzzBuild/d88e4722ffbb6b84", "result type id %808464432 is out of range (bound 3158064)"},
	{"import with two words too many", "testdata/fuzz/FuzzBuild/dde8ba27d016e01b", "(OpExtInstImport): 2 word(s) after the last operand the grammar defines"},
	{"opcode 12336", "testdata/fuzz/FuzzBuild/fe82ed610525df9a", "opcode 12336 is not in the SPIR-V 1.6 grammar"},
}

func TestFuzzRegressions(t *testing.T) {
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzBuild/*")
	named := map[string]bool{}
	for _, r := range fuzzRegressions {
		named[r.file] = true
		t.Run(r.name, func(t *testing.T) {
			var data []byte
			if strings.HasPrefix(r.file, "testdata/fuzz/") {
				data = readFuzzInput(t, r.file)
			} else {
				var err error
				if data, err = os.ReadFile(r.file); err != nil {
					t.Fatal(err)
				}
			}
			m, err := spirv.Decode(data)
			if err == nil {
				if len(m.EntryPoints) == 0 {
					t.Fatal("decodes with no entry point")
				}
				_, err = Build(m, m.EntryPoints[0].Name, Options{})
			}
			if err == nil || !strings.Contains(err.Error(), r.want) || strings.Contains(err.Error(), "internal error") {
				t.Errorf("got %v, want an error saying %q", err, r.want)
			}
		})
	}
	for _, f := range corpus {
		if !named[f] {
			t.Errorf("%s is in FuzzBuild's corpus but has no named regression case", f)
		}
	}
}
