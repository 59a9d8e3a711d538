package mem

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

func lanes(n int, f func(i int) uint64) []uint64 {
	a := make([]uint64, n)
	for i := range a {
		a[i] = f(i)
	}
	return a
}

// Seed 003 §Common Store, exactly: four 128-bit banks; 16 threads reading
// consecutive floats take one cycle (16 values a cycle, 100%); a stride of
// 16 floats is a 16-way clash, one value a cycle (6.25%); a float4 per
// thread takes four cycles (100% throughput). A row is written in four
// cycles.
func TestCommonStoreCycles(t *testing.T) {
	g := lookup(t, "powervr-gx6250")
	h := New(g)
	b := &h.banks
	half := g.LanesPerEngine // the 16 threads that run in one cycle
	tests := []struct {
		name   string
		addrs  []uint64
		bytes  int
		read   int
		write  int
		extraR int // Result.Conflicts of a load
	}{
		{"stride 1 float", lanes(half, func(i int) uint64 { return uint64(4 * i) }), 4, 1, 4, 0},
		{"stride 16 floats", lanes(half, func(i int) uint64 { return uint64(64 * i) }), 4, 16, 16, 15},
		{"float4 per thread", lanes(half, func(i int) uint64 { return uint64(16 * i) }), 16, 4, 16, 0},
		{"stride 4 floats", lanes(half, func(i int) uint64 { return uint64(16 * i) }), 4, 4, 16, 3},
		{"one value for all", lanes(half, func(i int) uint64 { return 8 }), 4, 1, 1, 0},
		{"full task, stride 1", lanes(2*half, func(i int) uint64 { return uint64(4 * i) }), 4, 2, 8, 0},
		{"full task, stride 16", lanes(2*half, func(i int) uint64 { return uint64(64 * i) }), 4, 32, 32, 30},
	}
	for _, tt := range tests {
		if got := b.commonStoreCycles(tt.addrs, tt.bytes); got != tt.read {
			t.Errorf("%s: read %d cycles, want %d", tt.name, got, tt.read)
		}
		if got := b.commonStoreWriteCycles(tt.addrs, tt.bytes); got != tt.write {
			t.Errorf("%s: write %d cycles, want %d", tt.name, got, tt.write)
		}
		h.Reset()
		res := h.Access(0, &Request{Core: 0, Space: ir.SpaceLocal, Kind: Load, Addrs: tt.addrs, Bytes: tt.bytes, Lanes: len(tt.addrs)})
		if res.Conflicts != tt.extraR {
			t.Errorf("%s: Conflicts %d, want %d", tt.name, res.Conflicts, tt.extraR)
		}
		want := float64(tt.read-1) + float64(g.LocalMemory.LatencyCycles)
		if res.Done != want {
			t.Errorf("%s: done at %.1f, want %.1f (%d cycles + latency)", tt.name, res.Done, want, tt.read)
		}
		if (tt.extraR > 0) != (res.Cause == BankConflict) {
			t.Errorf("%s: cause %v", tt.name, res.Cause)
		}
	}
	if c := h.Counters(); c.Local[0].ConflictCycles != 30 || c.Local[0].Accesses != 1 {
		t.Errorf("local counters %+v, want the last case's 30 conflict cycles", c.Local[0])
	}
}

