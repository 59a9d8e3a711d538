package device

//go:generate go run ../cmd/pocketgpu compile --light testdata/kernels/spill.cl -o testdata/kernels/spill.spv

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// spillRun is one timed run of a spill.cl kernel.
type spillRun struct {
	cycles              float64
	loads, stores       float64 // spill messages
	loadBytes           float64
	regs, spilledPerThr int
	width               int
	out                 []float32
}

// runSpill times entry of spill.cl on g over global work-items (work-groups
// of local) and checks the results against Go.
func runSpill(t *testing.T, g *arch.GPU, entry string, global, local int, iters uint32) spillRun {
	t.Helper()
	dev := Open(g)
	k := loadTestEntry(t, dev, "spill.spv", entry)
	rep, err := dev.Analyze(k, 0)
	if err != nil {
		t.Fatal(err)
	}
	const values = 48
	in := make([]byte, 16*values*global)
	ref := make([]float32, 4*global)
	for gid := 0; gid < global; gid++ {
		var acc, s [4]float32
		v := func(i, c int) float32 { return float32((gid*7 + i*3 + c) % 16) }
		for i := 0; i < values; i++ {
			for c := 0; c < 4; c++ {
				binary.LittleEndian.PutUint32(in[16*(values*gid+i)+4*c:], math.Float32bits(v(i, c)))
			}
		}
		for c := 0; c < 4; c++ {
			for it := uint32(0); it < iters; it++ {
				if entry == "spill_after" {
					for i := 0; i < 4; i++ { // v10..v13: p[0..3]
						acc[c] = acc[c]*1 + v(i, c)
					}
				} else {
					for i := 0; i < values; i++ {
						acc[c] = acc[c]*1 + v(i, c)
					}
				}
			}
			s[c] = acc[c]
			if entry == "spill_after" {
				for i := 0; i < values; i++ {
					s[c] += v(i, c)
				}
			}
			ref[4*gid+c] = s[c]
		}
	}
	out := dev.Alloc(16*global, "out")
	iv := make([]byte, 4)
	binary.LittleEndian.PutUint32(iv, iters)
	mv := make([]byte, 4)
	binary.LittleEndian.PutUint32(mv, math.Float32bits(1))
	args := []Arg{BufferArg(dev.AllocFrom(in, "in")), BufferArg(out), ValueArg(iv), ValueArg(mv)}
	nd := NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{local, 1, 1}}
	tr, err := dev.Time(k, nd, args, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := spillRun{cycles: tr.Timing.Cycles, regs: rep.Registers, spilledPerThr: rep.SpillBytes, width: rep.WarpWidth}
	c := tr.Timing.Counters
	r.loads, r.stores, r.loadBytes = c.Value("spill_load_messages"), c.Value("spill_store_messages"), c.Value("spill_load_bytes")
	b := out.Bytes()
	for i := range ref {
		got := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		r.out = append(r.out, got)
		if got != ref[i] {
			t.Fatalf("%s on %s: out[%d] = %v, want %v", entry, g.ID, i, got, ref[i])
		}
	}
	return r
}

// A kernel whose live values need more registers than a thread may have
// spills them: stores after their definitions and reloads before their
// uses, as private-memory messages through the load/store path. The
// results do not change; the messages show in the counters, their number
// follows the excess and the uses, and the cycles grow. Given the
// registers (a user description raising max_registers_per_thread), the
// same kernel spills nothing and runs faster.
func TestSpillMessages(t *testing.T) {
	const global, local = 256, 32
	for _, gpu := range []string{"mali-g52", "adreno-615"} {
		g, err := arch.Lookup(gpu)
		if err != nil {
			t.Fatal(err)
		}
		// A user's description with room for every value: the G52 may
		// give a thread 256 registers; the 615's register file holds no
		// more than its 96 for a wave64, so its file grows fourfold too.
		yaml := "base: mali-g52\nmax_registers_per_thread: 256\n"
		if g.Adreno != nil {
			yaml = "base: adreno-615\nregister_file_kib: 192\nmax_registers_per_thread: 256\n"
		}
		big, err := arch.Parse([]byte(yaml), "many-registers.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, entry := range []string{"spill_after", "spill_inside"} {
			t.Run(gpu+"/"+entry, func(t *testing.T) {
				one := runSpill(t, g, entry, global, local, 1)
				// A work-group of 32 is one warp of 8 on the G52's
				// four, a half-full wave64 on the 615.
				warps := float64(global / min(local, one.width))
				four := runSpill(t, g, entry, global, local, 4)
				none := runSpill(t, big, entry, global, local, 4)
				t.Logf("%s %s: %d registers, %d B spilled a thread; iters 1: %.0f cycles, %.0f reloads, %.0f stores; iters 4: %.0f cycles, %.0f reloads, %.0f stores; 256 registers: %d kept, %.0f cycles",
					gpu, entry, one.regs, one.spilledPerThr, one.cycles, one.loads, one.stores, four.cycles, four.loads, four.stores, none.regs, none.cycles)
				if one.spilledPerThr == 0 || one.stores == 0 || one.loads == 0 {
					t.Fatalf("no spill: %+v", one)
				}
				// One store per spilled run (a float4 each, some
				// partly) per warp, once, before the loop.
				runs := math.Ceil(float64(one.spilledPerThr) / 16)
				if one.stores < runs*warps || one.stores > (runs+4)*warps || four.stores != one.stores {
					t.Errorf("stores: %.0f (iters 4: %.0f); want about %.0f runs × %.0f warps, whatever the iterations", one.stores, four.stores, runs, warps)
				}
				switch entry {
				case "spill_after":
					// The loop reads v10..v13 only: the values spilled are
					// the ones it does not read, each reloaded once after it.
					if four.loads != one.loads || one.loads != one.stores {
						t.Errorf("reloads: %.0f (iters 4: %.0f), want one a store (%.0f), none in the loop", one.loads, four.loads, one.stores)
					}
				case "spill_inside":
					// Every value is read in the loop: the spilled ones are
					// reloaded every iteration.
					if per := (four.loads - one.loads) / 3; per < runs*warps || four.loads != 4*per {
						t.Errorf("reloads: %.0f at 1 iteration, %.0f at 4; want about %.0f runs × %.0f warps an iteration", one.loads, four.loads, runs, warps)
					}
				}
				if none.loads != 0 || none.stores != 0 || none.spilledPerThr != 0 {
					t.Errorf("with 256 registers: %+v, want no spill", none)
				}
				if none.cycles >= four.cycles {
					t.Errorf("with 256 registers %.0f cycles, spilling %.0f: want fewer", none.cycles, four.cycles)
				}
			})
		}
	}
}
