package mem

import (
	"fmt"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Streaming full-warp accesses with plenty in flight approaches the
// bandwidth of the level the footprint lives in.
func TestStreamingBandwidth(t *testing.T) {
	const K, M = 1 << 10, 1 << 20
	gbs := func(g *arch.GPU, x float64) float64 { return g.GBsToBytesPerCycle(x) }
	tests := []struct {
		gpu       string
		kind      Kind
		cores     int // cores streaming
		footprint int
		bytes     int // per lane
		passes    int // the first warms the caches
		want      func(g *arch.GPU) float64
		source    string
	}{
		{"mali-g52", Load, 2, 8 * K, 16, 40, func(g *arch.GPU) float64 { return 2 * g.L1.BytesPerCycle },
			"seed 000 §Memory Pipeline: L1 likely delivers 32 B/cycle (float4)"},
		{"mali-g52", Load, 2, 8 * K, 4, 40, func(g *arch.GPU) float64 { return 2 * g.L1.LanesPerCycle * 4 },
			"seed 000 §Memory Pipeline: a scalar-float global test at 16 B per core cycle (4 lanes a cycle)"},
		{"mali-g52", Load, 2, 96 * K, 4, 6, func(g *arch.GPU) float64 { return 2 * g.L2.CoreBytesPerCycle },
			"seed 000 §Memory Pipeline: a shader core delivered 16 B/cycle in the global memory bandwidth test"},
		{"mali-g52", Load, 2, 4 * M, 16, 2, func(g *arch.GPU) float64 { return gbs(g, 4) },
			"seed 000 §L2 Cache and System Level: 4 GB/s of DRAM traffic"},
		{"adreno-615", Load, 2, 48 * K, 4, 6, func(g *arch.GPU) float64 { return 2 * g.L2.CoreBytesPerCycle },
			"seed 000 §Memory Pipeline: a uSPTP loads 32 B/cycle from L2"},
		{"adreno-640", Load, 6, 1 * M, 4, 3, func(g *arch.GPU) float64 { return gbs(g, g.SLC.BandwidthGBs) },
			"seed 001 §L2 Cache and Beyond: the system level cache offers about 40 GB/s"},
		{"adreno-640", Load, 6, 16 * M, 4, 2, func(g *arch.GPU) float64 { return gbs(g, 29.5) },
			"seed 001 §L2 Cache and Beyond: main memory a touch below 30 GB/s"},
		{"adreno-640", Load, 6, 96 * K, 4, 6, func(g *arch.GPU) float64 { return float64(g.L2.Slices) * g.L2.BytesPerCycle },
			"the L2 slices' bandwidth bounds six uSPTPs' 32 B/cycle paths"},
		{"powervr-gx6250", Load, 2, 8 * K, 16, 40, func(g *arch.GPU) float64 { return 2 * 16 / (1 / g.L1.LookupsPerCycle) },
			"seed 003 §System Memory Access: transactions resolved one by one (16 B each)"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%dK/%dB", tt.gpu, tt.footprint/K, tt.bytes), func(t *testing.T) {
			g := lookup(t, tt.gpu)
			got := stream(New(g), g, tt.kind, tt.cores, tt.footprint, tt.bytes, tt.passes, 256)
			want := tt.want(g)
			t.Logf("%.2f B/cycle (want %.2f)", got, want)
			if got < 0.93*want || got > 1.01*want {
				t.Errorf("%.2f B/cycle, want about %.2f; %s", got, want, tt.source)
			}
		})
	}
}

// Physics: halving the DRAM bandwidth of a user GPU doubles the time of a
// DRAM-bound stream (and halving its efficiency does the same).
func TestHalfDRAMDoublesStreamTime(t *testing.T) {
	for _, tt := range []struct{ base, src string }{
		{"mali-g52", "base: mali-g52\ndram: {transfer_mts: 1320}\n"},
		{"adreno-640", "base: adreno-640\ndram: {bus_bits: 32}\n"},
		{"adreno-640", "base: adreno-640\ndram: {efficiency: 0.432}\n"},
		{"powervr-gx6250", "base: powervr-gx6250\ndram: {transfer_mts: 933}\n"},
	} {
		g, half := lookup(t, tt.base), userGPU(t, tt.src)
		full := stream(New(g), g, Load, g.Cores, 8<<20, 16, 2, 256)
		slow := stream(New(half), half, Load, half.Cores, 8<<20, 16, 2, 256)
		if r := full / slow; r < 1.9 || r > 2.1 {
			t.Errorf("%q: %.2f B/cycle, preset %.2f: ratio %.2f, want 2", tt.src, slow, full, r)
		}
	}
}

