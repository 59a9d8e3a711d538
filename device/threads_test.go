package device

//go:generate go run ../cmd/pocketgpu compile testdata/kernels/chatter.cl -o testdata/kernels/chatter.spv
//go:generate go run ../cmd/pocketgpu compile testdata/kernels/atomicorder.cl -o testdata/kernels/atomicorder.spv

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// threadRun is what a functional run gives: its buffers, counters and
// printf output.
type threadRun struct {
	bufs  [][]byte
	stats Stats
	out   string
	// A timed run's cycles and counters (GPU-wide, then per core).
	cycles   float64
	counters []counters.Set
}

// launchThreads dispatches k on fresh buffers made from specs with the
// given host threads, or with timed times it in full detail and also
// returns its cycles and counters (GPU-wide, then per core).
func launchThreads(t *testing.T, g *arch.GPU, spv []byte, entry string, specs []string, nd NDRange, threads int, timed bool) threadRun {
	t.Helper()
	dev := Open(g)
	var out strings.Builder
	dev.Printf = &out
	k, err := dev.Load(spv, entry, LoadOptions{})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	args := make([]kernel.Arg, len(specs))
	data := make([][]byte, len(specs))
	for i, s := range specs {
		if args[i], err = kernel.ParseArg(s); err != nil {
			t.Fatal(err)
		}
		if data[i], err = args[i].Materialize("."); err != nil {
			t.Fatal(err)
		}
	}
	b, err := dev.BindSpecs(k, args, data)
	if err != nil {
		t.Fatalf("bind: %v", err)
	}
	opt := Options{Threads: threads, Detail: DetailFull}
	var res *Result
	var tr *TimedResult
	if timed {
		tr, err = dev.Time(k, nd, b.Args, opt)
		if tr != nil {
			res = &tr.Result
		}
	} else {
		res, err = dev.Dispatch(k, nd, b.Args, opt)
	}
	if err != nil {
		t.Fatalf("%d threads: %v", threads, err)
	}
	r := threadRun{stats: res.Stats, out: out.String()}
	if tr != nil {
		r.cycles = tr.Timing.Cycles
		r.counters = append(r.counters, tr.Timing.Counters)
		r.counters = append(r.counters, tr.Timing.PerCore...)
	}
	for _, buf := range b.Buffers {
		if buf != nil {
			r.bufs = append(r.bufs, bytes.Clone(buf.Bytes()))
		}
	}
	return r
}

// sameRuns fails unless runs with 2 and 3 host threads gave what one gave.
func sameRuns(t *testing.T, run func(threads int) threadRun) {
	t.Helper()
	one := run(1)
	for _, n := range []int{2, 3} {
		r := run(n)
		if r.stats != one.stats {
			t.Errorf("%d threads counted %+v, one %+v", n, r.stats, one.stats)
		}
		if r.out != one.out {
			t.Errorf("%d threads printed:\n%s\none:\n%s", n, r.out, one.out)
		}
		if r.cycles != one.cycles || len(r.counters) != len(one.counters) {
			t.Errorf("%d threads: %v cycles, one %v", n, r.cycles, one.cycles)
		} else {
			for i := range one.counters {
				if !r.counters[i].Equal(one.counters[i]) {
					t.Errorf("%d threads: counters (set %d) differ from one thread's", n, i)
				}
			}
		}
		for i := range one.bufs {
			if !bytes.Equal(r.bufs[i], one.bufs[i]) {
				t.Errorf("%d threads: buffer %d differs from one thread's", n, i)
			}
		}
	}
}

// TestThreadsSameAnswers runs every corpus kernel on a GPU of each family
// (warps of 4 to 128 lanes, packed work-groups on Rogue) and a printf
// kernel with 1, 2 and 3 host threads: buffers, counters and printf output
// must be the same, byte for byte.
func TestThreadsSameAnswers(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t860"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		corpusSameRuns(t, g, false)
		printfSameRuns(t, g, 24, false)
	}
}

// corpusSameRuns runs every corpus kernel on g with 1, 2 and 3 host
// threads (timed in full detail, or functionally) and compares the runs.
func corpusSameRuns(t *testing.T, g *arch.GPU, timed bool) {
	for _, c := range corpus.Cases() {
		t.Run(g.ID+"/"+c.Name, func(t *testing.T) {
			if c.SPIRV == nil {
				t.Skip("no prebuilt SPIR-V")
			}
			var nd NDRange
			nd.Dims = len(c.Global)
			copy(nd.Global[:], c.Global)
			copy(nd.Local[:], c.Local)
			sameRuns(t, func(n int) threadRun { return launchThreads(t, g, c.SPIRV, c.Entry, c.Args, nd, n, timed) })
		})
	}
}

// printfSameRuns runs a kernel whose work-items print five lines each,
// groups work-groups of 32, with 1, 2 and 3 host threads: every line must
// come out, in the same order.
func printfSameRuns(t *testing.T, g *arch.GPU, groups int, timed bool) {
	t.Run(g.ID+"/printf", func(t *testing.T) {
		spv, err := os.ReadFile("testdata/kernels/chatter.spv")
		if err != nil {
			t.Fatal(err)
		}
		nd := NDRange{Dims: 1, Global: [3]int{groups * 32, 1, 1}, Local: [3]int{32, 1, 1}}
		specs := []string{fmt.Sprintf("buf:u32:%d=iota", groups), fmt.Sprintf("buf:u32:%d", groups*32)}
		sameRuns(t, func(n int) threadRun {
			r := launchThreads(t, g, spv, "chatter", specs, nd, n, timed)
			if lines := strings.Count(r.out, "\n"); lines != groups*5 {
				t.Fatalf("%d threads printed %d lines, want %d", n, lines, groups*5)
			}
			return r
		})
	})
}

// TestTimedThreadsSameAnswers times the same launches in full detail with
// 1, 2 and 3 host threads (one: the engine runs the executor itself; two
// or more: a second thread runs it ahead, timing/ahead.go): buffers,
// counts, printf output, cycles and every counter, GPU-wide and per core,
// must be the same to the last digit.
func TestTimedThreadsSameAnswers(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t860"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		corpusSameRuns(t, g, true)
		// Launches of several waves, most of whose work-groups run ahead.
		for _, c := range []struct {
			file          string
			global, local int
			args          []string
		}{
			{"madloop.spv", 8192, 64, madArgs(8192, 16)},
			{"stream.spv", 16384, 64, []string{"buf:f32x4:16384", "buf:f32x4:16384", "u32:16384"}},
		} {
			t.Run(gpu+"/"+c.file, func(t *testing.T) {
				spv, err := os.ReadFile("testdata/kernels/" + c.file)
				if err != nil {
					t.Fatal(err)
				}
				nd := NDRange{Dims: 1, Global: [3]int{c.global, 1, 1}, Local: [3]int{c.local, 1, 1}}
				sameRuns(t, func(n int) threadRun { return launchThreads(t, g, spv, "", c.args, nd, n, true) })
			})
		}
		printfSameRuns(t, g, 200, true) // several waves: most run ahead
	}
}
