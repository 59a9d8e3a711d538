package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func renderJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"render", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	m := renderJSON(t, "--gpu", "mali-g52", "cube", "--width", "64", "--height", "48", "--frames", "2", "--out", dir)
	frames, ok := m["frames"].([]any)
	if !ok || len(frames) != 2 {
		t.Fatalf("frames: %v", m["frames"])
	}
	for i, f := range frames {
		if _, ok := f.(map[string]any)["passes"].([]any); !ok {
			t.Errorf("frame %d has no passes list", i)
		}
		fm := f.(map[string]any)["counters"].(map[string]any)
		for _, k := range []string{"cycles", "dram_read_bytes", "dram_write_bytes", "tiles_total", "tiles_written", "tiles_eliminated", "time_ms", "fps", "passes", "primitives_culled_back_face", "dram_read_texture_bytes", "texture_cache_hits"} {
			if _, ok := fm[k]; !ok {
				t.Errorf("frame %d has no %q", i, k)
			}
		}
		if fm["tiles_total"].(float64) != 12 {
			t.Errorf("frame %d: %v tiles, want 12 (4x3 of 16x16)", i, fm["tiles_total"])
		}
	}
	if f1 := frames[1].(map[string]any)["counters"].(map[string]any); f1["tiles_written"].(float64) != 0 || f1["tiles_eliminated"].(float64) != 12 {
		t.Errorf("static second frame: %v written, %v eliminated", f1["tiles_written"], f1["tiles_eliminated"])
	}
	for _, name := range []string{"frame-000.png", "frame-001.png", "heat-prims-000.png", "heat-cycles-001.png", "heat-te-001.png", "counters.json", "counters.csv"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if m["layout"] != "u-interleaved" || m["mode"] != "tiled" {
		t.Errorf("layout %v, mode %v", m["layout"], m["mode"])
	}

	// Text output, glTF scenes, Adreno, immediate mode and options.
	for _, args := range [][]string{
		{"--gpu", "mali-g52", "../../gfx/gltf/testdata/box.gltf", "--width", "48", "--height", "32"},
		{"--gpu", "adreno-640", "../../gfx/gltf/testdata/box.glb", "--width", "48", "--height", "32", "--camera-orbit", "30", "--frames", "2"},
		{"--gpu", "adreno-640", "ui", "--width", "48", "--height", "32", "--mode", "immediate", "--layout", "u-interleaved"},
		{"--gpu", "mali-g52", "cube", "--width", "48", "--height", "32", "--fs", "../../gfx/testdata/shaders/stripes.frag.spv"},
		{"--gpu", "powervr-gx6250", "spheres:2000", "--width", "48", "--height", "32", "--msaa", "2", "--color-load", "load", "--depth-load", "dont-care"},
		{"--gpu", "mali-t760", "shadows", "--width", "48", "--height", "32", "--msaa", "4", "--depth", "d16", "--store-depth", "--color-store", "dont-care"},
	} {
		code, out, errOut := runCLI(t, append(append([]string{"render"}, args...), "--out", t.TempDir())...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, want := range []string{"frame 0:", "geometry", "fragments", "attachments", "DRAM read", "DRAM write", "wrote"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	m = renderJSON(t, "--gpu", "adreno-640", "spheres:2000", "--width", "64", "--height", "48", "--out", t.TempDir())
	if f := m["frames"].([]any)[0].(map[string]any)["counters"].(map[string]any); f["passes"].(float64) != 1 || f["bins"].(float64) != 1 {
		t.Errorf("adreno one bin: passes %v, bins %v", f["passes"], f["bins"])
	}
	// The render-pass flags reach the main pass: four samples of RGBA8
	// and 24-bit depth, stored, in the shadows scene's three passes.
	m = renderJSON(t, "--gpu", "adreno-640", "shadows", "--width", "64", "--height", "48", "--msaa", "4", "--depth", "d24s8", "--store-depth", "--out", t.TempDir())
	f := m["frames"].([]any)[0].(map[string]any)["counters"].(map[string]any)
	if f["samples"].(float64) != 4 || f["render_passes"].(float64) != 3 || f["framebuffer_compression_ratio"].(float64) <= 1 {
		t.Errorf("shadows at 4x: samples %v, render passes %v, compression %v", f["samples"], f["render_passes"], f["framebuffer_compression_ratio"])
	}
	// The shadow map's depth (512x512x4), the main pass's 4 samples of
	// 4-byte depth and its colour (compressed) are stored.
	if s := f["attachment_store_bytes"].(float64); s < 512*512*4+64*48*4*4 {
		t.Errorf("shadows at 4x with depth stored: %v attachment bytes stored", s)
	}
}

func TestRenderCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.gltf")
	if err := os.WriteFile(broken, []byte(`{"asset": {"version": "2.0"}, "meshes": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The test model with its primitive mode changed to lines, and the
	// model without its texture file.
	copyModel := func(dir string, files ...string) {
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join("../../gfx/gltf/testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyModel(dir, "box.bin", "checker.png")
	doc, err := os.ReadFile("../../gfx/gltf/testdata/box.gltf")
	if err != nil {
		t.Fatal(err)
	}
	unsupported := filepath.Join(dir, "lines.gltf")
	if err := os.WriteFile(unsupported, []byte(strings.Replace(string(doc), `"mode": 5`, `"mode": 1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	notex := t.TempDir()
	copyModel(notex, "box.gltf", "box.bin")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--gpu", "mali-g52", "teapot"}, "unknown built-in scene"},
		{[]string{"--gpu", "mali-g52", filepath.Join(dir, "none.gltf")}, "cannot read the file"},
		{[]string{"--gpu", "mali-g52", broken}, "not a glTF 2.0 document"},
		{[]string{"--gpu", "mali-g52", unsupported}, "mode LINES is not supported"},
		{[]string{"--gpu", "mali-g52", filepath.Join(notex, "box.gltf")}, `cannot read "checker.png"`},
		{[]string{"--gpu", "mali-g52", "model.obj"}, "glTF 2.0"},
		{[]string{"--gpu", "mali-g52", "cube", "--fs", "../../gfx/testdata/shaders/mismatch.frag.spv"}, "shader interface mismatch"},
		{[]string{"--gpu", "mali-g52", "cube", "--vs", "../../gfx/testdata/shaders/noposition.vert.spv"}, "gl_Position"},
		{[]string{"--gpu", "mali-g52", "cube", "--fs", "shader.txt"}, "give SPIR-V (.spv) or GLSL (.frag)"},
		{[]string{"--gpu", "mali-g52", "cube", "--fs", filepath.Join(dir, "none.spv")}, "none.spv"},
		{[]string{"--gpu", "mali-g52", "cube", "--width", "20000"}, "over mali-g52's limit of 16384"},
		{[]string{"--gpu", "adreno-640", "cube", "--height", "0"}, "at least 1"},
		{[]string{"--gpu", "mali-g52", "cube", "--frames", "0"}, "--frames 0"},
		{[]string{"--gpu", "mali-g52", "cube", "--mode", "deferred"}, "--mode"},
		{[]string{"--gpu", "mali-g52", "cube", "--layout", "tiled"}, "--layout"},
		{[]string{"--gpu", "mali-g52", "cube", "--msaa", "3"}, "--msaa 3: 1, 2 or 4"},
		{[]string{"--gpu", "mali-g52", "cube", "--msaa", "0"}, "--msaa 0"},
		{[]string{"--gpu", "mali-g52", "cube", "--depth", "d15"}, `depth format "d15" is not known (d16, d24s8, d32f, d32fs8, none)`},
		{[]string{"--gpu", "mali-g52", "cube", "--depth", "s8"}, "does not model stencil"},
		{[]string{"--gpu", "mali-g52", "cube", "--color-load", "keep"}, `--color-load: unknown load action "keep" (clear, load, dont-care)`},
		{[]string{"--gpu", "mali-g52", "cube", "--depth-load", "store"}, "--depth-load"},
		{[]string{"--gpu", "mali-g52", "cube", "--color-store", "clear"}, `--color-store: unknown store action "clear" (store, dont-care)`},
		{[]string{"--gpu", "mali-g5", "cube"}, "nearest presets"},
		{[]string{"cube"}, `required flag(s) "gpu"`},
		{[]string{"--gpu", "mali-g52"}, "accepts 1 arg"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append(append([]string{"render"}, tt.args...), "--out", t.TempDir())...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}
