package timing

import (
	"math"
	"testing"
)

// waves feeds the detector waves of 8 work-groups whose cycles, warp
// instructions and DRAM bytes per work-group are given, and returns after
// how many waves it first called the dispatch steady (0: never) and the
// spread it gave then.
func waves(d *steadyDetector, cycles, insts, dram []float64) (int, float64) {
	var o steadyObs
	d.add(o)
	for i := range cycles {
		o.t += 8 * cycles[i]
		o.wgs += 8
		o.insts += 8 * insts[i]
		o.dram += 8 * dram[i]
		d.add(o)
		if ok, spread := d.steady(); ok {
			return i + 1, spread
		}
	}
	return 0, 0
}

func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestSteadyAfterWarmup(t *testing.T) {
	d := &steadyDetector{rule: defaultSteadyRule}
	// A cold first wave, then the same cost wave after wave.
	cycles := append([]float64{900}, repeat(500, 9)...)
	at, spread := waves(d, cycles, repeat(100, 10), repeat(4096, 10))
	if at != 4 || spread != 0 {
		t.Errorf("steady after %d waves (spread %v); want 4 (1 warm-up + 3), spread 0", at, spread)
	}
	a, b := d.window()
	if b.wgs-a.wgs != 24 || (b.t-a.t)/(b.wgs-a.wgs) != 500 {
		t.Errorf("window %+v to %+v: want 3 waves at 500 cycles a work-group", a, b)
	}
}

func TestSteadyRefusesDrift(t *testing.T) {
	for name, c := range map[string]struct{ cycles, insts, dram []float64 }{
		"cycles alternate 6%":     {[]float64{500, 530, 500, 530, 500, 530, 500, 530}, repeat(100, 8), repeat(4096, 8)},
		"cycles grow 5% a wave":   {[]float64{500, 525, 551, 579, 608, 638, 670, 704}, repeat(100, 8), repeat(4096, 8)},
		"instructions alternate":  {repeat(500, 8), []float64{100, 110, 100, 110, 100, 110, 100, 110}, repeat(4096, 8)},
		"DRAM bytes alternate 5%": {repeat(500, 8), repeat(100, 8), []float64{4096, 4300, 4096, 4300, 4096, 4300, 4096, 4300}},
	} {
		d := &steadyDetector{rule: defaultSteadyRule}
		if at, _ := waves(d, c.cycles, c.insts, c.dram); at != 0 {
			t.Errorf("%s: called steady after %d waves", name, at)
		}
	}
}

func TestSteadyIgnoresStrayDRAM(t *testing.T) {
	// A compute-bound kernel: a few write-back bytes a work-group, all
	// over the place, do not block the decision.
	d := &steadyDetector{rule: defaultSteadyRule}
	at, _ := waves(d, repeat(500, 8), repeat(100, 8), []float64{0, 40, 3, 0, 60, 1, 0, 8})
	if at != 4 {
		t.Errorf("steady after %d waves; want 4", at)
	}
}

func TestSteadySpread(t *testing.T) {
	d := &steadyDetector{rule: defaultSteadyRule}
	at, spread := waves(d, []float64{900, 500, 505, 495, 500}, repeat(100, 5), repeat(4096, 5))
	if at != 4 || math.Abs(spread-0.01) > 1e-9 {
		t.Errorf("steady after %d waves, spread %v; want 4 and 0.01", at, spread)
	}
}

func TestSteadyRestart(t *testing.T) {
	d := &steadyDetector{rule: defaultSteadyRule}
	var o steadyObs
	d.restart(o) // no warm-up after a restart
	for i := 1; i <= 3; i++ {
		o.t, o.wgs, o.insts = float64(i*4000), float64(i*8), float64(i*800)
		d.add(o)
		if ok, _ := d.steady(); ok != (i == 3) {
			t.Errorf("after %d waves: steady %v", i, ok)
		}
	}
}
