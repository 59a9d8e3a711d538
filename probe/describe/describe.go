// Package describe turns a probe's measurements into a GPU description:
// the closest preset as `base:` and overrides for what the probe measured
// and the schema holds one for one.
package describe

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/probe"
)

// Base picks the preset a description starts from: the preset the device
// name names (its model number), else the nearest model of the family the
// name names (Mali-G, Mali-T, Adreno, PowerVR), else the preset whose warp
// width is nearest the measured one. It says why.
func Base(info probe.Info, warp int) (string, string) {
	name := strings.ToLower(info.Name + " " + info.Vendor)
	ids := arch.PresetIDs()
	tokens := regexp.MustCompile(`[a-z]*[0-9]+`).FindAllString(strings.ReplaceAll(name, "-", " "), -1)
	for _, id := range ids {
		model := id[strings.LastIndex(id, "-")+1:]
		for _, tk := range tokens {
			if tk == model || strings.TrimPrefix(tk, "gx") == strings.TrimPrefix(model, "gx") && strings.HasPrefix(model, "gx") {
				return id, fmt.Sprintf("the device name %q names %s", info.Name, id)
			}
		}
	}
	prefix := ""
	switch {
	case strings.Contains(name, "mali") && regexp.MustCompile(`\bg[0-9]`).MatchString(strings.ReplaceAll(name, "-", " ")):
		prefix = "mali-g"
	case strings.Contains(name, "mali"):
		prefix = "mali-t"
	case strings.Contains(name, "adreno"):
		prefix = "adreno-"
	case strings.Contains(name, "powervr") || strings.Contains(name, "imagination"):
		prefix = "powervr-"
	}
	if prefix != "" {
		num := -1
		for _, tk := range tokens {
			if n, err := strconv.Atoi(strings.TrimLeft(tk, "abcdefghijklmnopqrstuvwxyz")); err == nil {
				num = n
				break
			}
		}
		best, bestD := "", math.MaxFloat64
		for _, id := range ids {
			if !strings.HasPrefix(id, prefix) {
				continue
			}
			d := 0.0
			if num >= 0 {
				n, _ := strconv.Atoi(strings.TrimLeft(id[len(prefix):], "abcdefghijklmnopqrstuvwxyz"))
				d = math.Abs(float64(n - num))
			}
			if d < bestD {
				best, bestD = id, d
			}
		}
		if best != "" {
			return best, fmt.Sprintf("the device name %q is of %s's family; %s is the nearest model", info.Name, best, best)
		}
	}
	best, bestD := "mali-g52", math.MaxFloat64
	for _, g := range arch.Presets() {
		for _, w := range g.WarpSizes {
			d := math.Abs(math.Log2(float64(max(warp, 1))) - math.Log2(float64(w)))
			if d < bestD {
				best, bestD = g.ID, d
			}
		}
	}
	return best, fmt.Sprintf("the device name %q names no family pocketgpu models; %s has the warp width nearest the measured %d", info.Name, best, warp)
}

// Hierarchy is the probe's cache levels as the description's sections.
type Hierarchy struct {
	L1, L2, SLC *probe.Level
	Unplaced    []probe.Level // levels beyond those the base has
}

// Place assigns the measured cache levels (all but the last, memory) to
// the base's sections in order: L1 if the base has a cache on the load
// path, then L2, then the SLC if the base has one. Which level is which
// comes from the family's layout; the sizes come from the measurement.
func Place(lv []probe.Level, base *arch.GPU) Hierarchy {
	var h Hierarchy
	caches := lv
	if len(caches) > 0 {
		caches = caches[:len(caches)-1]
	}
	slots := []**probe.Level{}
	if base.L1 != nil {
		slots = append(slots, &h.L1)
	}
	slots = append(slots, &h.L2)
	if base.SLC != nil {
		slots = append(slots, &h.SLC)
	}
	for i := range caches {
		if i < len(slots) {
			*slots[i] = &caches[i]
		} else {
			h.Unplaced = append(h.Unplaced, caches[i])
		}
	}
	return h
}

// KiB rounds a measured size to whole KiB that hold whole sets of slices ×
// line × ways (the schema requires it).
func KiB(bytes, line, ways, slices int) int {
	unit := lcm(max(line, 1)*max(ways, 1)*max(slices, 1), 1024)
	n := int(math.Round(float64(bytes)/float64(unit))) * unit
	return max(n, unit) / 1024
}

