package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Tests of the Rogue guide's rules (seed 003): the common store's bank
// clashes and the row-order resolution of a task's system-memory accesses.

func isRogue(g *arch.GPU) bool { return g.Rogue != nil }

// commonStoreStrides are the strides (in floats) of the common-store sweep.
var commonStoreStrides = []int{1, 2, 4, 8, 16}

var commonStore = &Test{
	Name:    "common-store",
	Title:   "Common store throughput by access stride (Rogue)",
	Doc:     "Work-groups of 64 read __local floats at a stride of 1 to 16 floats per work-item, and float4 per work-item (the guide's three scenarios), and write consecutive floats; the common store's throughput while it is busy (bytes over its busy cycles, as a profiler counts them) as a share of its 64 bytes a cycle, and cycles per 16-thread read.",
	Applies: isRogue,
	Points:  func(*arch.GPU, Options) int { return len(commonStoreStrides) + 2 },
}

// peakCommonStore is the common store's bytes per cycle: every bank
// delivering one register a cycle.
func peakCommonStore(g *arch.GPU) float64 {
	return float64(g.LocalMemory.Banks * g.LocalMemory.BankBytes)
}

func init() {
	commonStore.run = func(c *ctx) (*Result, error) {
		g := c.g
		r := &Result{Chart: Bars, YLabel: "throughput", Unit: "% of peak"}
		local := 64
		global := local * g.Cores * 8
		fp := localFootprint(g)
		mask := fp/4 - 1
		peak := peakCommonStore(g)
		half := g.LanesPerEngine // threads served together
		measure := func(file, entry string, stride, bytesPerThread int) (pct, cyclesPer16 float64, err error) {
			k, err := c.kernel(file, entry)
			if err != nil {
				return 0, 0, err
			}
			specs := []string{fmt.Sprintf("buf:f32x4:%d", global), fmt.Sprintf("local:%d", fp)}
			if stride > 0 {
				specs = append(specs, fmt.Sprintf("u32:%d", stride))
			}
			specs = append(specs, fmt.Sprintf("u32:%d", mask), "u32:16")
			l, err := c.bind(k, global, local, specs...)
			if err != nil {
				return 0, 0, err
			}
			defer l.free()
			// Bytes and busy cycles of the common store, per instance (one
			// per USC, all equally loaded), for n and 2n rounds: the
			// difference leaves out the fill and the barrier.
			run := func(iters int) (bytes, busy float64, err error) {
				if err := l.set(len(specs)-1, fmt.Sprintf("u32:%d", iters)); err != nil {
					return 0, 0, err
				}
				res, err := l.time()
				if err != nil {
					return 0, 0, err
				}
				ct := res.Timing.Counters
				return ct.Value("local_bytes") / float64(g.Cores), ct.Value("local_utilization_pct") / 100 * res.Timing.Cycles, nil
			}
			b1, t1, err := run(16)
			if err != nil {
				return 0, 0, err
			}
			b2, t2, err := run(32)
			if err != nil {
				return 0, 0, err
			}
			if t2 <= t1 || b2 <= b1 {
				return 0, 0, fmt.Errorf("%s: the common store was not busier with more reads", entry)
			}
			bpc := (b2 - b1) / (t2 - t1)
			return 100 * bpc / peak, float64(half*bytesPerThread) / bpc, nil
		}
		for _, s := range commonStoreStrides {
			pct, cyc, err := measure("bandwidth", "cs_stride", s, 4)
			if err != nil {
				return nil, err
			}
			label := fmt.Sprintf("stride %d float", s)
			r.add(g.ID, Point{Label: label, Y: pct, Note: fmt.Sprintf("%.2f cycles per %d-thread read", cyc, half)})
			r.metric(fmt.Sprintf("stride%d.pct", s), pct)
			r.metric(fmt.Sprintf("stride%d.cycles", s), cyc)
			c.tick()
		}
		pct, cyc, err := measure("bandwidth", "cs_float4", 0, 16)
		if err != nil {
			return nil, err
		}
		r.add(g.ID, Point{Label: "float4 per thread", Y: pct, Note: fmt.Sprintf("%.2f cycles per %d-thread read", cyc, half)})
		r.metric("float4.pct", pct)
		r.metric("float4.cycles", cyc)
		c.tick()
		// Writes: consecutive floats, a row per 16 threads.
		pct, cyc, err = measure("cstore", "cs_write", 0, 4)
		if err != nil {
			return nil, err
		}
		r.add(g.ID, Point{Label: "write, stride 1 float", Y: pct, Note: fmt.Sprintf("%.2f cycles per %d-thread write", cyc, half)})
		r.metric("write.pct", pct)
		r.metric("write.cycles", cyc)
		c.tick()
		return r, nil
	}
}

var rowOrder = &Test{
	Name:    "row-order",
	Title:   "One 128-byte line read by a task's threads (Rogue)",
	Doc:     "Sixteen work-items of one task each load 8 bytes of one aligned 128-byte line from cold caches: L1 lookups, hits and misses, and the extra cycles over a single work-item's load; and the L1 transactions of one work-item's 128-byte (ulong16) load.",
	Applies: isRogue,
	Points:  func(*arch.GPU, Options) int { return 3 },
}

func init() {
	rowOrder.run = func(c *ctx) (*Result, error) {
		k, err := c.kernel("bandwidth", "row_line")
		if err != nil {
			return nil, err
		}
		r := &Result{Chart: Table, YLabel: "value", Unit: ""}
		run := func(n int) (cycles, hits, misses float64, err error) {
			c.dev.ResetCaches()
			l, err := c.bind(k, n, n, "buf:u32x2:16", "buf:u32:1")
			if err != nil {
				return 0, 0, 0, err
			}
			defer l.free()
			res, err := l.time()
			if err != nil {
				return 0, 0, 0, err
			}
			ct := res.Timing.Counters
			return res.Timing.Cycles, ct.Value("l1_hits"), ct.Value("l1_misses"), nil
		}
		one, _, _, err := run(1)
		if err != nil {
			return nil, err
		}
		c.tick()
		all, hits, misses, err := run(16)
		if err != nil {
			return nil, err
		}
		c.tick()
		r.add(c.g.ID, Point{Label: "L1 misses", Y: misses})
		r.add(c.g.ID, Point{Label: "L1 hits", Y: hits})
		r.add(c.g.ID, Point{Label: "cycles over one work-item's load", Y: all - one})
		r.metric("misses", misses)
		r.metric("hits", hits)
		r.metric("extra_cycles", all-one)
		// One work-item's 128-byte load: the L1 transactions it takes
		// (bursts of at most l1.burst_bytes).
		kb, err := c.kernel("cstore", "burst_load")
		if err != nil {
			return nil, err
		}
		c.dev.ResetCaches()
		l, err := c.bind(kb, 1, 1, "buf:u64:16=iota", "buf:u64:1", "u64:1")
		if err != nil {
			return nil, err
		}
		res, err := l.time()
		l.free()
		if err != nil {
			return nil, err
		}
		ct := res.Timing.Counters
		tx := ct.Value("l1_hits") + ct.Value("l1_misses")
		r.add(c.g.ID, Point{Label: "L1 transactions of one 128-byte load", Y: tx})
		r.metric("burst128.transactions", tx)
		c.tick()
		return r, nil
	}
}