// Seed 003 §System Memory Access: 16 threads each transferring 8 bytes that
// fall in one 128-byte line cost one miss plus fifteen hits, resolved one
// after another.
func TestRogueOneMissThenHits(t *testing.T) {
	g := lookup(t, "powervr-gx6250")
	one := New(g).Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: []uint64{bufBase}, Bytes: 8, Lanes: 1})

	h := New(g)
	res := h.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: lanes(16, func(i int) uint64 { return bufBase + uint64(8*i) }), Bytes: 8, Lanes: 16})
	c := h.Counters().L1[0]
	if c.Accesses != 16 || c.Misses != 1 || c.Hits != 15 {
		t.Errorf("L1 %d accesses, %d misses, %d hits; want 16, 1, 15", c.Accesses, c.Misses, c.Hits)
	}
	hit := 1 / g.L1.LookupsPerCycle // one transaction's service
	if want := one.Done + 15*hit; res.Done != want {
		t.Errorf("done at %.1f, want the miss (%.1f) + 15 hits of %.0f cycle = %.1f", res.Done, one.Done, hit, want)
	}
	if res.Cause != TLBMiss { // a cold TLB, then DRAM
		t.Errorf("cause %v, want tlb_miss", res.Cause)
	}
	if l2 := h.Counters().L2Total(); l2.Accesses != 1 {
		t.Errorf("L2 saw %d lookups, want the one miss", l2.Accesses)
	}

	// The same 16 threads on a Mali merge into one line lookup.
	m := New(lookup(t, "mali-g52"))
	m.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: lanes(8, func(i int) uint64 { return bufBase + uint64(8*i) }), Bytes: 8, Lanes: 8})
	if c := m.Counters().L1[0]; c.Accesses != 1 || c.Misses != 1 {
		t.Errorf("mali-g52: 8 lanes in one line made %d lookups (%d misses), want 1", c.Accesses, c.Misses)
	}
}

// Seed 003 §System Memory Access: a transfer is at most 64 bytes per thread
// (l1.burst_bytes); larger vectors split, and a transfer never crosses a
// line.
func TestRogueBursts(t *testing.T) {
	g := lookup(t, "powervr-gx6250")
	tests := []struct {
		name  string
		addrs []uint64
		bytes int
		want  int64 // L1 lookups
	}{
		{"16 B per thread", lanes(4, func(i int) uint64 { return bufBase + uint64(16*i) }), 16, 4},
		{"64 B per thread", lanes(4, func(i int) uint64 { return bufBase + uint64(64*i) }), 64, 4},
		{"128 B per thread", lanes(4, func(i int) uint64 { return bufBase + uint64(128*i) }), 128, 8},
		{"crossing a line", []uint64{bufBase + 120}, 16, 2},
	}
	for _, tt := range tests {
		h := New(g)
		h.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: tt.addrs, Bytes: tt.bytes, Lanes: len(tt.addrs)})
		if got := h.Counters().L1[0].Accesses; got != tt.want {
			t.Errorf("%s: %d transactions, want %d", tt.name, got, tt.want)
		}
	}
}

// Mali and Adreno merge a warp's lanes into unique lines.
func TestCoalescing(t *testing.T) {
	tests := []struct {
		gpu   string
		addrs []uint64
		bytes int
		want  int64 // lookups at the first level (L1, or L2 on Adreno)
	}{
		{"mali-g52", lanes(8, func(i int) uint64 { return bufBase + uint64(4*i) }), 4, 1},
		{"mali-g52", lanes(8, func(i int) uint64 { return bufBase + uint64(16*i) }), 16, 2},
		{"mali-g52", lanes(8, func(i int) uint64 { return bufBase + uint64(64*i) }), 4, 8},
		{"mali-g52", lanes(8, func(i int) uint64 { return bufBase }), 4, 1},
		{"mali-g52", lanes(8, func(i int) uint64 { return bufBase + uint64(60+64*(i%2)) }), 8, 3},
		{"adreno-640", lanes(128, func(i int) uint64 { return bufBase + uint64(4*i) }), 4, 8},
		{"adreno-640", lanes(128, func(i int) uint64 { return bufBase + uint64(4096*i) }), 4, 128},
		{"adreno-640", lanes(128, func(i int) uint64 { return bufBase + uint64(4*(127-i)) }), 4, 8},
	}
	for _, tt := range tests {
		g := lookup(t, tt.gpu)
		h := New(g)
		h.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: tt.addrs, Bytes: tt.bytes, Lanes: len(tt.addrs)})
		c := h.Counters()
		got := c.L2Total().Accesses
		if c.L1 != nil {
			got = c.L1Total().Accesses
		}
		if got != tt.want {
			t.Errorf("%s, %d lanes × %d B from %#x: %d line lookups, want %d", tt.gpu, len(tt.addrs), tt.bytes, tt.addrs[0]-bufBase, got, tt.want)
		}
	}
}

