package arch

import (
	"math"
	"strings"
	"testing"
)

func mustLookup(t *testing.T, name string) *GPU {
	t.Helper()
	g, err := Lookup(name)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", name, err)
	}
	return g
}

// The figures issue 2 checks, plus the seed figures they come from.
func TestDerivedFiguresFromTheSeeds(t *testing.T) {
	tests := []struct {
		gpu  string
		name string
		want float64
		tol  float64
	}{
		{"mali-g52", "max_resident_threads", 768, 0},                 // seed 000 §Shader Frontend
		{"mali-g52", "fp32_fma_per_clock", 48, 0},                    // seed 000 §Register Access and Execution Pipelines
		{"mali-g52", "fp32_ops_per_clock", 96, 0},                    // FMA+FADD dual issue
		{"mali-g52", "fp16_ops_per_clock", 192, 0},                   // FP16 double rate
		{"mali-g52", "full_occupancy_max_regs", 32, 0},               // >32 registers halves
		{"mali-g52", "dram_bandwidth_gbs", 10.56, 1e-9},              // seed 000 §L2 Cache and System Level
		{"mali-g52", "peak_fp32_gflops", 76.8, 1e-9},                 // 48 × 2 × 0.8
		{"mali-g52", "tile_buffer_bytes_per_tile", 8192, 0},          // 16×16×256 bits: "at least 8 KB"
		{"mali-g52", "texture_bytes_per_clock", 64, 0},               // 2 cores × 2 samples × 16 B
		{"mali-g52", "dram_achieved_gbs", 4, 0.01},                   // seed 000: 2 GB/s copies = 4 GB/s of DRAM traffic
		{"mali-g52", "copy_to_gpu_gbs", 2, 0.01},                     // seed 000: copies just above 2 GB/s
		{"mali-g52", "copy_from_gpu_gbs", 2, 0.01},                   // both ways
		{"mali-g52", "dram_bytes_per_clock", 5, 0.01},                // 4 GB/s at 800 MHz
		{"adreno-640", "dram_achieved_gbs", 29.5, 0.05},              // seed 001: a touch below 30 GB/s
		{"adreno-640", "tlb_reach_kib", 64 << 10, 0},                 // seed 001: latency skyrockets past 64 MB
		{"adreno-640", "usptps", 6, 0},                               // seed 004
		{"adreno-640", "sps", 2, 0},                                  // seed 004
		{"adreno-640", "fp32_ops_per_clock", 768, 0},                 // 6 × 2 × 64
		{"adreno-640", "fp16_ops_per_clock", 1536, 0},                // seed 004 double rate
		{"adreno-640", "local_memory_total_kib", 64, 0},              // seed 001: 64 KB active GPU-wide
		{"adreno-640", "int32_ops_per_clock", 384, 0},                // seed 001: half-rate integer adds
		{"adreno-640", "fp32_sfu_per_clock", 96, 0},                  // 1/8 rate
		{"adreno-640", "full_occupancy_max_regs", 8, 0},              // seed 001: eight wave128 registers
		{"adreno-615", "peak_fp32_gflops", 110.08, 1e-9},             // seed 000: 128 lanes × 2 × 430 MHz
		{"adreno-615", "fp32_fma_per_clock", 128, 0},                 // multiply-adds
		{"adreno-615", "fp32_true_fma_per_clock", 256.0 / 600, 1e-9}, // 4 partitions × 64 / 600 cycles
		{"adreno-615", "fp16_ops_per_clock", 256, 0},                 // double rate
		{"adreno-615", "int8_ops_per_clock", 0, 0},                   // emulated
		{"adreno-615", "full_occupancy_max_regs", 12, 0},             // seed 000 §Shader Frontend
		{"powervr-gx6250", "uscs", 2, 0},
		{"powervr-gx6250", "usc_pairs", 1, 0},
		{"powervr-gx6250", "register_file_kib_per_core", 80, 0},      // 4 × 1280 × 128 bits
		{"powervr-gx6250", "max_resident_threads_per_core", 1536, 0}, // 48 tasks × 32
		{"powervr-gx6250", "peak_fp32_gflops", 89.6, 1e-9},           // 64 FP32 ALUs × 2 × 700 MHz
		{"mali-t760", "max_resident_threads_per_core", 256, 0},       // Midgard full capacity
		{"mali-t880", "max_resident_threads_per_core", 384, 0},
		{"mali-t760", "fp32_ops_per_clock", 64, 0}, // 4 cores × 2 pipes × (2 units × 4 lanes)
	}
	for _, tt := range tests {
		d := mustLookup(t, tt.gpu).Derived()
		got, ok := derivedValue(d, tt.name)
		if !ok {
			t.Errorf("%s: no derived %s", tt.gpu, tt.name)
			continue
		}
		if math.Abs(got-tt.want) > tt.tol {
			t.Errorf("%s: %s = %v, want %v", tt.gpu, tt.name, got, tt.want)
		}
	}
}

