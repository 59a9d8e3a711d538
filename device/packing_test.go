package device

//go:generate go run ../cmd/pocketgpu compile --light testdata/kernels/packed.cl -o testdata/kernels/packed.spv

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Work-groups of 4, 8 and 16 share a GX6250 task, eight, four or two to
// one (seed 003 §Unified Shading Cluster), without a barrier or with one
// and a size fixed at compile time; with a barrier and no fixed size each
// takes a task of its own. Every work-item's ids and its work-group's
// local memory must come out as if each work-group ran alone, functionally
// and timed, and the counters must show the tasks packing implies. A
// Mali-G52 warp never packs.
func TestPackedWorkgroups(t *testing.T) {
	spv, err := os.ReadFile("testdata/kernels/packed.spv")
	if err != nil {
		t.Fatal(err)
	}
	const global = 256
	tag := func(gid, size int) uint32 { return uint32(gid/size)<<16 | uint32(gid%size)<<8 | uint32(gid&255) }
	cases := []struct {
		gpu, entry string
		local      int
		packed     bool // several work-groups a warp
		want       func(gid, size int) uint32
	}{
		{"powervr-gx6250", "own_slot", 4, true, tag},
		{"powervr-gx6250", "own_slot", 8, true, tag},
		{"powervr-gx6250", "own_slot", 16, true, tag},
		{"powervr-gx6250", "own_slot", 32, false, tag},
		{"powervr-gx6250", "neighbour_fixed", 8, true, nil},
		{"powervr-gx6250", "neighbour_free", 8, false, nil},
		{"powervr-gx6250", "neighbour_free", 16, false, nil},
		{"mali-g52", "own_slot", 4, false, tag},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d", c.gpu, c.entry, c.local), func(t *testing.T) {
			g, err := arch.Lookup(c.gpu)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == nil {
				// The right-hand neighbour's tag, in its own work-group.
				want = func(gid, size int) uint32 {
					base := gid - gid%size
					return tag(base+(gid%size+1)%size, size)
				}
			}
			for _, timed := range []bool{false, true} {
				dev := Open(g)
				k, err := dev.Load(spv, c.entry, LoadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				sel := make([]byte, 4*global)
				for i := 0; i < global; i++ {
					binary.LittleEndian.PutUint32(sel[4*i:], uint32(i%c.local))
				}
				out := dev.Alloc(4*global, "out")
				args := []Arg{BufferArg(dev.AllocFrom(sel, "sel")), BufferArg(out)}
				nd := NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{c.local, 1, 1}}
				var res *Result
				var tr *TimedResult
				if timed {
					tr, err = dev.Time(k, nd, args, Options{})
					if tr != nil {
						res = &tr.Result
					}
				} else {
					res, err = dev.Dispatch(k, nd, args, Options{})
				}
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < global; i++ {
					if got, w := binary.LittleEndian.Uint32(out.Bytes()[4*i:]), want(i, c.local); got != w {
						t.Fatalf("timed %v: out[%d] = %#x, want %#x (group %d, local id %d)", timed, i, got, w, i/c.local, i%c.local)
					}
				}
				width := res.WarpWidth
				perWarp := 1
				if c.packed {
					perWarp = width / c.local
				}
				warps := uint64(global / c.local / perWarp * max(c.local/width, 1))
				if res.Stats.WorkGroups != uint64(global/c.local) || res.Stats.Warps != warps {
					t.Errorf("timed %v: %d work-groups in %d warps, want %d in %d", timed, res.Stats.WorkGroups, res.Stats.Warps, global/c.local, warps)
				}
				if !timed {
					continue
				}
				cs := tr.Timing.Counters
				lanes := float64(min(c.local*perWarp, width))
				if got := cs.Value("active_lanes_avg"); got != lanes {
					t.Errorf("active_lanes_avg %v, want %v", got, lanes)
				}
				if got := cs.Value("warps_launched"); got != float64(warps) {
					t.Errorf("warps_launched %v, want %d", got, warps)
				}
				if got := cs.Value("workgroups"); got != float64(global/c.local) {
					t.Errorf("workgroups %v, want %d", got, global/c.local)
				}
			}
		})
	}
}
