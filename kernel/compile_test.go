package kernel

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// needTools skips the test when a tool of the toolchain is missing, naming
// the Debian package.
func needTools(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
}

var openCLTools = []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val"}

func TestLanguageOf(t *testing.T) {
	tests := []struct {
		path    string
		lang    Language
		stage   string
		wantErr string
	}{
		{"k.cl", OpenCLC, "", ""},
		{"dir/K.CL", OpenCLC, "", ""},
		{"s.comp", GLSL, "comp", ""},
		{"s.glsl", GLSL, "comp", ""},
		{"s.vert", GLSL, "vert", ""},
		{"s.frag", GLSL, "frag", ""},
		{"m.spv", SPIRV, "", ""},
		{"k.c", 0, "", `unknown kernel file extension ".c"`},
		{"kernel", 0, "", "no file extension"},
	}
	for _, tt := range tests {
		lang, err := LanguageOf(tt.path)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), ".cl, .comp") {
				t.Errorf("LanguageOf(%q) error = %v, want one containing %q and the allowed list", tt.path, err, tt.wantErr)
			}
			continue
		}
		if err != nil || lang != tt.lang {
			t.Errorf("LanguageOf(%q) = %v, %v; want %v", tt.path, lang, err, tt.lang)
		}
		if tt.lang == GLSL && StageOf(tt.path) != tt.stage {
			t.Errorf("StageOf(%q) = %q, want %q", tt.path, StageOf(tt.path), tt.stage)
		}
	}
}

func TestCompileOpenCL(t *testing.T) {
	needTools(t, openCLTools...)
	tests := []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"define", Options{Defines: []string{"SCALE=2.0f"}}},
	}
	var outs [][]byte
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spv, err := Compile("testdata/vecadd.cl", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if binary.LittleEndian.Uint32(spv) != spirvMagic || len(spv)%4 != 0 {
				t.Fatalf("output is not little-endian SPIR-V: % x", spv[:8])
			}
			if !containsString(spv, "vecadd") {
				t.Errorf("entry point name vecadd not in the module")
			}
			outs = append(outs, spv)
		})
	}
	if len(outs) == 2 && string(outs[0]) == string(outs[1]) {
		t.Errorf("-DSCALE=2.0f did not change the module")
	}
}

// containsString reports whether a SPIR-V literal string s (nul-terminated,
// padded) appears in the module.
func containsString(spv []byte, s string) bool {
	return strings.Contains(string(spv), s+"\x00")
}

func TestCompileSourceInMemory(t *testing.T) {
	needTools(t, openCLTools...)
	src, err := os.ReadFile("testdata/vecadd.cl")
	if err != nil {
		t.Fatal(err)
	}
	// The name's directory is searched for scale.h.
	fromMem, err := CompileSource(src, "testdata/vecadd.cl", OpenCLC, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := Compile("testdata/vecadd.cl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(fromMem) != string(fromFile) {
		t.Errorf("CompileSource and Compile differ for the same source")
	}
}

func TestCompileErrors(t *testing.T) {
	needTools(t, append(openCLTools, "glslangValidator")...)
	broken, err := os.ReadFile("testdata/broken.cl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		compile func() ([]byte, error)
		tool    string
		want    []string
	}{
		{"opencl file", func() ([]byte, error) { return Compile("testdata/broken.cl", Options{}) },
			"clang-14", []string{"testdata/broken.cl:3:", "undeclared_name"}},
		{"opencl memory", func() ([]byte, error) { return CompileSource(broken, "mine/broken.cl", OpenCLC, Options{}) },
			"clang-14", []string{"mine/broken.cl:3:", "undeclared_name"}},
		{"glsl", func() ([]byte, error) { return Compile("testdata/broken.comp", Options{}) },
			"glslangValidator", []string{"broken.comp:5:", "nothing_here"}},
		{"glsl missing define", func() ([]byte, error) { return Compile("testdata/double.comp", Options{}) },
			"glslangValidator", []string{"FACTOR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.compile()
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("error = %v (%T), want *CompileError", err, err)
			}
			if ce.Tool != tt.tool {
				t.Errorf("Tool = %q, want %q", ce.Tool, tt.tool)
			}
			for _, w := range tt.want {
				if !strings.Contains(ce.Output, w) {
					t.Errorf("diagnostics lack %q:\n%s", w, ce.Output)
				}
			}
			if strings.Contains(ce.Output, "pocketgpu-kernel-") {
				t.Errorf("diagnostics mention the temp dir:\n%s", ce.Output)
			}
			if strings.Contains(ce.Output, "SPIR-V is not generated") {
				t.Errorf("diagnostics keep glslang boilerplate:\n%s", ce.Output)
			}
		})
	}
}

