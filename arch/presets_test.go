package arch

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A source is a seed section or an assumption with its reason.
var sourceRE = regexp.MustCompile(`^(seed 00[0-4] §\S.*|assumed: \S.*)$`)

func TestPresetsLoadAndCiteSources(t *testing.T) {
	ids := PresetIDs()
	want := []string{
		"adreno-530", "adreno-615", "adreno-640", "adreno-730",
		"mali-g31", "mali-g51", "mali-g52", "mali-g72", "mali-g76",
		"mali-t720", "mali-t760", "mali-t820", "mali-t830", "mali-t860", "mali-t880",
		"powervr-gx6250",
	}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("PresetIDs = %v, want %v", ids, want)
	}
	for _, id := range ids {
		g, err := Lookup(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if g.ID != id {
			t.Errorf("%s: ID %q", id, g.ID)
		}
		for _, p := range g.Params() {
			if !sourceRE.MatchString(p.Source) {
				t.Errorf("%s: %s has source %q; want `seed 00N §Section ...` or `assumed: reason`", id, p.Path, p.Source)
			}
			if p.Doc == "" {
				t.Errorf("%s: %s has no doc", id, p.Path)
			}
		}
	}
	if got := len(Presets()); got != len(want) {
		t.Errorf("Presets() returned %d GPUs, want %d", got, len(want))
	}
}

// Presets that start from another preset must still set the numbers of their
// own configuration rather than inherit another SoC's.
func TestDerivedPresetsSetTheirOwnConfiguration(t *testing.T) {
	own := []string{"name", "soc", "cores", "clock_mhz", "l2.size_kib", "dram.type", "dram.bus_bits", "dram.transfer_mts"}
	for _, g := range Presets() {
		if g.Base == "" {
			continue
		}
		for _, p := range own {
			if s := g.Source(p); strings.HasPrefix(s, "assumed: as "+g.Base) {
				t.Errorf("%s inherits %s from %s (%q); set it for this configuration", g.ID, p, g.Base, s)
			}
		}
		if g.Family == Midgard || g.Family == Bifrost {
			if s := g.Source("gpu_id"); strings.HasPrefix(s, "assumed: as ") {
				t.Errorf("%s inherits gpu_id from %s", g.ID, g.Base)
			}
		}
	}
}

func TestNumericIDsAreUnambiguous(t *testing.T) {
	seen := map[string]string{}
	for _, g := range Presets() {
		var names []string
		if g.GPUID != 0 {
			names = append(names, "panfrost:"+strings.ToLower(strings.TrimPrefix(hexOf(g.GPUID), "0x")))
		}
		if g.Adreno != nil {
			names = append(names, "adreno:"+itoa(g.Adreno.GPUID))
		}
		for _, n := range names {
			if other, dup := seen[n]; dup {
				t.Errorf("%s and %s both claim %s", other, g.ID, n)
			}
			seen[n] = g.ID
		}
	}
	// A Panfrost ID read as hex must never equal an Adreno number read as
	// decimal for a different GPU (e.g. "720" is Mali-T720, not an Adreno).
	for _, g := range Presets() {
		if g.Adreno == nil {
			continue
		}
		id, ok := resolveID(itoa(g.Adreno.GPUID), true)
		if !ok || id != g.ID {
			t.Errorf("%d resolves to %q, want %s", g.Adreno.GPUID, id, g.ID)
		}
	}
}

func TestLookupForms(t *testing.T) {
	tests := []struct{ name, want string }{
		{"mali-g52", "mali-g52"},
		{"MALI-G52", "mali-g52"},
		{"g52", "mali-g52"},
		{"7212", "mali-g52"},
		{"0x7212", "mali-g52"},
		{"0X7212", "mali-g52"},
		{"6221", "mali-g72"},
		{"0x6221", "mali-g72"},
		{"720", "mali-t720"},
		{"860", "mali-t860"},
		{"750", "mali-t760"},
		{"7093", "mali-g31"},
		{"640", "adreno-640"},
		{"615", "adreno-615"},
		{"gx6250", "powervr-gx6250"},
		{" adreno-730 ", "adreno-730"},
		{"testdata/my-g52.yaml", "my-g52"},
	}
	for _, tt := range tests {
		g, err := Lookup(tt.name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", tt.name, err)
			continue
		}
		if g.ID != tt.want {
			t.Errorf("Lookup(%q) = %s, want %s", tt.name, g.ID, tt.want)
		}
	}
}

func TestLookupUnknownSuggestsNearest(t *testing.T) {
	tests := []struct {
		name    string
		nearest string
	}{
		{"mali-g53", "mali-g52"},
		{"adreno-650", "adreno-640"},
		{"powervr-gx6205", "powervr-gx6250"},
		{"0x9999", ""},
		{"", ""},
	}
	for _, tt := range tests {
		_, err := Lookup(tt.name)
		var ue *UnknownGPUError
		if !errors.As(err, &ue) {
			t.Errorf("Lookup(%q): error %v, want *UnknownGPUError", tt.name, err)
			continue
		}
		if len(ue.Nearest) == 0 || len(ue.Nearest) > 3 {
			t.Errorf("Lookup(%q): nearest %v, want 1-3 ids", tt.name, ue.Nearest)
		}
		if tt.nearest != "" && !strings.Contains(strings.Join(ue.Nearest, " "), tt.nearest) {
			t.Errorf("Lookup(%q): nearest %v, want %s among them", tt.name, ue.Nearest, tt.nearest)
		}
		if !strings.Contains(err.Error(), "nearest presets") {
			t.Errorf("Lookup(%q): message %q lacks suggestions", tt.name, err)
		}
	}
}

func TestLookupMissingFile(t *testing.T) {
	_, err := Lookup("testdata/no-such-gpu.yaml")
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.File != "testdata/no-such-gpu.yaml" || !strings.Contains(ce.Msg, "cannot read") {
		t.Fatalf("got %v, want a ConfigError naming the file", err)
	}
}

func hexOf(v int) string { return "0x" + strconv.FormatInt(int64(v), 16) }
func itoa(v int) string  { return strconv.Itoa(v) }
