package device

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// Scalar half values take half a register where the GPU has half
// registers (half_registers, the Adreno presets): a kernel keeping nine
// scalar halves live needs fewer registers on the Adreno 640 than with the
// parameter off, and than on the Mali-G52, whose count is unchanged.
func TestHalfRegistersPackScalars(t *testing.T) {
	for _, tool := range []string{"clang-14", "llvm-spirv-14"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	spv, err := kernel.Compile("testdata/kernels/half_scalars.cl", kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	regs := func(id string, half bool) int {
		g, err := arch.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		g.HalfRegisters = half
		k, err := Open(g).Load(spv, "", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return k.Regs
	}
	packed, whole := regs("adreno-640", true), regs("adreno-640", false)
	if mali := regs("mali-g52", false); packed >= whole || whole != mali {
		t.Errorf("registers: Adreno 640 %d with half registers, %d without; Mali-G52 %d", packed, whole, mali)
	}
	// Nine halves live through the loop: at least four registers saved.
	if whole-packed < 4 {
		t.Errorf("half registers save %d registers, want at least 4 (nine scalar halves live)", whole-packed)
	}
}