// Seed 000 §Memory Pipeline: Mali-G52 delivers 26.05 B per shader-core cycle
// through read_imageui, its large cores do two 16-byte samples per clock
// (32 B), less a cycle per warp's message (8 samples in 5 cycles); Adreno 615
// reaches 61.3 B per uSPTP cycle, or four samples. On Rogue two USCs share
// a TPU (seed 003 §USC Pair).
func TestTextureThroughput(t *testing.T) {
	// unitRate: samples a cycle of one unit fed whole warps' messages.
	unitRate := func(g *arch.GPU) float64 {
		w := float64(g.WidestWarp())
		return w / (g.Texture.CyclesPerMessage + w/g.Texture.SamplesPerClock)
	}
	tests := []struct {
		gpu   string
		cores int
		want  func(g *arch.GPU) float64 // B/cycle over all the cores sampling
	}{
		{"mali-g52", 1, func(g *arch.GPU) float64 { return unitRate(g) * 16 }},
		{"mali-g52", 2, func(g *arch.GPU) float64 { return 2 * unitRate(g) * 16 }},
		{"adreno-615", 1, func(g *arch.GPU) float64 { return g.Texture.SamplesPerClock * 16 }},
		{"powervr-gx6250", 1, func(g *arch.GPU) float64 { return g.Texture.SamplesPerClock * 16 }},
		{"powervr-gx6250", 2, func(g *arch.GPU) float64 { return g.Texture.SamplesPerClock * 16 }}, // one TPU for both
	}
	for _, tt := range tests {
		g := lookup(t, tt.gpu)
		// A footprint that fits the smallest texture cache (1 KB).
		got := stream(New(g), g, Texture, tt.cores, 512*tt.cores, 16, 200, 64)
		if want := tt.want(g); got < 0.95*want || got > 1.01*want {
			t.Errorf("%s, %d cores sampling: %.2f B/cycle, want about %.2f", tt.gpu, tt.cores, got, want)
		}
	}
	if g := lookup(t, "mali-g52"); unitRate(g)*16 < 0.95*26.05 || unitRate(g)*16 > 1.05*26.05 {
		t.Errorf("mali-g52 texture unit: %.2f B/cycle, the seed measured 26.05", unitRate(g)*16)
	}
	if g := lookup(t, "adreno-615"); g.Texture.SamplesPerClock*16 < 61.3 {
		t.Errorf("adreno-615 texture unit below the measured 61.3 B/cycle")
	}
}

// Seed 000 §Memory Pipeline: Mali local memory is system RAM behind the
// load/store cache; float4 loads from it reach about 32 B per cycle.
func TestMaliLocalMemoryThroughL1(t *testing.T) {
	g := lookup(t, "mali-g52")
	h := New(g)
	warp := g.WidestWarp()
	r := &Request{Core: 0, Space: ir.SpaceLocal, Kind: Store, Bytes: 16, Lanes: warp, Addrs: make([]uint64, warp)}
	const size = 4 << 10
	for off := 0; off < size; off += warp * 16 {
		for l := range r.Addrs {
			r.Addrs[l] = uint64(off + l*16)
		}
		h.Access(0, r)
	}
	if c := h.Counters(); c.L1[0].Accesses == 0 || c.LocalRequests == 0 {
		t.Fatalf("local stores did not go through the L1: %+v", c.L1[0])
	}
	r.Kind = Load
	t0 := h.l1Srv[0].free
	now, n := t0, 0
	var last float64
	for range 50 {
		for off := 0; off < size; off += warp * 16 {
			for l := range r.Addrs {
				r.Addrs[l] = uint64(off + l*16)
			}
			last = max(last, h.Access(now, r).Done)
			n += warp * 16
		}
	}
	bw := float64(n) / (last - t0)
	if bw < 0.95*32 || bw > 32.01 {
		t.Errorf("float4 local loads: %.2f B/cycle, want about 32", bw)
	}
	c := h.Counters()
	if c.L1[0].Misses != int64(size/g.L1.LineBytes) {
		t.Errorf("L1 misses %d, want %d (the store allocations only)", c.L1[0].Misses, size/g.L1.LineBytes)
	}
	// The first load after the stores sees the L1 latency.
	r.Addrs = r.Addrs[:1]
	at := last + 1000
	if d := h.Access(at, r).Done - at; d != float64(g.L1.LatencyCycles) {
		t.Errorf("local load latency %.1f, want the L1's %d", d, g.L1.LatencyCycles)
	}
	// Another work-group slot's local memory is another area: a miss.
	r.Group, r.Window = 1, uint64(size)
	if res := h.Access(at, r); res.Cause == L1Hit {
		t.Errorf("group 1 hit group 0's local line")
	}
}
