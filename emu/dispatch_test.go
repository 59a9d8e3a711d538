package emu

import (
	"strings"
	"testing"
)

// A launch the executor cannot run is refused by Init, saying why.
func TestInitErrors(t *testing.T) {
	base := klaunch{file: "exec.spv", entry: "store_at", global: [3]int{8, 1, 1}, local: [3]int{4, 1, 1},
		args: []any{filled(8, 0), kval(le32(0))}}
	for _, c := range []struct {
		name  string
		setup func(d *Dispatch)
		want  string
	}{
		{"warp too wide", func(d *Dispatch) { d.Width = 200 }, "warp width 200 is out of range (1 to 128)"},
		{"no warp", func(d *Dispatch) { d.Width = 0 }, "warp width 0 is out of range"},
		{"ragged NDRange", func(d *Dispatch) { d.Global[0] = 10 }, "global size 10 in dimension 0 is not a multiple of the local size 4"},
		{"argument missing", func(d *Dispatch) { d.Params = d.Params[:1] }, "kernel store_at takes 2 arguments, 1 given"},
	} {
		l := base
		l.setup = c.setup
		_, _, err := l.dispatch(t)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Zero sizes mean 1; the geometry queries follow.
	l := base
	l.global, l.local = [3]int{8, 0, 0}, [3]int{4, 0, 0}
	d, _, err := l.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	if d.Groups() != [3]int{2, 1, 1} || d.NumGroups() != 2 || d.WorkGroupSize() != 4 || d.WarpsPerGroup() != 1 || d.LocalBytes() != 0 {
		t.Errorf("groups %v (%d), size %d, warps %d, local %d", d.Groups(), d.NumGroups(), d.WorkGroupSize(), d.WarpsPerGroup(), d.LocalBytes())
	}
}

// Buffers are found by any address inside them, not past them; freed ones
// are gone; a fault far from every buffer names the nearest.
func TestMemoryMap(t *testing.T) {
	m := NewMemory()
	if got := m.describe(0x1234); got != "no buffer is mapped" {
		t.Errorf("empty memory: %q", got)
	}
	a, b := m.Alloc(100, "a", false), m.Alloc(10, "b", true)
	for _, c := range []struct {
		addr uint64
		n    int
		want *Buffer
	}{{a.Base, 100, a}, {a.Base + 99, 1, a}, {a.Base + 99, 2, nil}, {a.End(), 1, nil}, {b.Base + 4, 4, b}, {b.Base - 1, 1, nil}} {
		if got := m.Find(c.addr, c.n); got != c.want {
			t.Errorf("Find(%#x, %d) = %v, want %v", c.addr, c.n, got, c.want)
		}
	}
	if b.Base < a.End()+vaGuard {
		t.Errorf("no guard gap between %#x and %#x", a.End(), b.Base)
	}
	if got := m.describe(b.End() + 5); !strings.Contains(got, `5 bytes past the end of buffer "b"`) {
		t.Errorf("past b: %q", got)
	}
	m.Free(a)
	if m.Find(a.Base, 1) != nil || len(m.Buffers()) != 1 || m.Buffers()[0] != b {
		t.Errorf("after Free: %v", m.Buffers())
	}
}
