package gfx

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Hardware is data: every number that describes a GPU (a rate, a size, a
// limit, a per-draw cost) comes from the GPU's description (arch: tiling,
// raster, command_processor, texture, ...), never from a Go constant in gfx.
// TestNoHardwareNumbersInGfx reads gfx's source and fails on a number that
// could be one: a package-level constant or variable initialised with a
// numeric literal (enumerations built on iota aside), or a literal in a
// function body, unless it is listed below with the reason it is not a
// GPU's parameter. In function bodies 0 and 1 are free (counts, identities,
// increments); every other value must be listed for the file it is in.
//
// The subpackages hold no GPU: gfx/layout's 16x16 block is the
// u-interleaved format's own rule (seed 002 §U-interleaved tiling), the
// same on every GPU that uses the format; gfx/scene, gfx/gltf and
// gfx/shaders are scenes, a file format and shaders.

// declAllowed are the package-level constants and variables that hold
// numbers, each with why it is not a hardware parameter.
var declAllowed = map[string]string{
	"frameCounters":          "the counter model's definitions of a frame's counters; its number is the part's rank among the reports' parts",
	"opChunk":                "the simulator's own storage: memory ops a chunk of a task's op list holds",
	"arenaChunk":             "the simulator's own storage: elements an arena chunk of recorded addresses holds",
	"MaxFrameSide":           "the renderer's own limit on a frame side (host memory); a GPU's is raster.max_framebuffer_width/height",
	"ClearColor":             "the scene's clear colour",
	"clearDepth":             "the depth buffer's clear value, the far plane of Vulkan's depth range",
	"colorBytes":             "the renderer's colour format, RGBA8: 4 bytes a pixel on every GPU",
	"depthBytes":             "the renderer's depth format, 32-bit: 4 bytes a pixel on every GPU",
	"positionBytes":          "a post-transform vertex's position as the shader writes it: a vec4 of float32",
	"varyingWordBytes":       "a varying word as the shader writes it: 32 bits",
	"subBits":                "the rasteriser's fixed-point format, one for every GPU so that every path and GPU gives the same image (the goldens compare them at tolerance 0)",
	"guardBand":              "the clipping guard band, sized to the rasteriser's fixed-point range",
	"exactCoverageMaxPixels": "bounds the simulator's own work in the sample-coverage test",
	"immediateCell":          "the heatmap cell of immediate mode, a presentation choice",
	"virtualBase":            "the base of the simulator's address map",
	"attrComps":              "component counts of the shader interface's vertex inputs (docs/rendering.md)",
	"ColorFormats":           "bytes per pixel of the attachment formats (format facts)",
	"DepthFormats":           "bytes per pixel of the depth/stencil formats (format facts)",
	"renderBaseBytes":        "host memory of the simulator itself, fitted to measurements",
	"renderBytesPerPixel":    "host memory of the simulator itself, fitted to measurements",
	"progressEvery":          "how often progress is reported to the user",
	"subOne":                 "one pixel in the rasteriser's fixed point (1 << subBits)",
	"attrPosition":           "a vertex input location of the shader interface (docs/rendering.md)",
	"attrNormal":             "a vertex input location of the shader interface",
	"attrTexCoord":           "a vertex input location of the shader interface",
	"attrColor":              "a vertex input location of the shader interface",
	"numAttrs":               "the number of vertex inputs of the shader interface",
	"bindingDraw":            "a resource binding of the shader interface (set 0 binding 0)",
	"bindingTexture":         "a resource binding of the shader interface (set 0 binding 1)",
	"bindingInput":           "a resource binding of the shader interface (set 0 binding 2)",
	"samplePositions":        "Vulkan's standard sample locations: the API's rule, the same on every GPU",
	"depthUnormBits":         "bits of the unorm depth formats (format facts)",
	"quadSide":               "a quad is 2x2 pixels: the rasteriser's unit",
	"bitsPerByte":            "units",
	"bytesPerKiB":            "units",
}

const (
	drawBlock = "offsets of the std140 Draw block's members (model 64, baseColor 128, lightDir 144, params 160 to 168, lightMvp 176): the shader interface"
	heat      = "colours, shades and sizes of the heatmap images: presentation"
)

// literalAllowed are the literals other than 0 and 1 each file may hold, by
// value, with why they are not hardware parameters.
var literalAllowed = map[string]map[string]string{
	"counters.go": {
		"100": "a fraction as a percentage",
	},

	"bins.go": {
		"2":    "the MSAA modes the bin layout accepts (1, 2, 4 samples)",
		"4":    "the MSAA modes the bin layout accepts (1, 2, 4 samples)",
		"1024": "KiB to bytes",
	},
	"cost.go": {
		"1e-9": "keeps a division finite for a Go-built GPU without a texture rate",
	},
	"frame.go": {
		"1e3": "MHz to cycles per millisecond",
		"1e6": "MHz to cycles per second",
	},
	"geometry.go": {
		"2":    "halves, quads of 2x2 and the second of three vertices",
		"3":    "a triangle's vertices; x, y, z",
		"4":    "vec4 components; bytes of a 32-bit word",
		"8":    "capacity hint for the vertices clipping adds (an eighth more)",
		"64":   drawBlock,
		"128":  drawBlock,
		"144":  drawBlock,
		"160":  drawBlock,
		"164":  drawBlock,
		"168":  drawBlock,
		"176":  drawBlock,
		"1024": "headroom of the simulator's post-transform buffer",
		"1e-6": "clip-space w below which a vertex is behind the eye (numerical guard)",
	},
	"heatmap.go": {
		"0.1": heat, "0.11": heat, "0.2": heat, "0.25": heat, "0.3": heat, "0.59": heat, "0.7": heat, "0.75": heat, "0.85": heat, "0.9": heat,
		"2": heat, "3": heat, "40": heat, "60": heat, "128": heat, "200": heat, "220": heat, "255": heat,
	},
	"memory.go": {
		"10":   "64<<10: the gap between allocations in the simulator's address map",
		"64":   "64<<10: the gap between allocations in the simulator's address map",
		"4095": "4 KiB rounding of the simulator's address map",
	},
	"raster.go": {
		"0.5": "pixel centres; rounding to nearest",
		"2":   "2x2 quads",
		"3":   "a triangle's vertices; RGB channels",
		"4":   "pixels of a quad; RGBA channels",
		"8":   "bits of an RGBA8 channel",
		"16":  "bit offset of an RGBA8 channel",
		"24":  "bit offset of an RGBA8 channel",
		"255": "the largest 8-bit channel value",
	},
	"render.go": {
		"2":    "2x2 quads: tiles are a whole number of quads",
		"3":    "RGB channels",
		"4":    "RGBA channels; bytes of a float32 attribute component or a 32-bit index",
		"8":    "bits per byte",
		"22":   "1<<22 warp instructions: the simulator's budget for one shader warp",
		"255":  "an opaque white texel",
		"0.25": "maxLod of a level-0-only sampler: Vulkan's emulation of a non-mipmapped minification filter",
		"16":   "bit offset of an RGBA8 channel",
		"24":   "bit offset of an RGBA8 channel",
	},
	"shader.go": {
		"3":  "vec3 attributes",
		"4":  "vec4 values; the 4 lanes of a quad",
		"32": "32-bit types of the shader interface",
	},
	"passes.go": {
		"4": "bytes of an RGBA8 texel or a float32 depth in a sampled attachment's image",
	},
	"tilelists.go": {
		"3":  "a triangle's vertices",
		"2":  "the two passes of a tiled frame (vertex and tiling, fragment)",
		"10": "64<<10: the gap after the polygon-list heap in the simulator's address map",
		"64": "64<<10: the gap after the polygon-list heap in the simulator's address map",
	},
}

// freeLiterals are allowed in function bodies: starts of sums and counts,
// increments, identities.
var freeLiterals = map[string]bool{"0": true, "0.0": true, "1": true, "1.0": true}

// numericLiteralFinding is a number scanHardwareNumbers reports.
type numericLiteralFinding struct {
	pos  string
	what string
}

// scanHardwareNumbers reports the numeric literals of src (a Go file named
// name) that the allowlists do not explain. seen collects the allowlisted
// (file, value) pairs and declarations it met.
func scanHardwareNumbers(fset *token.FileSet, name string, src any, seen map[string]bool) ([]numericLiteralFinding, error) {
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(name)
	var out []numericLiteralFinding
	literals := func(n ast.Node) (lits []*ast.BasicLit, iota bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.INT || n.Kind == token.FLOAT {
					lits = append(lits, n)
				}
			case *ast.Ident:
				iota = iota || n.Name == "iota"
			}
			return true
		})
		return lits, iota
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.CONST && d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				var lits []*ast.BasicLit
				enum := false
				for _, v := range vs.Values {
					l, io := literals(v)
					lits = append(lits, l...)
					enum = enum || io
				}
				if enum {
					continue // an enumeration (iota), not a quantity
				}
				if len(lits) == 0 {
					continue
				}
				for _, id := range vs.Names {
					if _, ok := declAllowed[id.Name]; ok {
						seen["decl "+id.Name] = true
						continue
					}
					out = append(out, numericLiteralFinding{fset.Position(id.Pos()).String(),
						fmt.Sprintf("package-level %s %s = %s: a hardware number belongs in the GPU's description; if it is not one, add it to declAllowed with the reason", d.Tok, id.Name, lits[0].Value)})
				}
			}
		case *ast.FuncDecl:
			lits, _ := literals(d)
			for _, l := range lits {
				if freeLiterals[l.Value] {
					continue
				}
				if _, ok := literalAllowed[base][l.Value]; ok {
					seen[base+" "+l.Value] = true
					continue
				}
				out = append(out, numericLiteralFinding{fset.Position(l.Pos()).String(),
					fmt.Sprintf("literal %s in %s: a hardware number belongs in the GPU's description; if it is not one, add it to literalAllowed[%q] with the reason", l.Value, d.Name.Name, base)})
			}
		}
	}
	return out, nil
}

