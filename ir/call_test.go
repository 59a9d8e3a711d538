package ir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// A call to a function the module only declares (its parameters and no
// block, as llvm-spirv writes a C99 inline definition the optimizer
// dropped) is refused naming the function, not taken for a body.
func TestCallToDeclarationRefused(t *testing.T) {
	if _, err := exec.LookPath("spirv-as"); err != nil {
		t.Skip("skipping: spirv-as not installed (Debian package spirv-tools)")
	}
	spv := filepath.Join(t.TempDir(), "decl.spv")
	if out, err := exec.Command("spirv-as", "testdata/call_declaration.spvasm", "-o", spv).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, out)
	}
	data, err := os.ReadFile(spv)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(m, "k", Options{})
	if err == nil || !strings.Contains(err.Error(), "helper has no body") {
		t.Errorf("Build: %v, want an error naming helper as having no body", err)
	}
}
