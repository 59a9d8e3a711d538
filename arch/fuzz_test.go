package arch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the user-file parser: it must return a
// GPU or a typed error, never panic, and whatever it accepts must support
// every query without panicking.
func FuzzParse(f *testing.F) {
	for _, id := range PresetIDs() {
		data, err := presetFS.ReadFile("presets/" + id + ".yaml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "my-g52.yaml")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data, "fuzz.yaml")
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("parsed GPU does not validate: %v", err)
		}
		_ = g.Params()
		_ = g.Derived().Items()
		for _, class := range OpClasses {
			for _, w := range g.WarpSizes {
				g.IssueCycles(class, w, 3)
			}
		}
		for _, q := range []OccupancyQuery{
			{Regs: 1}, {Regs: g.MaxRegistersPerThread},
			{Regs: 7, WorkgroupSize: 1}, {Regs: 7, WorkgroupSize: g.MaxWorkgroupSize, Barrier: true},
			{Regs: 3, WorkgroupSize: 5, LocalBytes: 100},
		} {
			o, err := g.Occupancy(q)
			var qe *QueryError
			if err != nil && !errors.As(err, &qe) {
				t.Fatalf("untyped occupancy error %T: %v", err, err)
			}
			if err == nil && (o.ResidentThreads < 0 || o.ResidentThreadsPerCore > o.MaxThreadsPerCore) {
				t.Fatalf("occupancy out of bounds: %+v", o)
			}
		}
	})
}

// Every preset file also parses as a user file (presets are valid YAML
// descriptions in the same format users write).
func TestPresetFilesParseAsUserFiles(t *testing.T) {
	for _, id := range PresetIDs() {
		data, _ := presetFS.ReadFile("presets/" + id + ".yaml")
		g, err := Parse(data, id+".yaml")
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if g.ID != id {
			t.Errorf("%s: id %s", id, g.ID)
		}
	}
}