// Seed 001 §Local Memory: Adreno 640 local memory is one instance per three
// uSPTPs, with its own bandwidth and latency; uSPTPs of one SP share it.
func TestAdrenoLocalMemoryShared(t *testing.T) {
	g := lookup(t, "adreno-640")
	lm := g.LocalMemory
	h := New(g)
	warp := g.WidestWarp()
	req := func(core int) *Request {
		return &Request{Core: core, Space: ir.SpaceLocal, Kind: Load, Bytes: 4, Lanes: warp, Addrs: lanes(warp, func(i int) uint64 { return uint64(4 * i) })}
	}
	cycles := float64(warp*4) / lm.BytesPerCycle
	lat := float64(lm.LatencyCycles)
	var done []float64
	for core := range 4 { // cores 0-2 share instance 0; core 3 has instance 1
		done = append(done, h.Access(0, req(core)).Done)
	}
	want := []float64{cycles - 1 + lat, 2*cycles - 1 + lat, 3*cycles - 1 + lat, cycles - 1 + lat}
	if !reflect.DeepEqual(done, want) {
		t.Errorf("done %v, want %v", done, want)
	}
	// One lane sees the latency.
	h.Reset()
	r := req(0)
	r.Addrs, r.Lanes = r.Addrs[:1], 1
	if d := h.Access(0, r).Done; d != lat {
		t.Errorf("single-lane local load %.1f cycles, want %.0f", d, lat)
	}
	if c := h.Counters(); len(c.Local) != g.Cores/lm.CoresPerInstance || c.Local[0].Bytes != 4 {
		t.Errorf("local counters %+v", c.Local)
	}
}

// Atomics: global atomics at L2 with a GPU-wide throughput; on Adreno local
// atomics are quicker than global ones (seed 000 §L2 Cache and System
// Level).
func TestAtomics(t *testing.T) {
	g := lookup(t, "mali-g52")
	h := New(g)
	one := &Request{Space: ir.SpaceGlobal, Kind: Atomic, Addrs: []uint64{bufBase}, Bytes: 4, Lanes: 1}
	h.Access(0, one) // bring the line into L2
	at := 10000.0
	if d := h.Access(at, one).Done - at; d != float64(g.Atomics.LatencyCycles) {
		t.Errorf("warm global atomic %.1f cycles, want %d", d, g.Atomics.LatencyCycles)
	}
	// Throughput: a full warp from each core at once queues at the unit.
	at = 20000
	var last float64
	for core := range g.Cores {
		r := &Request{Core: core, Space: ir.SpaceGlobal, Kind: Atomic, Bytes: 4, Lanes: 8, Addrs: lanes(8, func(i int) uint64 { return bufBase + uint64(4*i) })}
		last = max(last, h.Access(at, r).Done)
	}
	ops := float64(8 * g.Cores)
	if want := at + ops/g.Atomics.OpsPerClock - 1 + float64(g.Atomics.LatencyCycles); math.Abs(last-want) > 1 {
		t.Errorf("%.0f atomics done at %.1f, want about %.1f (ops / ops_per_clock + latency)", ops, last, want)
	}
	if c := h.Counters(); c.AtomicOps != 2+int64(ops) || c.Atomics != 2+int64(g.Cores) {
		t.Errorf("atomic counters: %d ops, %d requests", c.AtomicOps, c.Atomics)
	}

	a := lookup(t, "adreno-640")
	ha := New(a)
	global := ha.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Atomic, Addrs: []uint64{bufBase}, Bytes: 4, Lanes: 1}).Done
	at = 10000
	global = ha.Access(at, &Request{Space: ir.SpaceGlobal, Kind: Atomic, Addrs: []uint64{bufBase}, Bytes: 4, Lanes: 1}).Done - at
	local := ha.Access(at, &Request{Space: ir.SpaceLocal, Kind: Atomic, Addrs: []uint64{0}, Bytes: 4, Lanes: 1}).Done - at
	if local >= global {
		t.Errorf("adreno-640: local atomic %.0f cycles, global %.0f; want local quicker", local, global)
	}
	if want := float64(a.Atomics.LocalLatencyCycles); math.Abs(local-want) > 1 {
		t.Errorf("adreno-640 local atomic %.1f cycles, want about %.0f", local, want)
	}
}

