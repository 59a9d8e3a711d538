package device

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
)

// TestLocalOutOfBounds runs a kernel whose last work-item of each
// work-group writes one int past the work-group's local memory. A GPU runs
// such a kernel on: so does the simulator, functionally and timed, on one
// host thread and on two, dropping the write, counting it once a
// work-group and warning with the source line; with Strict the kernel
// faults there instead.
func TestLocalOutOfBounds(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	const groups = 96
	nd := NDRange{Dims: 1, Global: [3]int{groups * 64, 1, 1}, Local: [3]int{64, 1, 1}}
	launch := func(timed bool, opt Options) (*Result, []byte, error) {
		dev := Open(g)
		k := loadTestKernel(t, dev, "localoob.spv")
		args := bindBenchArgs(t, dev, k, []string{"buf:i32:6144"})
		var res *Result
		if timed {
			var r *TimedResult
			r, err = dev.Time(k, nd, args, opt)
			if r != nil {
				res = &r.Result
			}
		} else {
			res, err = dev.Dispatch(k, nd, args, opt)
		}
		return res, args[0].Buffer.Bytes(), err
	}
	for _, timed := range []bool{false, true} {
		for _, threads := range []int{1, 2} {
			res, out, err := launch(timed, Options{Threads: threads, Detail: DetailFull})
			if err != nil {
				t.Fatalf("timed %v, %d threads: %v", timed, threads, err)
			}
			if res.Stats.LocalOutOfBounds != groups {
				t.Errorf("timed %v, %d threads: %d accesses out of bounds, want %d", timed, threads, res.Stats.LocalOutOfBounds, groups)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "localoob.cl:6") {
				t.Errorf("timed %v, %d threads: warnings %q, want one naming localoob.cl:6", timed, threads, res.Warnings)
			}
			for i := range groups * 64 {
				got := int32(binary.LittleEndian.Uint32(out[4*i:]))
				if want := int32(i%64 - 1); i%64 > 0 && got != want {
					t.Fatalf("timed %v, %d threads: out[%d] = %d, want %d", timed, threads, i, got, want)
				}
			}
		}
	}
	_, _, err = launch(false, Options{Strict: true})
	var f *emu.Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "localoob.cl:6") || !strings.Contains(err.Error(), "local memory is 256 bytes") {
		t.Errorf("strict: %v, want a fault at localoob.cl:6 naming the 256 bytes of local memory", err)
	}
}
