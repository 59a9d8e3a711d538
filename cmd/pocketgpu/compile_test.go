package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/kernel"
)

const compileTestCL = `__kernel void scale(__global float *a) { a[get_global_id(0)] *= FACTOR; }
`

const compileTestComp = `#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { float v[]; };
void main() { v[gl_GlobalInvocationID.x] *= 2.0; }
`

const compileTestBroken = `__kernel void broken(__global float *a) { a[0] = missing_thing; }
`

func needCompilers(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val", "glslangValidator"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCompileCommand(t *testing.T) {
	needCompilers(t)
	dir := writeFiles(t, map[string]string{
		"scale.cl":    compileTestCL,
		"double.comp": compileTestComp,
		"broken.cl":   compileTestBroken,
		"junk.spv":    "not a module",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name   string
		args   []string
		code   int
		out    string // written SPIR-V file, when code is 0
		stdout string
		stderr []string
	}{
		{"opencl", []string{"compile", p("scale.cl"), "-D", "FACTOR=2.0f", "-o", p("scale.spv")}, exitOK, p("scale.spv"), "bytes of SPIR-V", nil},
		{"opencl joined -D", []string{"compile", p("scale.cl"), "-DFACTOR=3.0f", "-o", p("scale3.spv")}, exitOK, p("scale3.spv"), "", nil},
		{"glsl", []string{"compile", p("double.comp"), "-o", p("double.spv")}, exitOK, p("double.spv"), "", nil},
		{"spv copy", []string{"compile", p("scale.spv"), "-o", p("copy.spv"), "--validate=false"}, exitOK, p("copy.spv"), "", nil},
		{"compile error", []string{"compile", p("broken.cl"), "-o", p("broken.spv")}, exitBadInput, "", "",
			[]string{"clang-14 failed", "broken.cl:1:", "missing_thing"}},
		{"missing define", []string{"compile", p("scale.cl"), "-o", p("x.spv")}, exitBadInput, "", "", []string{"FACTOR"}},
		{"no output flag", []string{"compile", p("scale.cl")}, exitBadInput, "", "", []string{`required flag(s) "output" not set`}},
		{"no file", []string{"compile", "-o", p("x.spv")}, exitBadInput, "", "", []string{"accepts 1 arg"}},
		{"missing file", []string{"compile", p("nope.cl"), "-o", p("x.spv")}, exitBadInput, "", "", []string{"nope.cl", "no such file"}},
		{"unknown extension", []string{"compile", p("scale.c"), "-o", p("x.spv")}, exitBadInput, "", "", []string{`unknown kernel file extension ".c"`, ".cl, .comp"}},
		{"bad define", []string{"compile", p("scale.cl"), "-D", "2X=1", "-o", p("x.spv")}, exitBadInput, "", "", []string{"C identifier"}},
		{"bad include", []string{"compile", p("scale.cl"), "-I", p("nodir"), "-o", p("x.spv")}, exitBadInput, "", "", []string{"include directory"}},
		{"not spirv", []string{"compile", p("junk.spv"), "-o", p("x.spv")}, exitBadInput, "", "", []string{"junk.spv: not SPIR-V"}},
		{"output is input", []string{"compile", p("scale.cl"), "-o", p("scale.cl")}, exitBadInput, "", "", []string{"is the input file"}},
		{"unwritable output", []string{"compile", p("double.comp"), "-o", p("nodir/x.spv")}, exitBadInput, "", "", []string{"does not exist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := execute(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.stdout)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("stderr has a Go stack trace:\n%s", stderr.String())
			}
			if tt.out != "" {
				b, err := os.ReadFile(tt.out)
				if err != nil {
					t.Fatal(err)
				}
				if len(b) < 20 || binary.LittleEndian.Uint32(b) != 0x07230203 {
					t.Errorf("%s is not SPIR-V", tt.out)
				}
			}
		})
	}
}

// TestCompileCommandToolProblems checks exit 1 for a missing or crashing
// compiler, with the package to install named in one line.
func TestCompileCommandToolProblems(t *testing.T) {
	dir := writeFiles(t, map[string]string{"scale.cl": compileTestCL})
	src := filepath.Join(dir, "scale.cl")

	t.Run("missing", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		var stdout, stderr bytes.Buffer
		code := execute([]string{"compile", src, "-o", filepath.Join(dir, "x.spv")}, &stdout, &stderr)
		want := "pocketgpu: clang-14 not found: install the Debian package clang-14\n"
		if code != exitFailure || stderr.String() != want {
			t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr.String(), want)
		}
	})
	t.Run("crash", func(t *testing.T) {
		bin := t.TempDir()
		script := "#!/bin/sh\necho 'internal failure' >&2\nkill -SEGV $$\n"
		if err := os.WriteFile(filepath.Join(bin, "clang-14"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat("/bin/sh"); err != nil {
			t.Skip("no /bin/sh for the fake compiler")
		}
		t.Setenv("PATH", bin)
		var stdout, stderr bytes.Buffer
		code := execute([]string{"compile", src, "-o", filepath.Join(dir, "x.spv")}, &stdout, &stderr)
		if code != exitFailure || !strings.Contains(stderr.String(), "clang-14 crashed") || !strings.Contains(stderr.String(), "internal failure") {
			t.Errorf("exit %d, stderr %q; want exit 1 and a crash report", code, stderr.String())
		}
	})
}
