package device

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// A mixbench-style kernel (a private array, nested multiply-add loops)
// compiled as a vendor driver would (the default pipeline) keeps its array
// in registers and runs near the GPU's FMA peak; the light pipeline leaves
// it in memory. Both compute the same values.
func TestDriverPipelineReachesFMAPeak(t *testing.T) {
	for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	const n, fmas = 8192, 64 * 8 // work-items; multiply-adds per work-item (ITERS × ELEMS)
	rate := map[bool]float64{}
	var outs [2][]byte
	for i, light := range []bool{false, true} {
		spv, err := kernel.Compile("testdata/kernels/mixbench.cl", kernel.Options{Light: light})
		if err != nil {
			t.Fatal(err)
		}
		dev := Open(g)
		k, err := dev.Load(spv, "", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out := dev.Alloc(4*n, "out")
		seed := make([]byte, 4)
		binary.LittleEndian.PutUint32(seed, math.Float32bits(0.5))
		r, err := dev.Time(k, NDRange{Dims: 1, Global: [3]int{n, 1, 1}}, []Arg{BufferArg(out), ValueArg(seed)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rate[light] = float64(n*fmas) / r.Timing.Cycles
		outs[i] = append([]byte(nil), out.Bytes()...)
	}
	peak := g.Derived().FP32FMAPerClock
	t.Logf("FMA per clock on %s: driver pipeline %.1f, light %.1f, peak %.0f", g.ID, rate[false], rate[true], peak)
	if rate[false] < 0.6*peak || rate[false] < 2*rate[true] {
		t.Errorf("driver pipeline %.1f FMA/clk, light %.1f, peak %.0f: want at least 60%% of peak and twice the light pipeline", rate[false], rate[true], peak)
	}
	for i := 0; i < n; i++ {
		a := math.Float32frombits(binary.LittleEndian.Uint32(outs[0][4*i:]))
		b := math.Float32frombits(binary.LittleEndian.Uint32(outs[1][4*i:]))
		if math.Abs(float64(a-b)) > 1e-5*math.Abs(float64(b)) {
			t.Fatalf("work-item %d: driver %g, light %g", i, a, b)
		}
	}
}
