package bench

import (
	"errors"
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
)

// Atomics, local-memory occupancy, register occupancy and host copies.

var atomics = &Test{
	Name:   "atomics",
	Title:  "Atomics: hand-off latency and add throughput",
	Doc:    "Two work-items in different warps pass a counter back and forth with atomics (an atomic read to poll, atomic_inc to pass it on), in global and in local memory (cycles per hand-off); a full grid of atomic_add on 64 counters per work-group (atomic adds per clock, GPU-wide).",
	Points: func(*arch.GPU, Options) int { return 4 },
}

func init() {
	atomics.run = func(c *ctx) (*Result, error) {
		g := c.g
		r := &Result{Chart: Table, YLabel: "value", Unit: ""}
		const rounds = 16
		// Global hand-off: work-groups 0 and 1, one work-item each.
		k, err := c.kernel("atomics", "handoff_global")
		if err != nil {
			return nil, err
		}
		l, err := c.bind(k, 2, 1, "buf:u32:1", "buf:u32:2", "u32:1")
		if err != nil {
			return nil, err
		}
		hg, err := c.handoff(l, 0, 2, rounds)
		l.free()
		if err != nil {
			return nil, fmt.Errorf("global hand-off: %w", err)
		}
		r.add(g.ID, Point{Label: "global hand-off (cycles)", Y: hg})
		r.metric("handoff_global.cycles", hg)
		r.metric("handoff_global.ns", hg*1000/g.ClockMHz)
		c.tick()
		// Local hand-off: the first work-item of two warps of one work-group.
		w := g.WidestWarp()
		k, err = c.kernel("atomics", "handoff_local")
		if err != nil {
			return nil, err
		}
		wg := 2 * w
		if wg > g.MaxWorkgroupSize {
			return nil, fmt.Errorf("local hand-off needs a work-group of two %d-wide warps; %s allows %d work-items", w, g.ID, g.MaxWorkgroupSize)
		}
		l, err = c.bind(k, wg, wg, "buf:u32:2", "local:4", "u32:1", fmt.Sprintf("u32:%d", w))
		if err != nil {
			return nil, err
		}
		hl, err := c.handoff(l, -1, 2, rounds)
		l.free()
		if err != nil {
			return nil, fmt.Errorf("local hand-off: %w", err)
		}
		r.add(g.ID, Point{Label: "local hand-off (cycles)", Y: hl})
		r.metric("handoff_local.cycles", hl)
		r.metric("handoff_local.ns", hl*1000/g.ClockMHz)
		c.tick()
		// Throughput.
		global, local := rateGrid(g)
		for _, v := range []struct{ entry, label, name string }{
			{"add_global", "global atomic adds per clock", "add_global"},
			{"add_local", "local atomic adds per clock", "add_local"},
		} {
			k, err := c.kernel("atomics", v.entry)
			if err != nil {
				return nil, err
			}
			var l *launch
			if v.entry == "add_global" {
				l, err = c.bind(k, global, local, "buf:u32:64", "u32:1")
			} else {
				l, err = c.bind(k, global, local, fmt.Sprintf("buf:u32:%d", global/local*64), "local:256", "u32:1")
			}
			if err != nil {
				return nil, err
			}
			itersArg := len(l.specs) - 1
			d, err := l.diff(itersArg, "u32", 4)
			l.free()
			if err != nil {
				return nil, err
			}
			ops := float64(global) * 4 * 4 / d
			r.add(g.ID, Point{Label: v.label, Y: ops})
			r.metric(v.name+".ops_per_clk", ops)
			c.tick()
		}
		return r, nil
	}
}

// handoff measures cycles per hand-off: the difference between 2n and n
// rounds of two hand-offs each. counter is the argument holding the
// counter buffer (reset to zero before each run; -1 for local memory).
func (c *ctx) handoff(l *launch, counter, roundsArg, n int) (float64, error) {
	run := func(rounds int) (float64, error) {
		if counter >= 0 {
			clear(l.buffer(counter).Bytes())
		}
		if err := l.set(roundsArg, fmt.Sprintf("u32:%d", rounds)); err != nil {
			return 0, err
		}
		return l.cycles()
	}
	if _, err := run(n); err != nil {
		return 0, err
	}
	a, err := run(n)
	if err != nil {
		return 0, err
	}
	b, err := run(2 * n)
	if err != nil {
		return 0, err
	}
	return (b - a) / float64(2*n), nil
}

