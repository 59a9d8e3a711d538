package kernel

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// testdata/unordered.spv is bench/kernels/bandwidth.cl as clang-14 -O2 and
// llvm-spirv-14 emit it: a block before its dominator, which spirv-val
// rejects. After orderBlocks it validates, and it holds the same
// instructions.
func TestOrderBlocks(t *testing.T) {
	in, err := os.ReadFile("testdata/unordered.spv")
	if err != nil {
		t.Fatal(err)
	}
	out, err := orderBlocks(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) || bytes.Equal(out, in) {
		t.Fatalf("reordered module: %d bytes (was %d), changed %v", len(out), len(in), !bytes.Equal(out, in))
	}
	mi, err := spirv.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	mo, err := spirv.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	count := func(m *spirv.Module) map[spirv.Op]int {
		c := map[spirv.Op]int{}
		for _, in := range m.Insts {
			c[in.Op]++
		}
		return c
	}
	ci, co := count(mi), count(mo)
	for op, n := range ci {
		if co[op] != n {
			t.Errorf("%v: %d instructions, was %d", op, co[op], n)
		}
	}
	// Ordering twice changes nothing.
	again, err := orderBlocks(out)
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("not idempotent (%v)", err)
	}
	if _, err := exec.LookPath("spirv-val"); err != nil {
		t.Skip("spirv-val not installed (Debian package spirv-tools)")
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{"in.spv": in, "out.spv": out} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if exec.Command("spirv-val", filepath.Join(dir, "in.spv")).Run() == nil {
		t.Error("the test input validates: it no longer tests the reordering")
	}
	if msg, err := exec.Command("spirv-val", filepath.Join(dir, "out.spv")).CombinedOutput(); err != nil {
		t.Errorf("reordered module does not validate: %s", msg)
	}
}
