package arch

import (
	"embed"
	"fmt"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pocketgpu/pocketgpu/internal/suggest"
)

// Every preset is one YAML file; the file name (without .yaml) is its id.
//
//go:embed presets/*.yaml
var presetFS embed.FS

// PresetIDs lists the ids of the embedded presets, sorted.
func PresetIDs() []string {
	entries, err := presetFS.ReadDir("presets")
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".yaml") && !e.IsDir() {
			ids = append(ids, strings.TrimSuffix(name, ".yaml"))
		}
	}
	sort.Strings(ids)
	return ids
}

// loadPreset parses the embedded preset id into a fresh GPU.
func loadPreset(id string, depth int) (*GPU, error) {
	data, err := presetFS.ReadFile(path.Join("presets", id+".yaml"))
	if err != nil {
		return nil, &UnknownGPUError{Name: id, Nearest: suggest.Nearest(id, PresetIDs(), 3)}
	}
	g, err := parse(data, parseOpts{file: "preset " + id, presetID: id, depth: depth})
	if err != nil {
		return nil, err
	}
	if g.ID != id {
		return nil, &ConfigError{File: "preset " + id, Path: "id", Msg: fmt.Sprintf("is %q but the file is %s.yaml", g.ID, id)}
	}
	return g, nil
}

// Presets returns every embedded preset, freshly parsed, sorted by id. A
// preset that fails to load (a defect caught by the package tests) is left
// out; Lookup on its id reports the error.
func Presets() []*GPU {
	var out []*GPU
	for _, id := range PresetIDs() {
		if g, err := loadPreset(id, 0); err == nil {
			out = append(out, g)
		}
	}
	return out
}

// numericIndex maps the numbers a GPU can be named by to preset ids:
// Panfrost GPU IDs (hexadecimal, as PAN_GPU_ID takes them) and freedreno
// Adreno numbers (decimal).
type numericIndex struct {
	panfrost map[int64]string
	adreno   map[int64]string
}

var (
	indexOnce sync.Once
	index     numericIndex
)

func numberIndex() numericIndex {
	indexOnce.Do(func() {
		index = numericIndex{panfrost: map[int64]string{}, adreno: map[int64]string{}}
		for _, g := range Presets() {
			if g.GPUID != 0 {
				index.panfrost[int64(g.GPUID)] = g.ID
			}
			if g.Adreno != nil && g.Adreno.GPUID != 0 {
				index.adreno[int64(g.Adreno.GPUID)] = g.ID
			}
		}
	})
	return index
}

// resolveID maps a preset id (any case, with or without the vendor prefix),
// a Panfrost GPU ID ("7212", "0x7212", "720") or an Adreno number ("640") to
// a preset id.
//
// Numbers are resolved only when numbers is true: the number index is built
// by parsing the presets, so presets themselves name their base by id.
func resolveID(name string, numbers bool) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return "", false
	}
	ids := PresetIDs()
	for _, id := range ids {
		if n == id {
			return id, true
		}
	}
	for _, id := range ids {
		if _, short, ok := strings.Cut(id, "-"); ok && n == short {
			return id, true
		}
	}
	if !numbers {
		return "", false
	}
	idx := numberIndex()
	hex := strings.TrimPrefix(n, "0x")
	if v, err := strconv.ParseInt(hex, 16, 64); err == nil {
		if id, ok := idx.panfrost[v]; ok {
			return id, true
		}
	}
	if !strings.HasPrefix(n, "0x") {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil {
			if id, ok := idx.adreno[v]; ok {
				return id, true
			}
		}
	}
	return "", false
}

// Lookup returns a fresh copy of the GPU called name: a preset id, a Panfrost
// GPU ID as drm-shim's PAN_GPU_ID takes it ("7212", "0x7212", "6221", "720",
// "860"), an Adreno number ("640"), or the path of a YAML file with
// `base: <preset>` and overrides.
func Lookup(name string) (*GPU, error) {
	if id, ok := resolveID(name, true); ok {
		return loadPreset(id, 0)
	}
	if looksLikeFile(name) {
		return Load(name)
	}
	return nil, &UnknownGPUError{Name: name, Nearest: suggest.Nearest(name, PresetIDs(), 3)}
}

func looksLikeFile(name string) bool {
	if strings.ContainsAny(name, `/\`) {
		return true
	}
	low := strings.ToLower(name)
	if strings.HasSuffix(low, ".yaml") || strings.HasSuffix(low, ".yml") {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && !st.IsDir()
}