func derivedValue(d Derived, name string) (float64, bool) {
	for _, it := range d.Items() {
		if it.Name == name {
			return it.Value, true
		}
	}
	return 0, false
}

// A 32-core triple-EE 8-wide Bifrost at 800 MHz gives 1.23 TFLOPS (seed 000
// §GPU Organization): check that the derivation scales rather than being
// typed in.
func TestPeakScalesWithParameters(t *testing.T) {
	g := mustLookup(t, "mali-g52")
	base := g.Derived().PeakFP32GFLOPS
	g.Cores = 32
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := g.Derived().PeakFP32GFLOPS; math.Abs(got-1228.8) > 1e-6 {
		t.Errorf("32-core G52 peak = %v GFLOPS, want 1228.8", got)
	}
	g.Cores = 4
	if got := g.Derived().PeakFP32GFLOPS; math.Abs(got-2*base) > 1e-9 {
		t.Errorf("4-core G52 peak = %v, want twice %v", got, base)
	}
	g.Cores, g.ClockMHz = 2, 400
	if got := g.Derived().PeakFP32GFLOPS; math.Abs(got-base/2) > 1e-9 {
		t.Errorf("G52 at 400 MHz peak = %v, want half of %v", got, base)
	}
}

func TestIssueCycles(t *testing.T) {
	tests := []struct {
		gpu        string
		class      string
		width      int
		components int
		pipes      string
		cycles     float64
	}{
		{"mali-g52", "fp32_add", 8, 1, "fma fadd", 1},
		{"mali-g52", "fp32_add", 0, 0, "fma fadd", 1}, // defaults: widest warp, 1 component
		{"mali-g52", "fp32_fma", 8, 4, "fma", 4},
		{"mali-g52", "fp32_sfu", 8, 1, "fadd", 2}, // half rate
		{"mali-g52", "fp16_add", 8, 2, "fma fadd", 1},
		{"mali-g52", "fp16_add", 8, 3, "fma fadd", 2},
		{"mali-g52", "int8_add", 8, 4, "fma fadd", 1},
		{"mali-g52", "fp64_add", 8, 1, "", 0}, // unsupported
		{"mali-g52", "no_such_op", 8, 1, "", 0},
		{"adreno-615", "fp32_add", 64, 1, "alu", 2},
		{"adreno-615", "fp16_add", 64, 1, "alu", 1},
		{"adreno-615", "fp32_fma", 64, 1, "alu", 600},
		{"adreno-615", "fp32_fma", 64, 2, "alu", 1200},
		{"adreno-615", "fp32_sfu", 64, 1, "sfu", 16},
		{"adreno-640", "fp32_add", 128, 1, "alu", 2},
		{"adreno-640", "fp32_add", 64, 1, "alu", 1},
		{"adreno-640", "fp16_add", 128, 1, "alu", 1},
		{"adreno-640", "fp16_add", 64, 1, "alu", 1},
		{"adreno-640", "int32_add", 128, 1, "alu", 4},
		{"powervr-gx6250", "fp32_mad", 32, 1, "alu", 2},
		{"powervr-gx6250", "fp32_mad", 32, 2, "alu", 2},
		{"powervr-gx6250", "fp32_mad", 32, 3, "alu", 4},
		{"mali-t760", "fp32_add", 4, 4, "vmul vadd", 4},
		{"mali-t760", "fp32_add", 4, 1, "vmul vadd", 4},
		{"mali-t760", "fp16_add", 4, 8, "vmul vadd", 4},
		{"mali-t760", "fp32_fma", 4, 1, "vmul", 48},
	}
	for _, tt := range tests {
		g := mustLookup(t, tt.gpu)
		pipes, cycles := g.IssueCycles(tt.class, tt.width, tt.components)
		if strings.Join(pipes, " ") != tt.pipes || cycles != tt.cycles {
			t.Errorf("%s IssueCycles(%s, %d, %d) = %v, %v; want [%s], %v", tt.gpu, tt.class, tt.width, tt.components, pipes, cycles, tt.pipes, tt.cycles)
		}
	}
}