// L2 is write-back and write-allocate: dirty lines reach DRAM when evicted
// and at the end-of-kernel flush, each once.
func TestWriteBack(t *testing.T) {
	for _, id := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := lookup(t, id)
		h := New(g)
		const size = 1 << 20 // eight times the L2
		warp := g.WidestWarp()
		r := &Request{Space: ir.SpaceGlobal, Kind: Store, Bytes: 4, Lanes: warp, Addrs: make([]uint64, warp)}
		t0 := 0.0
		for off := 0; off < size; off += warp * 4 {
			for l := range r.Addrs {
				r.Addrs[l] = uint64(bufBase + off + 4*l)
			}
			r.Core = (off / (warp * 4)) % g.Cores
			t0 = max(t0, h.Access(t0, r).Done)
		}
		c := h.Counters()
		if c.DRAMReadBytes != 0 {
			t.Errorf("%s: stores read %d B from DRAM; write-allocate fills nothing", id, c.DRAMReadBytes)
		}
		if c.DRAMWriteBytes == 0 || c.DRAMWriteBytes >= size {
			t.Errorf("%s: %d B written back before the flush, want some but not all of %d", id, c.DRAMWriteBytes, size)
		}
		end := h.Flush(t0)
		c = h.Counters()
		if c.DRAMWriteBytes != size {
			t.Errorf("%s: %d B written to DRAM after the flush, want %d", id, c.DRAMWriteBytes, size)
		}
		if end <= t0 {
			t.Errorf("%s: flush of dirty lines took no time", id)
		}
		if again := h.Flush(end); again != end || h.Counters().DRAMWriteBytes != size {
			t.Errorf("%s: second flush wrote more", id)
		}
		// Reads only: nothing to write back.
		h.Reset()
		r.Kind = Load
		h.Access(0, r)
		if h.Flush(0) != 0 || h.Counters().DRAMWriteBytes != 0 {
			t.Errorf("%s: a flush after loads wrote to DRAM", id)
		}
	}
}

// A flush takes the dirty bytes at the DRAM bandwidth.
func TestFlushTime(t *testing.T) {
	g := lookup(t, "mali-g52")
	h := New(g)
	r := &Request{Space: ir.SpaceGlobal, Kind: Store, Bytes: 4, Lanes: 8, Addrs: make([]uint64, 8)}
	const size = 32 << 10 // fits L1 and L2: everything is written at the flush
	for off := 0; off < size; off += 32 {
		for l := range r.Addrs {
			r.Addrs[l] = uint64(bufBase + off + 4*l)
		}
		h.Access(0, r)
	}
	at := 1e6
	got := h.Flush(at) - at
	want := size / g.GBsToBytesPerCycle(g.DRAMAchievedGBs())
	if got < want || got > want*1.05 {
		t.Errorf("flush of %d dirty bytes took %.1f cycles, want about %.1f", size, got, want)
	}
}

