package device

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// ascending is ArchProbe's measure (warp-size method A): how many tickets,
// from work-item 0 on, rise before the first that does not.
func ascending(b []byte, n int) int {
	last := int32(-1)
	for i := 0; i < n; i++ {
		v := int32(binary.LittleEndian.Uint32(b[4*i:]))
		if v <= last {
			return i
		}
		last = v
	}
	return n
}

// Local atomics are done a warp at a time, warps taking turns as the
// scheduler releases them from a barrier (emu.WorkGroup.Round), not work-item
// by work-item across the work-group: ArchProbe's atomic-order method finds
// each family's warp width. A work-group of one warp hands out ascending
// tickets; one lane more makes a second warp, which goes first after the
// barrier, so the tickets rise for exactly one warp's width. Functional
// and timed runs agree, whatever the host threads, over several waves.
func TestLocalAtomicsShowWarpWidth(t *testing.T) {
	spv, err := os.ReadFile("testdata/kernels/atomicorder.spv")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		gpu  string
		warp int
	}{
		{"mali-g52", 8}, {"mali-g72", 4}, {"mali-t860", 4}, {"adreno-615", 64}, {"adreno-640", 128}, {"powervr-gx6250", 32},
	} {
		g, err := arch.Lookup(tt.gpu)
		if err != nil {
			t.Fatal(err)
		}
		dev := Open(g)
		k, err := dev.Load(spv, "", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		measure := func(n int, timed bool) (nascend, width int) {
			t.Helper()
			out := dev.Alloc(4*n, "tickets")
			defer dev.Free(out)
			nd := NDRange{Dims: 1, Global: [3]int{n, 1, 1}, Local: [3]int{n, 1, 1}}
			var res *Result
			if timed {
				tr, err := dev.Time(k, nd, []Arg{BufferArg(out)}, Options{Detail: DetailFull})
				if err != nil {
					t.Fatalf("%s, %d work-items: %v", tt.gpu, n, err)
				}
				res = &tr.Result
			} else if res, err = dev.Dispatch(k, nd, []Arg{BufferArg(out)}, Options{}); err != nil {
				t.Fatalf("%s, %d work-items: %v", tt.gpu, n, err)
			}
			return ascending(out.Bytes(), n), res.WarpWidth
		}
		for _, timed := range []bool{false, true} {
			// ArchProbe's scan: the first work-group size whose tickets do
			// not all ascend; the warp width is one less.
			found, width := 0, 0
			for n := 1; n <= 2*g.WidestWarp()+1 && found == 0; n++ {
				a, w := measure(n, timed)
				if a != n {
					found, width = n-1, w
					if a != n-1 {
						t.Errorf("%s (timed %v): %d work-items: %d tickets ascend, want %d", tt.gpu, timed, n, a, n-1)
					}
				}
			}
			if found != width || tt.warp != 0 && found != tt.warp {
				t.Errorf("%s (timed %v): the tickets show a warp of %d work-items; the kernel ran %d wide, want %d", tt.gpu, timed, found, width, tt.warp)
			}
		}
		t.Run(tt.gpu+"/threads", func(t *testing.T) {
			for _, timed := range []bool{false, true} {
				// 200 work-groups of two and a half warps: several waves, most run
				// ahead on a second host thread.
				_, w := measure(1, timed)
				local := 2*w + w/2
				nd := NDRange{Dims: 1, Global: [3]int{40 * local, 1, 1}, Local: [3]int{local, 1, 1}}
				sameRuns(t, func(n int) threadRun {
					return launchThreads(t, g, spv, "", []string{fmt.Sprintf("buf:i32:%d", 200*local)}, nd, n, timed)
				})
			}
		})
	}
}