func TestNoHardwareNumbersInGfx(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	scanned := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		scanned++
		found, err := scanHardwareNumbers(fset, name, nil, seen)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			t.Errorf("%s: %s", f.pos, f.what)
		}
	}
	if scanned < 10 {
		t.Fatalf("scanned %d files; the test must run in gfx's directory", scanned)
	}
	// An allowance nothing uses any more goes, so that the lists stay a
	// record of what is there.
	var stale []string
	for name := range declAllowed {
		if !seen["decl "+name] {
			stale = append(stale, "declAllowed "+name)
		}
	}
	for file, vals := range literalAllowed {
		for v := range vals {
			if !seen[file+" "+v] {
				stale = append(stale, fmt.Sprintf("literalAllowed[%q] %s", file, v))
			}
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		t.Errorf("%s is allowed but no longer in the source; remove it", s)
	}
}

// The scan finds what the old gfx held: named rates and sizes, and numbers
// written into the cost of a pass.
func TestHardwareNumberScanFindsConstants(t *testing.T) {
	src := `package gfx

const (
	tilerPrimsPerCycle = 1.0
	maxBinsPerPrim     = 4
	famMali            = iota
)

var gmemPageBytes = 4096

func (e Estimate) Commands(draws int) float64 { return float64(draws) * 50 }

func cost(w Work) float64 { return w.GMEMBytes / 32 }
`
	found, err := scanHardwareNumbers(token.NewFileSet(), "cost.go", src, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.what)
	}
	want := []string{"const tilerPrimsPerCycle = 1.0", "const maxBinsPerPrim = 4", "var gmemPageBytes = 4096", "literal 50 in Commands", "literal 32 in cost"}
	if len(found) != len(want) {
		t.Fatalf("found %d: %q; want %d", len(found), got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d is %q, want it to name %q", i, got[i], w)
		}
	}
}