// localSizes are the local allocations of the occupancy test (0: none).
var localSizes = []int{0, 1 * kib, 2 * kib, 4 * kib, 8 * kib, 16 * kib, 32 * kib}

var localOccupancy = &Test{
	Name:   "local-occupancy",
	Title:  "Work-groups resident with local memory",
	Doc:    "Many one-warp work-groups, each allocating 0 to 32 KB of local memory and taking a fixed latency-bound time; resident work-groups GPU-wide = N × T(1) / T(N), and the local memory they hold at once. Also the largest allocation a work-group may make.",
	Points: func(g *arch.GPU, o Options) int { return len(localSizesFor(g)) + 1 },
}

func localSizesFor(g *arch.GPU) []int {
	var out []int
	for _, s := range localSizes {
		if s <= g.LocalMemory.MaxPerWorkgroupKiB*kib {
			out = append(out, s)
		}
	}
	return out
}

func init() {
	localOccupancy.run = func(c *ctx) (*Result, error) {
		g := c.g
		k, err := c.kernel("occupancy", "occupancy")
		if err != nil {
			return nil, err
		}
		w := g.WidestWarp()
		wg := min(w, g.MaxWorkgroupSize)
		// Enough work-groups to fill every warp slot of the GPU.
		n := g.Cores * g.EnginesPerCore * g.MaxWarpsPerEngine
		const steps = 256
		r := &Result{Chart: Curve, XLabel: "local memory per work-group", XUnit: "B", YLabel: "resident work-groups (GPU-wide)", Unit: "work-groups", LogX: true}
		ring := "buf:u32:256=chase:64"
		best := 0.0
		none, err := c.kernel("occupancy", "occupancy_none")
		if err != nil {
			return nil, err
		}
		for _, s := range localSizesFor(g) {
			alloc := max(s, wg*4) // the kernel touches a word per work-item
			time := func(groups int) (float64, error) {
				var l *launch
				var err error
				if s == 0 {
					l, err = c.bind(none, groups*wg, wg, ring, fmt.Sprintf("buf:u32:%d", groups), fmt.Sprintf("u32:%d", steps))
				} else {
					l, err = c.bind(k, groups*wg, wg, ring, fmt.Sprintf("buf:u32:%d", groups), fmt.Sprintf("local:%d", alloc), fmt.Sprintf("u32:%d", steps))
				}
				if err != nil {
					return 0, err
				}
				defer l.free()
				if _, err := l.cycles(); err != nil { // warm the ring
					return 0, err
				}
				return l.cycles()
			}
			t1, err := time(1)
			if err != nil {
				return nil, err
			}
			tn, err := time(n)
			if err != nil {
				return nil, err
			}
			resident := float64(n) * t1 / tn
			active := resident * float64(s) / kib
			if s == 0 {
				active = 0
			}
			best = max(best, active)
			if s == 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("without local memory: %.1f work-groups resident", resident))
				r.metric("resident_without_local", resident)
			} else {
				r.add(g.ID, Point{X: float64(s), Y: resident, Note: fmt.Sprintf("%.0f KB of local memory active", active)})
				r.metric(fmt.Sprintf("resident@%s", sizeKey(float64(s))), resident)
			}
			c.tick()
		}
		r.metric("active_local_kib", best)
		// Per core (uSPTP): whether each has its own instance (seed 001:
		// the 730's local memory is SP-private again).
		r.metric("active_local_kib_per_core", best/float64(g.Cores))
		// The largest allocation that launches, probed in 1 KB steps.
		limit := 0
		for s := 1; s <= 128; s++ {
			l, err := c.bind(k, wg, wg, ring, "buf:u32:1", fmt.Sprintf("local:%d", s*kib), "u32:8")
			if err != nil {
				var le *device.LaunchError
				if errors.As(err, &le) {
					break
				}
				return nil, err
			}
			_, err = l.cycles()
			l.free()
			if err != nil {
				var le *device.LaunchError
				if errors.As(err, &le) {
					break
				}
				return nil, err
			}
			limit = s
		}
		r.metric("max_per_workgroup_kib", float64(limit))
		r.Notes = append(r.Notes, fmt.Sprintf("largest local allocation per work-group: %d KB", limit))
		c.tick()
		return r, nil
	}
}

