package bench

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Seed 000 §Memory Pipeline: GPUs that back local memory with on-chip
// storage, the Adreno 615 included, have better local-memory latency than
// Bifrost, whose local memory goes through the load/store cache. Compared in
// nanoseconds (the 615 runs at 430 MHz, the G52 at 800).
func TestLocalLatencyOrder(t *testing.T) {
	tst, err := Lookup("latency-local")
	if err != nil {
		t.Fatal(err)
	}
	ns := map[string]float64{}
	for _, id := range []string{"mali-g52", "adreno-615", "adreno-640"} {
		g, err := arch.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tst.Run(g, Options{Quick: true})
		if err != nil {
			t.Fatal(err)
		}
		cycles := r.Series[0].Points[0].Y
		ns[id] = cycles / g.ClockMHz * 1000
	}
	for _, a := range []string{"adreno-615", "adreno-640"} {
		if !(ns[a] < ns["mali-g52"]) {
			t.Errorf("%s local chase %.1f ns, mali-g52 %.1f ns: on-chip local memory should be faster", a, ns[a], ns["mali-g52"])
		}
	}
}
