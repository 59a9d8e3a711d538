package describe

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/probe"
)

// Base reads the model from the device name, else the family, else the
// warp width.
func TestBase(t *testing.T) {
	for _, c := range []struct {
		name, vendor string
		warp         int
		want         string
	}{
		{"Mali-G52 MP2", "ARM", 8, "mali-g52"},
		{"QUALCOMM Adreno(TM) 640", "QUALCOMM", 128, "adreno-640"},
		{"PowerVR Rogue GX6250", "Imagination Technologies", 32, "powervr-gx6250"},
		{"Mali-T860 MP4", "ARM", 4, "mali-t860"},
		{"Mali-G710 MC10", "ARM", 16, "mali-g76"},
		{"QUALCOMM Adreno(TM) 660", "QUALCOMM", 64, "adreno-640"},
		{"Mali-T628 MP6", "ARM", 4, "mali-t720"},
		{"pthread-skylake-avx512-AMD EPYC", "AuthenticAMD", 32, "adreno-530"}, // the first preset with warps of 32
	} {
		got, why := Base(probe.Info{Name: c.name, Vendor: c.vendor}, c.warp)
		if got != c.want {
			t.Errorf("Base(%q, warp %d) = %s (%s), want %s", c.name, c.warp, got, why, c.want)
		}
	}
}

// FuzzBase: any device name gives a preset, without a panic.
func FuzzBase(f *testing.F) {
	f.Add("Mali-G52 MP2", "ARM", 8)
	f.Add("QUALCOMM Adreno(TM) 640", "QUALCOMM", 128)
	f.Add("", "", 0)
	f.Add("mali-g-", "\x00", -5)
	f.Fuzz(func(t *testing.T, name, vendor string, warp int) {
		id, _ := Base(probe.Info{Name: name, Vendor: vendor}, warp)
		if !slices.Contains(arch.PresetIDs(), id) {
			t.Fatalf("Base(%q) = %q, not a preset", name, id)
		}
	})
}

// KiB keeps a size a whole number of sets.
func TestKiB(t *testing.T) {
	for _, c := range []struct{ bytes, line, ways, slices, want int }{
		{16 << 10, 64, 4, 1, 16}, {16576, 64, 4, 1, 16}, {1157 << 10, 64, 8, 4, 1158}, {49600, 64, 12, 1, 48}, {100, 64, 4, 1, 1},
		{50112, 64, 10, 1, 50}, {996 << 10, 64, 16, 1, 996},
	} {
		if got := KiB(c.bytes, c.line, c.ways, c.slices); got != c.want {
			t.Errorf("KiB(%d, %d, %d, %d) = %d, want %d", c.bytes, c.line, c.ways, c.slices, got, c.want)
		}
	}
}

// A description written from odd measurements (a noisy run's 10 ways of
// a 49 KiB level, a level the base has no section for) still loads.
func TestYAMLLoadsOddMeasurements(t *testing.T) {
	res := &probe.Result{
		Device:    probe.Info{Name: "Some CPU", Platform: "PoCL", ClockMHz: 2096},
		WarpWidth: 1,
		Caches: &probe.CacheSweep{Levels: []probe.Level{
			{SizeBytes: 50112, LineBytes: 64, Ways: 11, Latency: 3},
			{SizeBytes: 996352, LineBytes: 64, Latency: 9},
			{SizeBytes: 3 << 20, LineBytes: 32, Ways: 7, Latency: 30},
			{Latency: 250},
		}},
	}
	for _, base := range []string{"mali-g31", "adreno-640", "powervr-gx6250"} {
		y, err := YAML(res, base, "a test")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "odd.yaml")
		if err := os.WriteFile(path, y, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := arch.Lookup(path)
		if err != nil {
			t.Errorf("base %s: %v\n%s", base, err, y)
			continue
		}
		// 11 ways would round 48.9 KiB to 55: the base's ways keep it.
		if g.L1 != nil && (g.L1.SizeKiB < 46 || g.L1.SizeKiB > 52) {
			t.Errorf("base %s: l1.size_kib %d for a 48.9 KiB level\n%s", base, g.L1.SizeKiB, y)
		}
	}
}
