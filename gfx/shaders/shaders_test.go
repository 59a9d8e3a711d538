package shaders

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCommittedSPIRVMatchesSource recompiles every shader and compares it
// with the committed .spv, so a change to the GLSL without `go generate`
// is caught.
func TestCommittedSPIRVMatchesSource(t *testing.T) {
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("glslangValidator not found: install the Debian package glslang-tools")
	}
	for spv, src := range Sources {
		out := filepath.Join(t.TempDir(), spv)
		cmd := exec.Command(tool, "-V", "--target-env", "vulkan1.1", "-o", out, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", src, err, msg)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(spv)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./gfx/shaders", spv)
		}
	}
}

func TestEmbedded(t *testing.T) {
	for name, b := range map[string][]byte{"Vertex": Vertex, "Fragment": Fragment, "FragmentMasked": FragmentMasked,
		"FragmentDepth": FragmentDepth, "VertexShadowed": VertexShadowed, "FragmentShadowed": FragmentShadowed, "FragmentBloom": FragmentBloom} {
		if len(b) < 20 || b[0] != 0x03 || b[1] != 0x02 || b[2] != 0x23 || b[3] != 0x07 {
			t.Errorf("%s is not SPIR-V (%d bytes)", name, len(b))
		}
	}
}
