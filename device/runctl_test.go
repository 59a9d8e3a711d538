package device

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pocketgpu/pocketgpu/arch"
)

func loadTestKernel(t *testing.T, dev *Device, file string) *Kernel {
	t.Helper()
	return loadTestEntry(t, dev, file, "")
}

// loadTestEntry loads entry point entry ("" for the module's only one) of
// testdata/kernels/file.
func loadTestEntry(t *testing.T, dev *Device, file, entry string) *Kernel {
	t.Helper()
	spv, err := os.ReadFile("testdata/kernels/" + file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dev.Load(spv, entry, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// run dispatches functionally or timed under opt.
func runWith(dev *Device, k *Kernel, nd NDRange, args []Arg, opt Options, timed bool) (*Result, error) {
	if !timed {
		return dev.Dispatch(k, nd, args, opt)
	}
	tr, err := dev.Time(k, nd, args, opt)
	if tr == nil {
		return nil, err
	}
	if tr.Timing == nil || tr.Timing.Cycles <= 0 {
		return nil, errors.New("timed result without cycles")
	}
	return &tr.Result, err
}

// A cancelled run stops within a fraction of a second and returns what it
// did, marked partial, with an error that says why.
func TestCancelReturnsPartial(t *testing.T) {
	g, _ := arch.Lookup("mali-g52")
	for _, timed := range []bool{false, true} {
		dev := Open(g)
		k := loadTestKernel(t, dev, "madloop.spv")
		out := dev.Alloc(4*65536, "out")
		args := []Arg{BufferArg(out), ValueArg([]byte{0, 0, 1, 0}), ValueArg([]byte{0, 0, 128, 63})} // 65536 iterations, m = 1
		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("user pressed Ctrl-C")
		var seen []Progress
		opt := Options{Context: ctx, Progress: func(p Progress) {
			seen = append(seen, p)
			if p.WarpInsts > 0 && len(seen) == 2 {
				cancel(cause)
			}
		}}
		start := time.Now()
		res, err := runWith(dev, k, NDRange{Dims: 1, Global: [3]int{65536, 1, 1}, Local: [3]int{64, 1, 1}}, args, opt, timed)
		if !errors.Is(err, ErrStopped) || !errors.Is(err, cause) {
			t.Fatalf("timed %v: error %v, want ErrStopped wrapping the cause", timed, err)
		}
		if res == nil || !res.Partial || res.Stats.WarpInsts == 0 {
			t.Fatalf("timed %v: result %+v, want partial counters", timed, res)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("timed %v: took %v to stop", timed, el)
		}
		if len(seen) < 2 || seen[len(seen)-1].GroupsDone >= seen[len(seen)-1].Groups {
			t.Errorf("timed %v: progress %+v", timed, seen)
		}
	}
}

// Progress reaches the end, monotonically, and a finished run is not
// partial.
func TestProgressReachesEnd(t *testing.T) {
	g, _ := arch.Lookup("adreno-640")
	for _, timed := range []bool{false, true} {
		dev := Open(g)
		k := loadTestKernel(t, dev, "madloop.spv")
		out := dev.Alloc(4*4096, "out")
		args := []Arg{BufferArg(out), ValueArg([]byte{64, 0, 0, 0}), ValueArg([]byte{0, 0, 128, 63})}
		var seen []Progress
		res, err := runWith(dev, k, NDRange{Dims: 1, Global: [3]int{4096, 1, 1}, Local: [3]int{64, 1, 1}}, args,
			Options{Progress: func(p Progress) { seen = append(seen, p) }}, timed)
		if err != nil || res.Partial {
			t.Fatalf("timed %v: %v, partial %v", timed, err, res.Partial)
		}
		last := seen[len(seen)-1]
		if last.GroupsDone != 64 || last.Groups != 64 || last.WarpInsts != res.Stats.WarpInsts {
			t.Errorf("timed %v: last progress %+v, stats %+v", timed, last, res.Stats)
		}
		if timed && last.Cycles <= 0 {
			t.Errorf("timed progress without cycles: %+v", last)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i].GroupsDone < seen[i-1].GroupsDone || seen[i].WarpInsts < seen[i-1].WarpInsts {
				t.Errorf("timed %v: progress went back: %+v then %+v", timed, seen[i-1], seen[i])
			}
		}
	}
}

// The budget stops a hung kernel and says where it was looping.
func TestBudgetNamesTheLoop(t *testing.T) {
	g, _ := arch.Lookup("mali-g52")
	for _, timed := range []bool{false, true} {
		dev := Open(g)
		k := loadTestKernel(t, dev, "spin.spv")
		flag := dev.Alloc(4, "flag")
		_, err := runWith(dev, k, NDRange{Dims: 1, Global: [3]int{1, 1, 1}}, []Arg{BufferArg(flag)}, Options{MaxWarpInsts: 100000}, timed)
		if !errors.Is(err, ErrBudget) {
			t.Fatalf("timed %v: %v, want ErrBudget", timed, err)
		}
		for _, want := range []string{"within 100000 warp instructions", "it was running block %", "in 1 loop", "SPIR-V word"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("timed %v: %q lacks %q", timed, err, want)
			}
		}
	}
}

// With no budget, a hung kernel is stopped as stalled, naming the loop;
// with Unlimited it is not (cancelled here after a second instead).
func TestStallStopsHungKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hung kernel for about 10 s")
	}
	g, _ := arch.Lookup("mali-g52")
	dev := Open(g)
	k := loadTestKernel(t, dev, "spin.spv")
	flag := dev.Alloc(4, "flag")
	nd := NDRange{Dims: 1, Global: [3]int{64, 1, 1}}
	_, err := dev.Dispatch(k, nd, []Arg{BufferArg(flag)}, Options{})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "seems hung: no work-group finished") || !strings.Contains(err.Error(), "in 1 loop") {
		t.Fatalf("%v, want a stall naming the loop", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err = dev.Dispatch(k, nd, []Arg{BufferArg(flag)}, Options{MaxWarpInsts: Unlimited, Context: ctx})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("unlimited: %v, want only the context to stop it", err)
	}
}

// Estimate's lower bound holds: a run takes at least its MinWarpInsts, and
// for straight-line code exactly as many as the bound within a small factor.
func TestEstimateIsALowerBound(t *testing.T) {
	g, _ := arch.Lookup("mali-g52")
	dev := Open(g)
	k := loadTestKernel(t, dev, "madloop.spv")
	out := dev.Alloc(4*4096, "out")
	for _, iters := range []byte{0, 1, 50} {
		args := []Arg{BufferArg(out), ValueArg([]byte{iters, 0, 0, 0}), ValueArg([]byte{0, 0, 128, 63})}
		nd := NDRange{Dims: 1, Global: [3]int{4096, 1, 1}, Local: [3]int{64, 1, 1}}
		e, err := dev.Estimate(k, nd, args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Dispatch(k, nd, args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if e.Warps != res.Stats.Warps || e.WorkItems != 4096 || e.MinWarpInsts == 0 || e.MinWarpInsts > res.Stats.WarpInsts {
			t.Errorf("iters %d: estimate %+v, ran %+v", iters, e, res.Stats)
		}
		if iters == 0 && float64(res.Stats.WarpInsts) > 2*float64(e.MinWarpInsts) {
			t.Errorf("no iterations: ran %d warp instructions, bound %d", res.Stats.WarpInsts, e.MinWarpInsts)
		}
	}
}