// off is how far KiB moves a size, as a fraction.
func off(bytes, line, ways, slices int) float64 {
	return math.Abs(float64(KiB(bytes, line, ways, slices)*1024-bytes)) / float64(bytes)
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// YAML writes the description: base, name and clock, then each placed
// cache level's size, line and ways; the rest of what was measured goes in
// comments (the schema's rates are per pipe and lane, which a black-box
// probe cannot separate).
func YAML(res *probe.Result, baseID, why string) ([]byte, error) {
	base, err := arch.Lookup(baseID)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	in := res.Device
	fmt.Fprintf(&b, "# Measured by `pocketgpu probe` on %s (%s): docs/probe.md says how.\n", in.Name, in.Platform)
	fmt.Fprintf(&b, "# base: %s.\n", why)
	fmt.Fprintf(&b, "base: %s\n", baseID)
	fmt.Fprintf(&b, "name: %q\n", in.Name+" (probed)")
	fmt.Fprintf(&b, "clock_mhz: {value: %d, source: \"probe: CL_DEVICE_MAX_CLOCK_FREQUENCY\"}\n", in.ClockMHz)
	if res.WarpWidth > 0 {
		fmt.Fprintf(&b, "# warp width measured: %d (divergence test); the base's warp sizes are %v", res.WarpWidth, base.WarpSizes)
		if !containsInt(base.WarpSizes, res.WarpWidth) {
			b.WriteString(" — they differ, and the warp width is tied to the base's lanes and engines, so it is not overridden")
		}
		b.WriteString("\n")
	}
	if res.Caches != nil {
		h := Place(res.Caches.Levels, base)
		section := func(key string, lv *probe.Level, baseLine, baseWays, slices int) {
			if lv == nil {
				return
			}
			line, ways := lv.LineBytes, lv.Ways
			if line == 0 {
				line = baseLine
			}
			waysNote := ""
			switch {
			case ways == 0:
				ways, waysNote = baseWays, " (ways not measured: the base's)"
			case off(lv.SizeBytes, line, ways, slices) > 0.03 && off(lv.SizeBytes, line, baseWays, slices) < off(lv.SizeBytes, line, ways, slices):
				// Whole sets of the measured ways would move the size
				// more than the measurement is off (a busy run's 11 ways
				// of a 48 KiB cache); the base's ways move it less.
				waysNote = fmt.Sprintf(" (%d ways measured do not make whole sets of it: the base's)", ways)
				ways = baseWays
			}
			fmt.Fprintf(&b, "%s:\n  source: \"probe: pointer chase, %.0f cycles a load%s\"\n  size_kib: %d\n", key, lv.Latency, waysNote, KiB(lv.SizeBytes, line, ways, slices))
			if lv.LineBytes > 0 {
				fmt.Fprintf(&b, "  line_bytes: %d\n", line)
			}
			if waysNote == "" {
				fmt.Fprintf(&b, "  ways: %d\n", ways)
			}
		}
		if base.L1 != nil {
			section("l1", h.L1, base.L1.LineBytes, base.L1.Ways, 1)
		}
		section("l2", h.L2, base.L2.LineBytes, base.L2.Ways, base.L2.Slices)
		if base.SLC != nil && h.SLC != nil {
			fmt.Fprintf(&b, "slc:\n  source: \"probe: pointer chase, %.0f ns a load\"\n  size_kib: %d\n", h.SLC.LatencyNS, KiB(h.SLC.SizeBytes, base.SLC.LineBytes, base.SLC.Ways, 1))
		}
		for _, u := range h.Unplaced {
			fmt.Fprintf(&b, "# a further level of %d KiB at %.0f cycles: the base has no section for it\n", u.SizeBytes/1024, u.Latency)
		}
		if n := len(res.Caches.Levels); n > 0 {
			fmt.Fprintf(&b, "# beyond the last cache the sweep found (memory, or a level past its reach): %.0f cycles (%.0f ns) a load\n", res.Caches.Levels[n-1].Latency, res.Caches.Levels[n-1].LatencyNS)
		}
	}
	if tl := res.Texture; tl != nil && len(tl.Levels) > 1 {
		lv := tl.Levels[0]
		line, ways := lv.LineBytes, lv.Ways
		if line == 0 {
			line = base.TextureCache.LineBytes
		}
		if ways == 0 {
			ways = base.TextureCache.Ways
		}
		fmt.Fprintf(&b, "texture_cache:\n  source: \"probe: read_imageui chase through an image1d_buffer, %.0f cycles a load\"\n  size_kib: %d\n  line_bytes: %d\n  ways: %d\n", lv.Latency, KiB(lv.SizeBytes, line, ways, 1), line, ways)
		fmt.Fprintf(&b, "# texture path beyond its first level: %.0f cycles a load\n", tl.Levels[1].Latency)
	} else if tl != nil {
		b.WriteString("# the texture-path chase found no cache level: texture_cache stays the base's\n")
	}
	if sw := res.Registers; sw != nil {
		writeRegisters(&b, sw, base)
	}
	for _, bw := range res.Bandwidth {
		fmt.Fprintf(&b, "# read bandwidth, %s (%d KiB): %.1f bytes per clock\n", bw.Level, bw.Footprint/1024, bw.BytesPerClock)
	}
	if res.Local != nil {
		fmt.Fprintf(&b, "# local memory: %.1f bytes per clock, conflict-free\n", res.Local.BytesPerClock)
	}
	if len(res.Rates) > 0 {
		b.WriteString("# rates measured, per clock GPU-wide:")
		rs := append([]probe.Rate(nil), res.Rates...)
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
		for _, r := range rs {
			if r.PerClock > 0 {
				fmt.Fprintf(&b, " %s %.1f;", r.Name, r.PerClock)
			}
		}
		b.WriteString("\n")
	}
	return []byte(b.String()), nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// writeRegisters writes the register sweep as comments, and the register
// file and allocation rule that reproduce it where they differ from the
// base's.
func writeRegisters(b *strings.Builder, sw *probe.RegisterSweep, base *arch.GPU) {
	if len(sw.Points) == 0 {
		return
	}
	first, last := sw.Points[0], sw.Points[len(sw.Points)-1]
	if len(sw.Steps) == 0 {
		fmt.Fprintf(b, "# register sweep: no occupancy steps from %d to %d live 32-bit values per work-item (%d to %d work-items resident): registers did not limit residency\n", first.Values, last.Values, first.Resident, last.Resident)
		return
	}
	fmt.Fprintf(b, "# register sweep (work-groups of %d): %d work-items resident up to %d live values", sw.WorkGroup, first.Resident, probe.BeforeFirstStep(sw))
	for _, st := range sw.Steps {
		fmt.Fprintf(b, "; %d from %d", st.Resident, st.Values)
	}
	b.WriteString("\n")
	fit, ok := FitRegisters(sw, base)
	if !ok {
		b.WriteString("# no register file and allocation rule on the base's cores, engines and warp widths gives these steps: not overridden\n")
		return
	}
	fmt.Fprintf(b, "# register file fitted to the steps: %d KiB per core, granule %d%s, %d warp slots per engine (the compiler adds about %d registers to the kernels' values)\n",
		fit.FileBytesPerCore/1024, fit.Granule, map[bool]string{true: " doubling", false: ""}[fit.Pow2], fit.WarpSlots, fit.Overhead)
	src := "source: \"probe: register sweep (occupancy steps)\""
	if fit.FileBytesPerCore != base.RegisterFileBytesPerCore() {
		if u := base.UnifiedStore; u != nil {
			fmt.Fprintf(b, "unified_store:\n  registers: {value: %d, %s}\n", fit.FileBytesPerCore/(u.Stores*u.RegisterBits/8), src)
		} else {
			fmt.Fprintf(b, "register_file_kib: {value: %d, %s}\n", fit.FileBytesPerCore/1024, src)
		}
	}
	if fit.Granule != base.RegisterGranule {
		fmt.Fprintf(b, "register_granule: {value: %d, %s}\n", fit.Granule, src)
	}
	if fit.Pow2 != base.RegisterAllocPow2 {
		fmt.Fprintf(b, "register_alloc_pow2: {value: %v, %s}\n", fit.Pow2, src)
	}
	if fit.WarpSlots != base.MaxWarpsPerEngine {
		fmt.Fprintf(b, "max_warps_per_engine: {value: %d, %s}\n", fit.WarpSlots, src)
	}
}