// Seed 000 §L2 Cache and System Level: Mali-G52 copies just above 2 GB/s
// (4 GB/s of DRAM traffic); Adreno 615 copies to the GPU faster and back
// "agonizingly slow". Copy cycles follow the clock.
func TestCopyTime(t *testing.T) {
	g := New(lookup(t, "mali-g52"))
	const gb = 1e9
	cyc := g.CopyTime(gb, true)
	gbs := gb / (cyc / 800e6) / 1e9
	if gbs < 2 || gbs > 2.2 {
		t.Errorf("mali-g52 copy %.2f GB/s, want just above 2", gbs)
	}
	if g.CopyTime(gb, false) != cyc || g.CopyTime(0, true) != 0 || g.CopyTime(-5, true) != 0 {
		t.Errorf("mali-g52 copies should be symmetric and free for no bytes")
	}
	a := New(lookup(t, "adreno-615"))
	if a.CopyTime(gb, true)/430 >= cyc/800 {
		t.Errorf("adreno-615 to-GPU copy not faster than mali-g52's")
	}
	if a.CopyTime(gb, false) < 5*a.CopyTime(gb, true) {
		t.Errorf("adreno-615 GPU-to-host copy not far slower than to-GPU")
	}
	fast := New(userGPU(t, "base: mali-g52\nclock_mhz: 1600\n"))
	if r := fast.CopyTime(gb, true) / cyc; math.Abs(r-2) > 1e-9 {
		t.Errorf("at twice the clock a copy takes %.3f× the cycles, want 2", r)
	}
}

// Two runs of the same requests give the same results and counters.
func TestDeterminism(t *testing.T) {
	for _, id := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := lookup(t, id)
		run := func(h *Hierarchy) ([]Result, Counters) {
			var out []Result
			warp := g.WidestWarp()
			now := 0.0
			for i := range 3000 {
				r := &Request{Core: i % g.Cores, Group: i % 2, Bytes: 4, Lanes: warp}
				r.Addrs = lanes(warp, func(l int) uint64 { return bufBase + uint64((i*7919+l*4*(1+i%3))%(3<<20)) })
				switch i % 6 {
				case 0, 1:
					r.Kind = Load
				case 2:
					r.Kind = Store
				case 3:
					r.Kind, r.Bytes = Texture, 16
				case 4:
					r.Kind, r.Space = Load, ir.SpaceLocal
					for l := range r.Addrs {
						r.Addrs[l] %= 4096
					}
				case 5:
					r.Kind, r.Addrs, r.Lanes = Atomic, r.Addrs[:1], 1
				}
				out = append(out, h.Access(now, r))
				now += 3
			}
			h.Flush(now)
			return out, h.Counters()
		}
		h := New(g)
		r1, c1 := run(h)
		h.Reset()
		r2, c2 := run(h)
		r3, c3 := run(New(g))
		if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(r1, r3) {
			t.Errorf("%s: results differ between runs", id)
		}
		if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(c1, c3) {
			t.Errorf("%s: counters differ between runs:\n%+v\n%+v", id, c1, c3)
		}
		if c1.Loads == 0 || c1.Stores == 0 || c1.TextureRequests == 0 || c1.Atomics == 0 || c1.LocalRequests == 0 {
			t.Errorf("%s: the workload missed a kind: %+v", id, c1)
		}
	}
}

// The engine's bugs are not users' input, but a request from a core the GPU
// lacks is named clearly.
func TestBadCorePanicsWithMessage(t *testing.T) {
	h := New(lookup(t, "mali-g52"))
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, "core 7") || !strings.Contains(msg, "0-1") {
			t.Errorf("panic %q, want one naming core 7 and the cores 0-1", msg)
		}
	}()
	h.Access(0, &Request{Core: 7, Addrs: []uint64{0}, Bytes: 4, Lanes: 1})
}

// An empty request costs nothing.
func TestEmptyRequest(t *testing.T) {
	h := New(lookup(t, "mali-g52"))
	if res := h.Access(5, &Request{Kind: Load}); res.Done != 5 {
		t.Errorf("empty request done at %v", res.Done)
	}
}