func TestCompileGLSL(t *testing.T) {
	needTools(t, "glslangValidator", "spirv-val")
	spv, err := Compile("testdata/double.comp", Options{Defines: []string{"FACTOR=2.0"}, Validate: true})
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(spv) != spirvMagic {
		t.Fatalf("not SPIR-V")
	}
	// OpEntryPoint GLCompute (execution model 5) main.
	if !containsString(spv, "main") {
		t.Errorf("no main entry point")
	}
}

func TestToolMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	tests := []struct {
		file, tool, pkg string
	}{
		{"testdata/vecadd.cl", "clang-14", "clang-14"},
		{"testdata/double.comp", "glslangValidator", "glslang-tools"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.file, Options{Defines: []string{"FACTOR=1.0"}})
		var tm *ToolMissingError
		if !errors.As(err, &tm) || tm.Tool != tt.tool || tm.Package != tt.pkg {
			t.Fatalf("Compile(%s) error = %v, want ToolMissingError{%s, %s}", tt.file, err, tt.tool, tt.pkg)
		}
		want := tt.tool + " not found: install the Debian package " + tt.pkg
		if err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	}
	// Every tool of the pipeline names its package.
	for tool, pkg := range map[string]string{"opt-14": "llvm-14", "llvm-spirv-14": "llvm-spirv-14", "spirv-val": "spirv-tools"} {
		_, err := FindTool(tool)
		if err == nil || !strings.Contains(err.Error(), "install the Debian package "+pkg) {
			t.Errorf("FindTool(%s) = %v, want it to name %s", tool, err, pkg)
		}
	}
}

func TestBadOptions(t *testing.T) {
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{Defines: []string{"1X=2"}}, "C identifier"},
		{Options{Defines: []string{""}}, "C identifier"},
		{Options{Defines: []string{"A=b\nc"}}, "newline"},
		{Options{IncludeDirs: []string{"testdata/nonexistent"}}, "include directory"},
		{Options{IncludeDirs: []string{"testdata/vecadd.cl"}}, "not a directory"},
	}
	for _, tt := range tests {
		_, err := Compile("testdata/vecadd.cl", tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compile with %+v: error %v, want %q", tt.opt, err, tt.want)
		}
	}
}

func TestCheckSPIRV(t *testing.T) {
	le := []byte{0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}
	be := make([]byte, len(le))
	for i := 0; i < len(le); i += 4 {
		binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(le[i:]))
	}
	tests := []struct {
		name string
		in   []byte
		want []byte
		err  string
	}{
		{"little-endian", le, le, ""},
		{"big-endian swapped", be, le, ""},
		{"odd length", le[:19], nil, "whole number of 32-bit words"},
		{"short", le[:16], nil, "shorter than the 5-word header"},
		{"not spirv", []byte("#version 450\nvoid ma"), nil, "not the magic number"},
	}
	for _, tt := range tests {
		got, err := CheckSPIRV(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || string(got) != string(tt.want) {
			t.Errorf("%s: got % x, %v", tt.name, got, err)
		}
	}
}

func TestLoadSPIRV(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.spv")
	bad := filepath.Join(dir, "bad.spv")
	hdr := []byte{0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}
	if err := os.WriteFile(good, hdr, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("hello world!"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(good, Options{})
	if err != nil || string(got) != string(hdr) {
		t.Fatalf("Load(good) = % x, %v", got, err)
	}
	if _, err := Load(bad, Options{}); err == nil || !strings.Contains(err.Error(), "bad.spv: not SPIR-V") {
		t.Errorf("Load(bad) error = %v", err)
	}
	if _, err := Load(filepath.Join(dir, "none.spv"), Options{}); err == nil || !strings.Contains(err.Error(), "none.spv") {
		t.Errorf("Load(missing) error = %v", err)
	}
	// A header-only module is not valid SPIR-V to spirv-val.
	needTools(t, "spirv-val")
	var ce *CompileError
	if _, err := Load(good, Options{Validate: true}); !errors.As(err, &ce) || ce.Tool != "spirv-val" {
		t.Errorf("Load(header only, Validate) error = %v, want a spirv-val CompileError", err)
	}
}

func TestToolCrash(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake compiler")
	}
	bin := t.TempDir()
	scripts := map[string]string{
		"glslangValidator": "#!/bin/sh\necho 'about to fail' >&2\nkill -SEGV $$\n",
		"clang-14":         "#!/bin/sh\necho 'PLEASE submit a bug report to https://example.invalid' >&2\nexit 1\n",
	}
	for name, s := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	tests := []struct{ file, tool, output string }{
		{"testdata/double.comp", "glslangValidator", "about to fail"},
		{"testdata/vecadd.cl", "clang-14", "PLEASE submit"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.file, Options{})
		var crash *ToolCrashError
		if !errors.As(err, &crash) || crash.Tool != tt.tool || !strings.Contains(crash.Output, tt.output) {
			t.Errorf("Compile(%s) error = %v (%T), want a ToolCrashError from %s", tt.file, err, err, tt.tool)
		}
	}
}
