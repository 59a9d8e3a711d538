package device

import (
	"bytes"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

// corpusLaunch loads corpus case name on a fresh device of gpu and binds
// its inputs.
func corpusLaunch(t *testing.T, gpu, name string) (*Device, *Kernel, NDRange, *Bound) {
	t.Helper()
	g, err := arch.Lookup(gpu)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := corpus.Lookup(name)
	if !ok {
		t.Fatalf("no corpus case %s", name)
	}
	dev := Open(g)
	k, nd, b, err := loadCorpusCase(t, dev, c)
	if err != nil {
		t.Fatal(err)
	}
	return dev, k, nd, b
}

// TestRepeatedLaunchReused: repeats of a launch reuse the figures of the
// first repeat that left the caches as it found them, and every launch's
// cycles, counters and buffers equal those of the same sequence simulated
// in full.
func TestRepeatedLaunchReused(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		t.Run(gpu, func(t *testing.T) {
			auto, ka, nd, ba := corpusLaunch(t, gpu, "vecadd")
			full, kf, _, bf := corpusLaunch(t, gpu, "vecadd")
			reused := 0
			for i := range 5 {
				ra, err := auto.Time(ka, nd, ba.Args, Options{})
				if err != nil {
					t.Fatal(err)
				}
				rf, err := full.Time(kf, nd, bf.Args, Options{Detail: DetailFull})
				if err != nil {
					t.Fatal(err)
				}
				if rf.Detail.Mode != "full" {
					t.Fatalf("launch %d under DetailFull: %+v", i+1, rf.Detail)
				}
				if ra.Timing.Cycles != rf.Timing.Cycles || !ra.Timing.Counters.Equal(rf.Timing.Counters) {
					t.Errorf("launch %d (%s): %v cycles, in full %v", i+1, ra.Detail.Mode, ra.Timing.Cycles, rf.Timing.Cycles)
				}
				if ra.Stats != rf.Stats {
					t.Errorf("launch %d: stats %+v, in full %+v", i+1, ra.Stats, rf.Stats)
				}
				for j, b := range ba.Buffers {
					if b != nil && !bytes.Equal(b.Bytes(), bf.Buffers[j].Bytes()) {
						t.Errorf("launch %d: argument %d differs from the full run", i+1, j)
					}
				}
				if ra.Detail.Mode == "reused" {
					reused++
					if !ra.Detail.FunctionalSkipped {
						t.Errorf("launch %d: vecadd's repeat left its buffers alone, yet the kernel ran again", i+1)
					}
				}
			}
			// The first launch starts cold, the second from its end state;
			// by the third the caches are at a fixed point.
			if reused < 3 {
				t.Errorf("%d of 5 launches reused; want the last 3 at least", reused)
			}
		})
	}
}

// TestReusedLaunchStillComputes: a launch that changes its buffers (the
// histogram adds to its counts) reuses its time when the host restores
// the inputs, and still computes its results.
func TestReusedLaunchStillComputes(t *testing.T) {
	dev, k, nd, b := corpusLaunch(t, "mali-g52", "histogram")
	inputs := make([][]byte, len(b.Buffers))
	for i, buf := range b.Buffers {
		if buf != nil {
			inputs[i] = bytes.Clone(buf.Bytes())
		}
	}
	var want [][]byte
	reused := 0
	for i := range 4 {
		for j, buf := range b.Buffers {
			if buf != nil {
				copy(buf.Bytes(), inputs[j])
			}
		}
		r, err := dev.Time(k, nd, b.Args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Detail.Mode == "reused" {
			reused++
			if r.Detail.FunctionalSkipped {
				t.Errorf("launch %d skipped the kernel, which changes its buffers", i+1)
			}
		}
		var got [][]byte
		for _, buf := range b.Buffers {
			if buf != nil {
				got = append(got, bytes.Clone(buf.Bytes()))
			}
		}
		if want == nil {
			want = got
			continue
		}
		for j := range got {
			if !bytes.Equal(got[j], want[j]) {
				t.Errorf("launch %d: buffer %d differs from the first launch's", i+1, j)
			}
		}
	}
	if reused == 0 {
		t.Error("no launch reused the time of its identical predecessor")
	}
}

// TestReuseNeedsSameState: a different input, or caches another kernel
// changed, make a launch run in detail again.
func TestReuseNeedsSameState(t *testing.T) {
	dev, k, nd, b := corpusLaunch(t, "mali-g52", "vecadd")
	run := func() DetailReport {
		t.Helper()
		r, err := dev.Time(k, nd, b.Args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r.Detail
	}
	for range 3 {
		run()
	}
	if d := run(); d.Mode != "reused" {
		t.Fatalf("the 4th identical launch: %+v", d)
	}
	b.Buffers[0].Bytes()[0] ^= 1
	if d := run(); d.Mode != "full" {
		t.Errorf("a launch with a changed input: %+v", d)
	}
	for range 2 {
		run()
	}
	if d := run(); d.Mode != "reused" {
		t.Fatalf("identical again: %+v", d)
	}
	dev.ResetCaches()
	if d := run(); d.Mode != "full" {
		t.Errorf("a launch after the caches were emptied: %+v", d)
	}
	// A launch the memo does not keep (profiled) still changes the
	// caches the next one finds: here over buffers of its own.
	for range 2 {
		run()
	}
	if d := run(); d.Mode != "reused" {
		t.Fatalf("identical after the reset: %+v", d)
	}
	c, _ := corpus.Lookup("vecadd")
	specs, in, err := c.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	other, err := dev.BindSpecs(k, specs, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Time(k, nd, other.Args, Options{Profile: true}); err != nil {
		t.Fatal(err)
	}
	if d := run(); d.Mode != "full" {
		t.Errorf("a launch after another changed the caches: %+v", d)
	}
}

// TestReusedLaunchPrints: a kernel that prints runs again on a reused
// launch, so its output comes out every time.
func TestReusedLaunchPrints(t *testing.T) {
	g, err := arch.Lookup("mali-t760") // printf of a float takes a double
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	var out bytes.Buffer
	dev.Printf = &out
	k := loadTestKernel(t, dev, "printf.spv")
	x := dev.AllocFrom(make([]byte, 64*4), "x")
	nd := NDRange{Dims: 1, Global: [3]int{64, 1, 1}, Local: [3]int{16, 1, 1}}
	var modes []string
	for range 4 {
		r, err := dev.Time(k, nd, []Arg{BufferArg(x)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		modes = append(modes, r.Detail.Mode)
	}
	if modes[3] != "reused" {
		t.Errorf("modes %v: the 4th launch should reuse the 3rd's figures", modes)
	}
	if n := bytes.Count(out.Bytes(), []byte("item 0:")); n != 4 {
		t.Errorf("item 0 printed %d times in 4 launches:\n%s", n, out.String())
	}
}
