package bench

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Seed 000 §Shader Frontend: instruction throughput is highest with 512 or
// fewer FP adds in the loop and dips past 1280. Steps of 64 adds around
// the dips see where they fall: the first must come right after 512 (a
// 4 KB engine buffer put it after 640), the second after 1280 or one step
// later (the model's code is about 6 B an add, the seed's 6 to 7).
func TestICacheDipsWhereSeedPlacesThem(t *testing.T) {
	tst, err := Lookup("icache")
	if err != nil {
		t.Fatal(err)
	}
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	r, err := tst.Run(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Metrics["plateau1_end"]; got != 512 {
		t.Errorf("first plateau ends at %v adds, want 512 (seed 000: highest with 512 or fewer); points %v", got, r.Series[0].Points)
	}
	if got := r.Metrics["plateau2_end"]; got < 1280 || got > 1344 {
		t.Errorf("second plateau ends at %v adds, want 1280 to 1344 (seed 000: a dip past 1280)", got)
	}
	if a, b := r.Metrics["adds_per_clk@512"], r.Metrics["adds_per_clk@576"]; !(b < a*0.97) {
		t.Errorf("576 adds run at %.1f/clk, 512 at %.1f: no dip between them", b, a)
	}
}
