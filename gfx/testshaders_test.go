package gfx

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The test shaders in testdata/shaders are committed as SPIR-V so that the
// tests need no compiler; regenerate them with `go generate ./gfx`.
//go:generate sh -c "cd testdata/shaders && for f in *.vert *.frag; do glslangValidator -V --target-env vulkan1.1 -o ${DOLLAR}f.spv ${DOLLAR}f >/dev/null; done"

func TestTestShadersAreCurrent(t *testing.T) {
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not found: install the Debian package glslang-tools")
	}
	srcs, _ := filepath.Glob(filepath.Join("testdata", "shaders", "*.vert"))
	frags, _ := filepath.Glob(filepath.Join("testdata", "shaders", "*.frag"))
	srcs = append(srcs, frags...)
	if len(srcs) < 5 {
		t.Fatalf("only %d test shaders", len(srcs))
	}
	for _, src := range srcs {
		out := filepath.Join(t.TempDir(), filepath.Base(src)+".spv")
		if msg, err := exec.Command(tool, "-V", "--target-env", "vulkan1.1", "-o", out, src).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", src, err, msg)
		}
		got, _ := os.ReadFile(out)
		want, err := os.ReadFile(src + ".spv")
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s.spv is missing or stale: run go generate ./gfx", strings.TrimPrefix(src, "testdata/"))
		}
	}
}
