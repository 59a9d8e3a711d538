package timing

import (
	"math"
	"testing"
)

// waves feeds the detector waves of 8 work-groups whose cycles, warp
// instructions and DRAM bytes per work-group are given (all warm), and
// returns after how many waves it first called the dispatch steady (0:
// never) and the standard error it gave then.
func waves(d *steadyDetector, cycles, insts, dram []float64) (int, float64) {
	o := steadyObs{warm: true}
	d.add(o)
	for i := range cycles {
		o.t += 8 * cycles[i]
		o.wgs += 8
		o.insts += 8 * insts[i]
		o.dram += 8 * dram[i]
		d.add(o)
		if ok, se := d.steady(); ok {
			return i + 1, se
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
	n := defaultSteadyRule.MinWaves
	cycles := append([]float64{900}, repeat(500, 20)...)
	at, se := waves(d, cycles, repeat(100, 21), repeat(4096, 21))
	if at != 1+n || se != 0 {
		t.Errorf("steady after %d waves (standard error %v); want %d (1 warm-up + %d), 0", at, se, 1+n, n)
	}
	a, b, _, _ := d.window()
	if b.wgs-a.wgs != float64(8*n) || (b.t-a.t)/(b.wgs-a.wgs) != 500 {
		t.Errorf("stretch %+v to %+v: want %d waves at 500 cycles a work-group", a, b, n)
	}
}

// Noise around a steady mean needs more waves, as many as bring the
// standard error of the mean under 0.5%: waves alternating ±2% need
// about (2/0.5)² = 16.
func TestSteadyWaitsOutNoise(t *testing.T) {
	cycles := []float64{900}
	for i := range 40 {
		cycles = append(cycles, 500*(1+0.02*float64(1-2*(i%2))))
	}
	d := &steadyDetector{rule: defaultSteadyRule}
	at, se := waves(d, cycles, repeat(100, len(cycles)), repeat(4096, len(cycles)))
	if at < 15 || at > 20 || se > 0.005 {
		t.Errorf("steady after %d waves with standard error %v; want 15 to 20 waves, at most 0.005", at, se)
	}
}

func TestSteadyRefusesDrift(t *testing.T) {
	grow := []float64{500}
	for range 40 {
		grow = append(grow, grow[len(grow)-1]*1.01) // 1% a wave
	}
	for name, c := range map[string]struct{ cycles, insts, dram []float64 }{
		"cycles alternate ±6%":     {alternate(500, 0.06, 40), repeat(100, 40), repeat(4096, 40)},
		"cycles grow 1% a wave":    {grow, repeat(100, 41), repeat(4096, 41)},
		"instructions alternate":   {repeat(500, 40), alternate(100, 0.08, 40), repeat(4096, 40)},
		"DRAM bytes alternate ±6%": {repeat(500, 40), repeat(100, 40), alternate(4096, 0.06, 40)},
	} {
		d := &steadyDetector{rule: defaultSteadyRule}
		if at, _ := waves(d, c.cycles, c.insts, c.dram); at != 0 {
			t.Errorf("%s: called steady after %d waves", name, at)
		}
	}
}

// alternate is n waves of v(1 ± f), alternating.
func alternate(v, f float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v * (1 + f*float64(1-2*(i%2)))
	}
	return s
}

func TestSteadyIgnoresStrayDRAM(t *testing.T) {
	// A compute-bound kernel: a few write-back bytes a work-group, all
	// over the place, do not block the decision.
	d := &steadyDetector{rule: defaultSteadyRule}
	dram := []float64{0, 40, 3, 0, 60, 1, 0, 8, 22, 0, 5, 30, 0, 1, 9}
	at, _ := waves(d, repeat(500, len(dram)), repeat(100, len(dram)), dram)
	if at != 1+defaultSteadyRule.MinWaves {
		t.Errorf("steady after %d waves; want %d", at, 1+defaultSteadyRule.MinWaves)
	}
}

func TestSteadyStandardError(t *testing.T) {
	// Waves of 500 ± 1%: the standard error of their mean, relative.
	d := &steadyDetector{rule: defaultSteadyRule}
	cycles := []float64{900, 505, 495, 505, 495, 505, 495, 505, 495}
	at, se := waves(d, cycles, repeat(100, 9), repeat(4096, 9))
	// After n waves of ±1% the sample deviation is ~1% and se ~1%/√n.
	if at == 0 || math.Abs(se-0.01*math.Sqrt(float64(at-1)/float64(at-2))/math.Sqrt(float64(at-1))) > 0.002 {
		t.Errorf("steady after %d waves, standard error %v", at, se)
	}
}

func TestSteadyRestart(t *testing.T) {
	d := &steadyDetector{rule: defaultSteadyRule}
	o := steadyObs{warm: true}
	d.restart(o) // no warm-up after a restart
	n := defaultSteadyRule.MinWaves
	for i := 1; i <= n; i++ {
		o.t, o.wgs, o.insts = float64(i*4000), float64(i*8), float64(i*800)
		d.add(o)
		if ok, _ := d.steady(); ok != (i == n) {
			t.Errorf("after %d waves: steady %v", i, ok)
		}
	}
}

// TestSteadyWaitsForWarmCaches: a stretch does not start before the
// caches are full or have stopped filling.
func TestSteadyWaitsForWarmCaches(t *testing.T) {
	d := &steadyDetector{rule: defaultSteadyRule}
	var o steadyObs
	d.add(o)
	n := defaultSteadyRule.MinWaves
	for i := 1; i <= 5+n; i++ {
		o.t, o.wgs, o.insts, o.warm = float64(i*4000), float64(i*8), float64(i*800), i >= 5
		d.add(o)
		if ok, _ := d.steady(); ok != (i >= 5+n) {
			t.Errorf("after %d waves (warm from the 5th): steady %v", i, ok)
		}
	}
}
