package timing

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Each work-group slot's spill and local areas sit back to back, core after
// core, and a second kernel's after the first's: no two slots share a line,
// and consecutive slots start on different cache sets (with a window per
// (core, slot) at a fixed large stride, every slot's first line fell in the
// same set).
func TestWindowsBackToBack(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(g, mem.New(g))
	a := &Kernel{prog: &isa.Program{WarpWidth: 8, SpillBytes: 104}}
	e.disp.kernels = append(e.disp.kernels, a)
	e.layWindows(a, 3, 8, 1000)
	warpArea := uint64(104 * 8)
	if a.win.private != 8*warpArea || a.win.local != 1024 {
		t.Fatalf("areas %d B private, %d B local; want %d and 1024 (1000 rounded to 256)", a.win.private, a.win.local, 8*warpArea)
	}
	for core := range g.Cores {
		for slot := range 3 {
			i := uint64(core*3 + slot)
			if got := a.window(ir.SpacePrivate, core, slot); got != i*8*warpArea {
				t.Errorf("core %d slot %d: private area at %d, want %d", core, slot, got, i*8*warpArea)
			}
			if got := a.window(ir.SpaceLocal, core, slot); got != i*1024 {
				t.Errorf("core %d slot %d: local area at %d, want %d", core, slot, got, i*1024)
			}
		}
	}
	line := uint64(g.L1.LineBytes)
	if s0, s1 := a.window(ir.SpacePrivate, 0, 0)/line, a.window(ir.SpacePrivate, 0, 1)/line; s0 == s1 {
		t.Error("slots 0 and 1 start on the same line")
	}
	b := &Kernel{prog: &isa.Program{WarpWidth: 8, SpillBytes: 16}}
	e.disp.kernels = append(e.disp.kernels, b)
	e.layWindows(b, 1, 4, 0)
	span := uint64(g.Cores*3) * a.win.private
	if got := b.window(ir.SpacePrivate, 0, 0); got != span {
		t.Errorf("second kernel's private areas start at %d, want after the first's %d", got, span)
	}
	if got := b.window(ir.SpaceLocal, 0, 0); got != uint64(g.Cores*3)*1024 {
		t.Errorf("second kernel's local areas start at %d, want %d", got, uint64(g.Cores*3)*1024)
	}
}
