package probe

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/oclref"
)

// cpuCaches is the truth for the PoCL test: the L1 data and L2 sizes of
// CPU 0, as lscpu reports them, else sysfs, else getconf (glibc reads
// them from CPUID; on this project's VM lscpu and sysfs have nothing).
func cpuCaches(t *testing.T) (l1d, l2 int, from string) {
	t.Helper()
	if out, err := exec.Command("lscpu", "-C=NAME,ONE-SIZE", "-B", "--noheadings").Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 {
				n, _ := strconv.Atoi(f[1])
				switch f[0] {
				case "L1d":
					l1d = n
				case "L2":
					l2 = n
				}
			}
		}
		if l1d > 0 && l2 > 0 {
			return l1d, l2, "lscpu"
		}
	}
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		read := func(f string) string { b, _ := os.ReadFile(filepath.Join(d, f)); return strings.TrimSpace(string(b)) }
		sz := read("size")
		n, err := strconv.Atoi(strings.TrimSuffix(sz, "K"))
		if err != nil {
			continue
		}
		if strings.HasSuffix(sz, "K") {
			n *= 1024
		}
		switch lv, typ := read("level"), read("type"); {
		case lv == "1" && typ == "Data":
			l1d = n
		case lv == "2":
			l2 = n
		}
	}
	if l1d > 0 && l2 > 0 {
		return l1d, l2, "sysfs"
	}
	get := func(name string) int {
		out, err := exec.Command("getconf", name).Output()
		if err != nil {
			return 0
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return n
	}
	return get("LEVEL1_DCACHE_SIZE"), get("LEVEL2_CACHE_SIZE"), "getconf"
}

// TestPoCLCaches probes this machine's CPU through PoCL and finds its L1
// data cache within 10% of what the system reports, and its L2 between 30%
// under and 10% over. The L2 is physically indexed: the chase's 4 KiB pages
// land on random frames, so the sets of the most crowded page colour
// overflow before the whole cache is full, and the knee comes early by an
// amount that changes with each try's frames (on this project's VM, 794 to
// 882 KiB of 1 MiB in one CI run, all three tries). The L1d is indexed
// within a page and has no such spread. One work-item
// chases (global size 1), so one core's caches are measured.
func TestPoCLCaches(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the PoCL probe (about 20 s of timed runs) in -short mode")
	}
	b, err := OpenICD("portable computing language", "")
	if err != nil {
		if errors.Is(err, oclref.ErrUnavailable) || errors.Is(err, oclref.ErrNoMatch) {
			t.Skipf("skipping: %v", err)
		}
		t.Fatal(err)
	}
	defer b.Close()
	l1d, l2, from := cpuCaches(t)
	if l1d == 0 || l2 == 0 {
		t.Skip("skipping: neither lscpu, sysfs nor getconf gives this CPU's cache sizes")
	}
	// A neighbour on the same core takes cache from the chase and only
	// ever makes a level look smaller, so on a shared machine a probe is
	// tried up to three times; one try must find both levels in bounds.
	var failures []string
	for try := 1; try <= 3; try++ {
		failures = probeCPUCaches(t, b, l1d, l2, from)
		if len(failures) == 0 {
			return
		}
		t.Logf("try %d: %s", try, strings.Join(failures, "; "))
	}
	t.Error(strings.Join(failures, "; "))
}

// probeCPUCaches probes the CPU's caches once and says how the first two
// levels miss the system's sizes (nothing when both are in bounds).
func probeCPUCaches(t *testing.T, b Backend, l1d, l2 int, from string) []string {
	t.Helper()
	o := DeviceOptions()
	o.Skip = Skip{Rates: true, Warp: true, Registers: true, Texture: true}
	res, err := Run(b, o)
	if err != nil {
		t.Fatal(err)
	}
	lv := res.Caches.Levels
	var sweep []string
	for _, pt := range res.Caches.Footprint {
		sweep = append(sweep, fmt.Sprintf("%.0fK:%.1f", pt.X/1024, pt.Y))
	}
	t.Logf("sweep (footprint: cycles): %s", strings.Join(sweep, " "))
	for i, l := range lv {
		t.Logf("level %d: %d bytes, line %d, ways %d, %.1f cycles", i+1, l.SizeBytes, l.LineBytes, l.Ways, l.Latency)
	}
	if len(lv) < 3 {
		return []string{fmt.Sprintf("found %d levels, want L1d, L2 and what lies beyond", len(lv))}
	}
	var failures []string
	for _, c := range []struct {
		name      string
		got, want int
		under     float64 // how far under the size the knee may come
	}{{"L1d", lv[0].SizeBytes, l1d, 0.1}, {"L2", lv[1].SizeBytes, l2, 0.3}} {
		off := float64(c.got-c.want) / float64(c.want)
		t.Logf("%s: probed %d bytes, %s says %d (%+.1f%%)", c.name, c.got, from, c.want, 100*off)
		if off > 0.1 || off < -c.under {
			failures = append(failures, fmt.Sprintf("%s: probed %d bytes, %s says %d (%+.1f%%, bounds -%.0f%% to +10%%)", c.name, c.got, from, c.want, 100*off, 100*c.under))
		}
	}
	return failures
}