// registerCounts are the register counts of the occupancy table.
var registerCounts = []int{4, 8, 12, 16, 24, 32, 40, 48, 64, 96, 128}

var registerOccupancy = &Test{
	Name:   "occupancy",
	Title:  "Resident threads per core by registers per thread",
	Doc:    "The residency the GPU's rules give a kernel of 4 to 128 32-bit registers per thread (no work-group size fixed, so the widest warp the registers allow; no local memory): threads per core, as `pocketgpu occupancy` reports them. These are the rules the dispatcher applies to every timed kernel.",
	Points: func(*arch.GPU, Options) int { return 1 },
}

func init() {
	registerOccupancy.run = func(c *ctx) (*Result, error) {
		g := c.g
		r := &Result{Chart: Curve, XLabel: "32-bit registers per thread", YLabel: "resident threads per core", Unit: "threads"}
		for _, regs := range registerCounts {
			if regs > g.MaxRegistersPerThread {
				break
			}
			// No work-group size: a work-group of 64 would force wave64
			// on an Adreno that runs wave128 (1024 threads per uSPTP
			// where the rules give 2048).
			o, err := g.Occupancy(arch.OccupancyQuery{Regs: regs})
			if err != nil {
				continue
			}
			r.add(g.ID, Point{X: float64(regs), Y: float64(o.ResidentThreadsPerCore), Note: fmt.Sprintf("warp %d, limited by %s", o.WarpWidth, o.LimitedBy)})
			r.metric(fmt.Sprintf("threads@%d", regs), float64(o.ResidentThreadsPerCore))
			r.metric(fmt.Sprintf("warp@%d", regs), float64(o.WarpWidth))
		}
		// The largest work-group a launch may ask for
		// (CL_DEVICE_MAX_WORK_GROUP_SIZE).
		r.metric("max_workgroup_size", float64(g.MaxWorkgroupSize))
		c.tick()
		return r, nil
	}
}

// copySizes are the host copy sizes.
var copySizes = []int{64 * kib, 256 * kib, 1 * mib, 4 * mib, 16 * mib, 64 * mib}

var hostCopy = &Test{
	Name:   "host-copy",
	Title:  "Host to GPU and GPU to host copy bandwidth",
	Doc:    "Buffer copies (map/unmap, enqueue read/write) of 64 KB to 64 MB in each direction, timed by the device's copy model; GB/s.",
	Points: func(*arch.GPU, Options) int { return 1 },
}

func init() {
	hostCopy.run = func(c *ctx) (*Result, error) {
		g := c.g
		r := &Result{Chart: Curve, XLabel: "copy size", XUnit: "B", YLabel: "copy bandwidth", Unit: "GB/s", LogX: true}
		for _, dir := range []struct {
			name  string
			toGPU bool
		}{{"to GPU", true}, {"from GPU", false}} {
			for _, n := range copySizes {
				cyc := c.dev.CopyCycles(int64(n), dir.toGPU)
				if cyc <= 0 {
					return nil, fmt.Errorf("a %d-byte copy took %v cycles", n, cyc)
				}
				v := float64(n) / (cyc / g.ClockMHz * 1e-6) / 1e9
				r.add(g.ID+" "+dir.name, Point{X: float64(n), Y: v})
				key := "to_gpu"
				if !dir.toGPU {
					key = "from_gpu"
				}
				r.metric(fmt.Sprintf("%s.gbs@%s", key, sizeKey(float64(n))), v)
			}
		}
		if g.HostCopy.ZeroCopy {
			r.Notes = append(r.Notes, "zero-copy: the CPU and GPU share buffers, so map/unmap copies nothing; the curves are explicit copies")
		} else {
			r.Notes = append(r.Notes, "no zero-copy: map/unmap copies the whole buffer at these rates")
		}
		c.tick()
		return r, nil
	}
}