// Every preset's ops table covers every class, and supported classes have a
// positive cost on every warp width the GPU schedules.
func TestOpsTablesComplete(t *testing.T) {
	for _, g := range Presets() {
		for _, class := range OpClasses {
			op, ok := g.Op(class)
			if !ok {
				t.Errorf("%s: no %s", g.ID, class)
				continue
			}
			for _, w := range g.WarpSizes {
				for _, step := range g.OpSequence(class) {
					pipes, c := g.IssueCycles(step, w, 1)
					if op.Unsupported != (len(pipes) == 0) || (!op.Unsupported && c <= 0) {
						t.Errorf("%s: %s (step %s) on width %d costs %v on %v (unsupported=%v)", g.ID, class, step, w, c, pipes, op.Unsupported)
					}
				}
			}
		}
	}
}

// The model uses theoretical × efficiency; where a preset also records the
// measured figure, the two must agree.
func TestMeasuredDRAMMatchesEfficiency(t *testing.T) {
	for _, g := range Presets() {
		if m := g.DRAM.MeasuredBandwidthGBs; m > 0 {
			if got := g.DRAMAchievedGBs(); math.Abs(got-m)/m > 0.01 {
				t.Errorf("%s: theoretical %.2f × efficiency %.3f = %.2f GB/s, but measured_bandwidth_gbs is %.2f", g.ID, g.DRAMTheoreticalGBs(), g.DRAM.Efficiency, got, m)
			}
		}
	}
}

// Seed 000 §L2 Cache and System Level: Adreno 615 copies to the GPU faster
// than Mali-G52, and copies back "agonizingly slow".
func TestCopyDirections(t *testing.T) {
	g52, a615 := mustLookup(t, "mali-g52"), mustLookup(t, "adreno-615")
	if a615.CopyGBs(true) <= g52.CopyGBs(true) {
		t.Errorf("adreno-615 to-GPU copy %.2f GB/s is not faster than mali-g52's %.2f", a615.CopyGBs(true), g52.CopyGBs(true))
	}
	if a615.CopyGBs(false) >= a615.CopyGBs(true)/2 {
		t.Errorf("adreno-615 from-GPU copy %.2f GB/s is not far below its to-GPU %.2f", a615.CopyGBs(false), a615.CopyGBs(true))
	}
	if a615.CopyGBs(false) >= g52.CopyGBs(false) {
		t.Errorf("mali-g52 GPU-to-host copies (%.2f GB/s) should beat adreno-615's (%.2f)", g52.CopyGBs(false), a615.CopyGBs(false))
	}
	// Halving the DRAM transfer rate halves the copy bandwidth.
	g := mustLookup(t, "mali-g52")
	g.DRAM.TransferMTs /= 2
	if got := g.CopyGBs(true); math.Abs(got-g52.CopyGBs(true)/2) > 1e-9 {
		t.Errorf("half-rate DRAM copy %.3f GB/s, want %.3f", got, g52.CopyGBs(true)/2)
	}
}