// The cache keeps true LRU within a set and reports dirty victims.
func TestCacheLRU(t *testing.T) {
	c := newCache(2*64, 64, 2, 1) // one set, two ways
	steps := []struct {
		line       uint64
		write      bool
		hit        bool
		victim     uint64
		victimDirt bool
	}{
		{1, true, false, 0, false},
		{2, false, false, 0, false},
		{1, false, true, 0, false},
		{3, false, false, 2, false}, // 2 is the least recently used
		{4, false, false, 1, true},  // then 1, dirty from the first write
		{3, false, true, 0, false},
	}
	for i, s := range steps {
		hit, _, victim, dirty := c.access(s.line, s.write, 0)
		if hit != s.hit || victim != s.victim || dirty != s.victimDirt {
			t.Errorf("step %d (line %d): hit %v victim %d dirty %v; want %v %d %v", i, s.line, hit, victim, dirty, s.hit, s.victim, s.victimDirt)
		}
	}
	// Sliced: lines of one slice are every stride-th line.
	sl := newCache(4*64, 64, 1, 2) // 4 sets of a 2-slice level
	if sl.base(0) != 0 || sl.base(2) != 1 || sl.base(8) != 0 {
		t.Errorf("slice set mapping: %d %d %d", sl.base(0), sl.base(2), sl.base(8))
	}
}

// ResetCounters keeps the caches warm for the next dispatch but restarts the
// clock and the counts; Reset makes them cold.
func TestResetCountersKeepsCachesWarm(t *testing.T) {
	g := lookup(t, "mali-g52")
	h := New(g)
	r := &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: []uint64{bufBase}, Bytes: 4, Lanes: 1}
	cold := h.Access(0, r)
	h.Access(1e6, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: []uint64{bufBase + 4096}, Bytes: 4, Lanes: 1}) // a server busy far ahead
	h.ResetCounters()
	if c := h.Counters(); c.Loads != 0 || c.L1[0].Accesses != 0 || c.DRAMReadBytes != 0 {
		t.Errorf("counters not zeroed: %+v", c)
	}
	if warm := h.Access(0, r); warm.Cause != L1Hit || warm.Done != float64(g.L1.LatencyCycles) {
		t.Errorf("after ResetCounters: %+v, want an L1 hit at %d", warm, g.L1.LatencyCycles)
	}
	h.Reset()
	if again := h.Access(0, r); again != cold {
		t.Errorf("after Reset: %+v, want the cold %+v", again, cold)
	}
}

// Scattered lanes with wide vectors spanning several lines each are all
// found (the line index grows with them).
func TestGatherManyLines(t *testing.T) {
	h := New(lookup(t, "adreno-640"))
	addrs := lanes(128, func(i int) uint64 { return bufBase + uint64(i*4096+32) })
	h.Access(0, &Request{Space: ir.SpaceGlobal, Kind: Load, Addrs: addrs, Bytes: 200, Lanes: 128})
	// 200 bytes from offset 32 of a 64-byte line touch 4 lines.
	if got := h.Counters().L2Total().Accesses; got != 128*4 {
		t.Errorf("%d line lookups, want %d", got, 128*4)
	}
}

// Any request the engine can form is answered, never before it was issued.
func TestRandomRequests(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, g := range arch.Presets() {
		h := New(g)
		now := 0.0
		for i := range 2000 {
			n := 1 + rng.IntN(2*g.WidestWarp())
			r := &Request{
				Core: rng.IntN(g.Cores), Group: rng.IntN(300), Kind: Kind(rng.IntN(4)),
				Space: ir.Space(rng.IntN(3)), Bytes: rng.IntN(140), Lanes: n,
			}
			r.Addrs = lanes(n, func(int) uint64 {
				switch rng.IntN(3) {
				case 0:
					return rng.Uint64()
				case 1:
					return bufBase + uint64(rng.IntN(1<<16))
				}
				return uint64(rng.IntN(1 << 15))
			})
			res := h.Access(now, r)
			if res.Done < now || math.IsNaN(res.Done) || math.IsInf(res.Done, 0) || res.Conflicts < 0 {
				t.Fatalf("%s request %d %+v: result %+v at %v", g.ID, i, r, res, now)
			}
			now += rng.Float64() * 4
		}
		if end := h.Flush(now); end < now {
			t.Errorf("%s: flush ended at %v, before %v", g.ID, end, now)
		}
	}
}
