package emu

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// traced is one recorded access with its addresses.
type traced struct {
	Access
	addrs []uint64
}

// stepAll runs a work-group's warps to the end (through barriers),
// collecting warp 0's trace of every step.
func stepAll(t *testing.T, wg *WorkGroup) []traced {
	t.Helper()
	tr := &Trace{}
	wg.Warps[0].Trace = tr
	var all []traced
	for {
		for _, w := range wg.Warps {
			for w.Status() == Running {
				w.Step()
				if w.Index() != 0 {
					continue
				}
				for _, a := range tr.Accesses {
					all = append(all, traced{a, append([]uint64(nil), tr.Addrs[a.Start:a.Start+a.N]...)})
				}
			}
		}
		done, err := wg.Sync()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return all
		}
	}
}

// The trace of a warp's steps lists each memory instruction with the
// address every active lane touched: atomics on one counter, a store of
// consecutive elements, 8-byte atomics, and an async copy as one bulk
// transfer per work-group, recorded by its first warp.
func TestTrace(t *testing.T) {
	counter, seen, mixed := filled(1, 0), filled(8, -1), &kbuf{data: make([]byte, 16)}
	d, _, err := klaunch{file: "exec.spv", entry: "order", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1}, width: 4,
		args: []any{counter, seen, mixed}}.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	bufs := d.Mem.Buffers()
	if len(bufs) != 3 {
		t.Fatalf("%d buffers", len(bufs))
	}
	acc := stepAll(t, d.NewWorkGroup(0))
	var kinds []AccessKind
	for i, a := range acc {
		kinds = append(kinds, a.Kind)
		ad := a.addrs
		if a.N != 4 || len(ad) != 4 || a.Space != ir.SpaceGlobal {
			t.Fatalf("access %d: %+v with %d addresses", i, a, len(ad))
		}
		switch {
		case a.Kind == AccessAtomic && a.Bytes == 4:
			for _, x := range ad {
				if x != bufs[0].Base {
					t.Errorf("atomic_inc touched %#x, want the counter %#x", x, bufs[0].Base)
				}
			}
		case a.Kind == AccessStore:
			for l, x := range ad {
				if x != bufs[1].Base+uint64(4*l) {
					t.Errorf("store lane %d at %#x, want %#x", l, x, bufs[1].Base+uint64(4*l))
				}
			}
		case a.Kind == AccessAtomic && a.Bytes == 8:
			if ad[0] != bufs[2].Base && ad[0] != bufs[2].Base+8 {
				t.Errorf("64-bit atomic at %#x", ad[0])
			}
		default:
			t.Errorf("unexpected access %+v (%s)", a, a.Kind)
		}
	}
	if len(kinds) != 4 || kinds[0] != AccessAtomic || kinds[1] != AccessStore {
		t.Errorf("access kinds %v, want atomic, store, atomic, atomic", kinds)
	}
	if AccessTexture.String() != "texture" || AccessLoad.String() != "load" {
		t.Errorf("kind names %s %s", AccessTexture, AccessLoad)
	}

	// async_work_group_copy: one bulk load and one bulk store of the whole
	// tile, from the first warp only.
	in := filled(16, 5)
	d, _, err = klaunch{file: "async.spv", entry: "tile3", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1}, width: 4,
		args: []any{in, filled(16, -1), klocal(32)}}.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	acc = stepAll(t, d.NewWorkGroup(0))
	bulks := 0
	for _, a := range acc {
		if !a.Bulk {
			continue
		}
		bulks++
		ad := a.addrs
		if a.N != 8 || a.Bytes != 4 {
			t.Errorf("bulk %+v", a)
		}
		if bulks == 1 && (a.Kind != AccessLoad || a.Space != ir.SpaceGlobal || ad[0] != d.Mem.Buffers()[0].Base || ad[1] != ad[0]+4) {
			t.Errorf("first bulk %+v from %#x", a, ad[:2])
		}
		if bulks == 4 && (a.Kind != AccessStore || a.Space != ir.SpaceGlobal || ad[1] != ad[0]+8) {
			t.Errorf("strided store bulk %+v at %#x", a, ad[:2])
		}
	}
	if bulks != 4 {
		t.Errorf("%d bulk transfers, want 4 (two copies, each a load and a store)", bulks)
	}
}
