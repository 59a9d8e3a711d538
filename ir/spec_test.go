package ir

import (
	"os"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// An override for a SpecId the module lacks is refused with the ones it has;
// one it has takes effect.
func TestSpecOverrides(t *testing.T) {
	data, err := os.ReadFile("../internal/corpus/kernels/spec_glsl.spv")
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(m, "", Options{Spec: map[uint32]string{99: "5"}})
	if err == nil || !strings.Contains(err.Error(), "specialization constant 99") || !strings.Contains(err.Error(), "1 (SHIFT)") {
		t.Errorf("unknown SpecId: %v", err)
	}
	p, err := Build(m, "", Options{Spec: map[uint32]string{1: "5"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.SpecConsts {
		if c.SpecID == 1 && c.Default != 5 {
			t.Errorf("SHIFT overridden to %d, want 5", c.Default)
		}
	}
}
