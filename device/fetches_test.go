package device

//go:generate go run ../cmd/pocketgpu compile testdata/fetches/interleaved.cl -o testdata/fetches/interleaved.spv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// sampleRate is the bytes per core clock of testdata/fetches/interleaved
// (four independent 16-byte samples a loop, each added before the next is
// read) on g: the difference between 32 and 16 loops of a grid of 1024.
func sampleRate(t *testing.T, g *arch.GPU) (float64, int) {
	t.Helper()
	spv, err := os.ReadFile(filepath.Join("testdata", "fetches", "interleaved.spv"))
	if err != nil {
		t.Fatal(err)
	}
	const global = 1024
	var cyc [2]float64
	regs := 0
	for n, iters := range []int{16, 32} {
		dev := Open(g)
		k, err := dev.Load(spv, "interleaved", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		regs = k.Regs
		args := []string{"image1d_buffer:u32:32=iota", fmt.Sprintf("buf:u32x4:%d", global), "u32:31", fmt.Sprintf("u32:%d", iters)}
		b := bindSpecs(t, dev, k, args)
		nd := NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{128, 1, 1}}
		r, err := dev.Time(k, nd, b.Args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cyc[n] = r.Timing.Cycles
	}
	return global * 16 * 4 * 16 / (cyc[1] - cyc[0]) / float64(g.Cores), regs
}

// A wave's independent samples are in flight together when the compiler
// issues fetches early (execution.fetches_early): at 35 registers, two
// waves a partition on the Adreno 615, the texture unit stays busy (its
// four samples a clock, 64 bytes), where a wave that waits for each
// sample before reading the next leaves it half idle (the 32.6 bytes a
// third-party kernel of 33 registers measured here with the 90-cycle
// texture latency the 615 had then).
func TestFetchesEarlyHideSampleLatency(t *testing.T) {
	// A 90-cycle texture cache (the 615's 48 halved the contrast) keeps
	// the test about the schedule, not the preset's latency.
	const base = "base: adreno-615\ntexture_cache: {latency_cycles: 90}\n"
	g, err := arch.Parse([]byte(base), "user.yaml")
	if err != nil {
		t.Fatal(err)
	}
	off, err := arch.Parse([]byte(base+"execution: {fetches_early: false}\n"), "user.yaml")
	if err != nil {
		t.Fatal(err)
	}
	early, regs := sampleRate(t, g)
	if o, err := g.Occupancy(arch.OccupancyQuery{Regs: regs}); err != nil || o.ResidentWarpsPerEngine != 2 {
		t.Fatalf("%d registers: %+v, %v; want two waves a partition", regs, o, err)
	}
	late, _ := sampleRate(t, off)
	t.Logf("%d registers: %.1f B per uSPTP clock with fetches early, %.1f without", regs, early, late)
	if early < 55 {
		t.Errorf("fetches early: %.1f B per uSPTP clock, want the texture unit's 64 within 15%%", early)
	}
	if late > 0.7*early {
		t.Errorf("each sample waited for: %.1f B per uSPTP clock, want well under the %.1f with fetches early", late, early)
	}
}
