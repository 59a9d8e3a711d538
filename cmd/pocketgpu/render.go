package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/gfx"
	"github.com/pocketgpu/pocketgpu/gfx/gltf"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/report"
)

func init() { subcommands = append(subcommands, newRenderCmd) }

// maxFrames bounds --frames.
const maxFrames = 1000

type renderFlags struct {
	gpu, mode, vs, fs, out, layout string
	compute, computePriority       string
	width, height, frames          int
	orbit                          float64
	asJSON                         bool
	trace                          traceFlags
	// The main pass's attachments.
	msaa                         int
	depth, colorLoad, colorStore string
	depthLoad                    string
	storeDepth                   bool
	// html is where --html writes the frames' report page ("" none).
	html string
}

func newRenderCmd() *cobra.Command {
	var rf renderFlags
	var sceneHelp strings.Builder
	for _, n := range scene.BuiltinNames() {
		fmt.Fprintf(&sceneHelp, "  %-8s %s\n", n, scene.BuiltinDoc(n))
	}
	cmd := &cobra.Command{
		Use:   "render --gpu GPU SCENE [--width W --height H] [--frames N] [--camera-orbit DEG] [--mode tiled|immediate] [--msaa N] [--depth FORMAT] [--store-depth] [--color-load|--depth-load clear|load|dont-care] [--color-store store|dont-care] [--vs S.spv --fs S.spv] [--out DIR] [--json]",
		Short: "Render a scene the way a tile-based GPU does and count what it costs",
		Long: `render draws a scene on a GPU as its description's tiling says — tile_lists
(Mali): polygon lists (hierarchical where tiling.hierarchical), per-tile
shading in the tile buffer, transaction elimination, u-interleaved
write-back; gmem_bins (Adreno): a binning pass, one pass per GMEM bin,
resolves (or direct rendering when the attachments do not fit) — or, with --mode
immediate, as an immediate-mode renderer whose colour and depth traffic goes
through L2 to DRAM. Shaders run on the functional executor in warps of the
GPU's width; tiled and immediate rendering give the same image.

SCENE is a glTF 2.0 file (.gltf with its buffers and images, or .glb) or a
built-in scene:

` + sceneHelp.String() + `
A frame is a list of render passes (one, or the scene's: shadows has a
shadow map, a main pass and a post-process pass). --msaa, --depth and the
load and store flags set the main pass's attachments: 2 or 4 samples per
pixel resolved on chip (tile buffer, GMEM) or through memory (immediate
mode); the depth format (` + gfx.RenderDepthFormats() + `; d32f by default);
whether colour and depth are loaded from memory, cleared or left undefined
at each tile's start, and stored or dropped at its end (depth is dropped
unless --store-depth or a later pass samples it). Frame-buffer compression
(AFBC, UBWC) and hidden-surface removal follow the GPU's description.

The default shaders are pocketgpu's own (gfx/shaders); --vs and --fs take
SPIR-V (or .vert/.frag GLSL, compiled with glslangValidator) following the
interface in docs/rendering.md. Every frame is written to DIR as
frame-NNN.png with three heatmaps (heat-prims: primitives per tile,
heat-cycles: fragment cycles per tile, heat-te: tiles written in red and
eliminated by CRC in green) and counters.json. Counters are explained in
docs/counters.md. GPU is ` + gpuArgHelp + `.`,
		Example: `  pocketgpu render --gpu mali-g52 spheres --frames 2
  pocketgpu render --gpu adreno-640 examples/box.glb --width 1920 --height 1080 --camera-orbit 5 --frames 3 --json
  pocketgpu render --gpu mali-g52 ui --frames 4 --mode immediate --out ui-imm
  pocketgpu render --gpu adreno-640 spheres --msaa 4 --depth d24s8 --store-depth
  pocketgpu render --gpu powervr-gx6250 shadows --msaa 2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := rf.trace.check(cmd); err != nil {
				return err
			}
			return runRender(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], rf)
		},
	}
	f := cmd.Flags()
	addGPUFlag(cmd, &rf.gpu)
	f.IntVar(&rf.width, "width", 960, "frame width in pixels")
	f.IntVar(&rf.height, "height", 540, "frame height in pixels")
	f.IntVar(&rf.frames, "frames", 1, fmt.Sprintf("frames to render (1 to %d)", maxFrames))
	f.Float64Var(&rf.orbit, "camera-orbit", 0, "degrees the camera turns about the scene per frame (perspective scenes)")
	f.StringVar(&rf.mode, "mode", "tiled", "tiled (the GPU's own way) or immediate (the baseline)")
	f.StringVar(&rf.vs, "vs", "", "vertex shader (.spv, or .vert GLSL)")
	f.StringVar(&rf.fs, "fs", "", "fragment shader (.spv, or .frag GLSL)")
	f.StringVar(&rf.out, "out", "render-out", "directory for the frames, heatmaps and counters.json")
	f.StringVar(&rf.layout, "layout", "", "colour-buffer layout in memory: u-interleaved or linear (default: the GPU's tiling.framebuffer_layout, u-interleaved on Mali)")
	f.BoolVar(&rf.asJSON, "json", false, "print the counters as JSON")
	f.StringVar(&rf.html, "html", "", "also write a self-contained report page to DIR/index.html: each frame, its cycles heatmap and counters, a column per frame")
	f.StringVar(&rf.compute, "compute", "", "a job file (as `run` takes) whose kernel is submitted with the first frame and runs beside it")
	f.StringVar(&rf.computePriority, "compute-priority", "low", "low: the compute goes to the low-priority queue (Adreno's LPAC) where the GPU has one; normal: the compute queue")
	f.IntVar(&rf.msaa, "msaa", 1, "samples per pixel of the main pass: 1, 2 or 4")
	f.StringVar(&rf.depth, "depth", gfx.DefaultDepthFormat, "the main pass's depth format: "+gfx.RenderDepthFormats())
	f.BoolVar(&rf.storeDepth, "store-depth", false, "write the main pass's depth back to memory (store action store; by default it is dropped)")
	f.StringVar(&rf.colorLoad, "color-load", "clear", "the main pass's colour load action: clear, load or dont-care")
	f.StringVar(&rf.depthLoad, "depth-load", "clear", "the main pass's depth load action: clear, load or dont-care")
	f.StringVar(&rf.colorStore, "color-store", "store", "the main pass's colour store action: store or dont-care")
	addTraceFlags(cmd, &rf.trace, runInterval)
	nameArgs(cmd, "gpu", "GPU", "width", "PIXELS", "height", "PIXELS", "frames", "N", "camera-orbit", "DEGREES", "mode", "MODE", "vs", "FILE", "fs", "FILE", "out", "DIR", "layout", "LAYOUT",
		"msaa", "SAMPLES", "depth", "FORMAT", "color-load", "ACTION", "depth-load", "ACTION", "color-store", "ACTION", "compute", "JOB.yaml", "compute-priority", "PRIORITY")
	return cmd
}

// loadScene reads a glTF file or makes a built-in scene.
func loadScene(spec string) (*scene.Scene, error) {
	ext := strings.ToLower(filepath.Ext(spec))
	if ext == ".gltf" || ext == ".glb" {
		s, err := gltf.Load(spec)
		if err != nil {
			return nil, badInput(err)
		}
		return s, nil
	}
	if ext != "" && strings.ContainsAny(spec, `/\`) || ext == ".obj" || ext == ".fbx" || ext == ".dae" {
		return nil, badInputf("scene %q: pocketgpu reads glTF 2.0 (.gltf or .glb) files and the built-in scenes %s", spec, strings.Join(scene.BuiltinNames(), ", "))
	}
	s, err := scene.Builtin(spec)
	if err != nil {
		return nil, badInput(err)
	}
	return s, nil
}

// loadShaderFile reads SPIR-V or compiles GLSL.
func loadShaderFile(path, want string) ([]byte, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".spv" && ext != want {
		return nil, badInputf("shader %s: give SPIR-V (.spv) or GLSL (%s)", path, want)
	}
	b, err := kernel.Load(path, kernel.Options{})
	if err != nil {
		var crash *kernel.ToolCrashError
		if errors.As(err, &crash) {
			return nil, err
		}
		return nil, badInput(err)
	}
	return b, nil
}

func renderOptions(g *arch.GPU, rf renderFlags) (gfx.Options, error) {
	opt := gfx.Options{Width: rf.width, Height: rf.height, OrbitDeg: rf.orbit, DepthFormat: rf.depth}
	var err error
	if opt.Mode, err = gfx.ParseMode(rf.mode); err != nil {
		return opt, badInputf("--mode: %v", err)
	}
	if rf.msaa != 1 && rf.msaa != 2 && rf.msaa != 4 {
		return opt, badInputf("--msaa %d: 1, 2 or 4 samples per pixel", rf.msaa)
	}
	opt.MSAA = rf.msaa
	if opt.ColorLoad, err = gfx.ParseLoadOp(rf.colorLoad); err != nil {
		return opt, badInputf("--color-load: %v", err)
	}
	if opt.DepthLoad, err = gfx.ParseLoadOp(rf.depthLoad); err != nil {
		return opt, badInputf("--depth-load: %v", err)
	}
	if opt.ColorStore, err = gfx.ParseStoreOp(rf.colorStore); err != nil {
		return opt, badInputf("--color-store: %v", err)
	}
	if rf.storeDepth {
		opt.DepthStore = gfx.StoreStore
	}
	if rf.layout != "" {
		if opt.Layout, err = layout.Parse(rf.layout); err != nil {
			return opt, badInputf("--layout: %v", err)
		}
		opt.LayoutSet = true
	}
	if rf.vs != "" {
		if opt.VS, err = loadShaderFile(rf.vs, ".vert"); err != nil {
			return opt, err
		}
		opt.VSName = rf.vs
	}
	if rf.fs != "" {
		if opt.FS, err = loadShaderFile(rf.fs, ".frag"); err != nil {
			return opt, err
		}
		opt.FSName = rf.fs
	}
	return opt, nil
}

// planCompute plans a job file's kernel on g for --compute: compiled as
// g's driver would, its arguments bound, ready to run beside a frame.
func planCompute(ctx context.Context, stderr io.Writer, g *arch.GPU, path, priority string) (gfx.ComputeJob, error) {
	var cj gfx.ComputeJob
	switch priority {
	case "low":
		cj.LowPriority = true
	case "normal":
	default:
		return cj, badInputf("--compute-priority %q: low or normal", priority)
	}
	j, err := loadJob(path)
	if err != nil {
		return cj, err
	}
	if len(j.Global) == 0 {
		return cj, badInputf("%s: no global size (global: X[,Y[,Z]])", path)
	}
	spv, err := kernel.Load(j.Kernel, kernel.Options{Defines: j.Defines, IncludeDirs: j.Includes, NoFP64: !g.HasFP64(), Warnings: stderr})
	if err != nil {
		return cj, kernelLoadError(err)
	}
	dev := device.Open(g)
	k, err := dev.Load(spv, j.Entry, device.LoadOptions{Spec: j.Spec})
	if err != nil {
		return cj, runError(err)
	}
	specs := make([]kernel.Arg, len(j.Args))
	data := make([][]byte, len(j.Args))
	for i, a := range j.Args {
		if specs[i], err = kernel.ParseArg(a); err != nil {
			return cj, badInputf("%s: argument %d: %v", path, i, err)
		}
		if data[i], err = specs[i].Materialize(j.dir); err != nil {
			return cj, badInputf("%s: argument %d: %v", path, i, err)
		}
	}
	bound, err := dev.BindSpecs(k, specs, data)
	if err != nil {
		return cj, runError(err)
	}
	nd := device.NDRange{Dims: len(j.Global), Global: dims3(j.Global), Local: dims3(j.Local), Offset: dims3(j.Offset)}
	plan, err := dev.Prepare(k, nd, bound.Args, device.Options{WarpWidth: j.WarpWidth, MaxWarpInsts: j.MaxInstructions, Context: ctx})
	if err != nil {
		return cj, runError(err)
	}
	cj.Name, cj.Work = k.Name, plan
	return cj, nil
}

// renderReport is the JSON the command prints.
type renderReport struct {
	GPU    string        `json:"gpu"`
	Scene  string        `json:"scene"`
	Width  int           `json:"width"`
	Height int           `json:"height"`
	Mode   string        `json:"mode"`
	Layout string        `json:"layout"`
	Clock  float64       `json:"clock_mhz"`
	Files  []string      `json:"files"`
	Frames []renderFrame `json:"frames"`
	// Partial says why the render stopped early (Ctrl-C, the memory cap).
	Partial string `json:"partial,omitempty"`

	stats []gfx.FrameStats // the frames' figures for the text summary
	// figures are the frames and heatmaps for --html.
	figures []report.Figure
}

// renderFrame is one frame in the JSON: its counters (docs/counters.md,
// "Rendering") and each pass's cycles.
type renderFrame struct {
	Frame    int          `json:"frame"`
	Mode     string       `json:"mode"`
	Counters counters.Set `json:"counters"`
	Passes   []gfx.Pass   `json:"passes"`
	// Engine are the timing engine's counters over the frame (run's
	// kernel counters: issue, stalls, occupancy, memory).
	Engine counters.Set `json:"engine,omitempty"`
}

// renderSecondsPerPixel is what a frame costs the simulator per pixel, for
// the warning before a long render: the spheres scene at 4096x4096 took
// 41 s on the Mali-G52 and 35 s on the Adreno 640 on this project's 2-core
// VM (one core), about 2.4 us a pixel; busier scenes take longer.
const renderSecondsPerPixel = 2.4e-6

func runRender(ctx context.Context, out, stderr io.Writer, sceneArg string, rf renderFlags) error {
	g, err := resolveGPU(rf.gpu)
	if err != nil {
		return err
	}
	if rf.frames < 1 || rf.frames > maxFrames {
		return badInputf("--frames %d: 1 to %d frames", rf.frames, maxFrames)
	}
	opt, err := renderOptions(g, rf)
	if err != nil {
		return err
	}
	if rf.compute != "" {
		cj, err := planCompute(ctx, stderr, g, rf.compute, rf.computePriority)
		if err != nil {
			return err
		}
		opt.Compute = []gfx.ComputeJob{cj}
	}
	sc, err := loadScene(sceneArg)
	if err != nil {
		return err
	}
	if err := checkOutputDir("--out", rf.out); err != nil {
		return err
	}
	if rf.html != "" {
		if err := checkOutputDir("--html", rf.html); err != nil {
			return err
		}
	}
	what := fmt.Sprintf("a %dx%d render", rf.width, rf.height)
	if err := checkMemory(ctx, stderr, what, gfx.EstimateMemory(opt)); err != nil {
		return err
	}
	if secs := renderSecondsPerPixel * float64(rf.width) * float64(rf.height) * float64(rf.frames); secs >= 60 {
		fmt.Fprintf(stderr, "pocketgpu: %s of %d frame(s) takes about %s here. Progress follows; Ctrl-C stops and prints the frames finished.\n", what, rf.frames, formatDuration(secs))
	}
	tr, err := rf.trace.create("pocketgpu render " + sceneArg)
	if err != nil {
		return err
	}
	defer tr.abort() // unless finished below
	opt.Trace = tr.sub(g.ID)
	bar := newProgress(stderr, false, rf.frames*progressPerFrame, "render "+g.ID)
	opt.Context = ctx
	opt.Progress = func(p gfx.Progress) {
		bar.set(renderProgress(p), fmt.Sprintf("frame %d %s %d of %d", p.Frame, p.Stage, p.Done, p.Total))
	}
	r, err := gfx.New(g, sc, opt)
	if err != nil {
		return wrapGfx(err)
	}
	rep := renderReport{GPU: g.ID, Scene: sceneArg, Width: rf.width, Height: rf.height, Mode: opt.Mode.String(), Layout: r.Layout().String(), Clock: g.ClockMHz}
	var stopped error
	for i := 0; i < rf.frames; i++ {
		f, err := r.Render()
		if errors.Is(err, device.ErrStopped) { // gfx stops with the same sentinel
			// Interrupted: report the frames finished, then stop.
			stopped = err
			rep.Partial = fmt.Sprintf("interrupted in frame %d; %d of %d frames finished", i, i, rf.frames)
			break
		}
		if err != nil {
			bar.finish()
			return wrapGfx(fmt.Errorf("frame %d: %w", i, err))
		}
		files := []struct {
			name string
			img  image.Image
		}{
			{fmt.Sprintf("frame-%03d.png", i), f.Image},
			{fmt.Sprintf("heat-prims-%03d.png", i), f.Heatmap(gfx.HeatPrims)},
			{fmt.Sprintf("heat-cycles-%03d.png", i), f.Heatmap(gfx.HeatCycles)},
			{fmt.Sprintf("heat-te-%03d.png", i), f.Heatmap(gfx.HeatTE)},
		}
		for _, fl := range files {
			p := filepath.Join(rf.out, fl.name)
			if err := writePNG(p, fl.img); err != nil {
				return err
			}
			rep.Files = append(rep.Files, p)
		}
		rep.Frames = append(rep.Frames, renderFrame{Frame: f.Stats.Frame, Mode: f.Stats.Mode, Counters: f.Stats.Counters(), Passes: f.Stats.PassCycles, Engine: f.Stats.Engine})
		rep.stats = append(rep.stats, f.Stats)
		if rf.html != "" {
			shown, err := frameFigures(f.Stats.Frame, files[0].img, files[2].img)
			if err != nil {
				return err
			}
			rep.figures = append(rep.figures, shown...)
		}
	}
	bar.finish()
	if len(rep.Frames) == 0 {
		return stopped
	}
	if err := tr.finish(stderr); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	cp := filepath.Join(rf.out, "counters.json")
	if err := os.WriteFile(cp, append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", cp, err)
	}
	rep.Files = append(rep.Files, cp)
	if cp, err = writeFrameCSV(rf.out, rep); err != nil {
		return err
	}
	rep.Files = append(rep.Files, cp)
	var page string
	if rf.html != "" {
		if page, err = writeRenderReport(rf.html, commandLine(ctx), rep); err != nil {
			return err
		}
	}
	if rf.asJSON {
		js, _ = json.MarshalIndent(rep, "", "  ")
		if _, err := fmt.Fprintf(out, "%s\n", js); err != nil {
			return err
		}
		return stopped
	}
	if err := writeRenderText(out, g, rep); err != nil {
		return err
	}
	if page != "" {
		fmt.Fprintf(out, "report: %s\n", page)
	}
	return stopped
}

// progressPerFrame is a frame's share of the render progress: the
// geometry stage its first tenth, the tiles, bins or primitives the rest.
const progressPerFrame = 1000

func renderProgress(p gfx.Progress) int64 {
	frac := 0.0
	if p.Total > 0 {
		frac = float64(p.Done) / float64(p.Total)
	}
	if p.Stage == "geometry" {
		frac *= 0.1
	} else {
		frac = 0.1 + 0.9*frac
	}
	return int64(p.Frame*progressPerFrame) + int64(frac*progressPerFrame)
}

func wrapGfx(err error) error {
	if gfx.IsUserError(err) {
		return badInput(err)
	}
	return err
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// writeFrameCSV writes counters.csv: a row per counter, a column per frame.
func writeFrameCSV(dir string, rep renderReport) (string, error) {
	var b bytes.Buffer
	headers := make([]string, len(rep.Frames))
	sets := make([]counters.Set, len(rep.Frames))
	for i, f := range rep.Frames {
		headers[i], sets[i] = fmt.Sprintf("frame %d", f.Frame), f.Counters
	}
	if err := counters.WriteCSV(&b, counters.Frame, headers, sets); err != nil {
		return "", err
	}
	p := filepath.Join(dir, "counters.csv")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	return p, nil
}

func writeRenderText(out io.Writer, g *arch.GPU, rep renderReport) error {
	comp := ""
	if c := g.Tiling.FramebufferCompression; c != "" && c != "none" && rep.Mode == "tiled" {
		comp = " (" + strings.ToUpper(c) + ")"
	}
	fmt.Fprintf(out, "%s, scene %s, %dx%d, %s rendering, colour buffer %s%s, %d frame(s) at %s MHz\n",
		g.ID, rep.Scene, rep.Width, rep.Height, rep.Mode, rep.Layout, comp, len(rep.Frames), fmtFloat(g.ClockMHz))
	for _, st := range rep.stats {
		fmt.Fprintf(out, "\nframe %d: %.0f cycles, %.3f ms; %.0f cycles after the previous frame back to back, %.1f FPS\n", st.Frame, st.Cycles, st.TimeMS, st.IntervalCycles, st.FPS)
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		var passes []string
		for i, p := range st.PassCycles {
			if i == 6 && len(st.PassCycles) > 8 {
				passes = append(passes, fmt.Sprintf("... %d more", len(st.PassCycles)-i))
				break
			}
			passes = append(passes, fmt.Sprintf("%s %.0f", p.Name, p.Cycles))
		}
		fmt.Fprintf(w, "  passes\t%d: %s\n", st.Passes, strings.Join(passes, ", "))
		c := st.PrimitivesCulled
		fmt.Fprintf(w, "  geometry\t%d draws, %d vertices shaded in %d warps of %d; %d primitives in, %d clipped, culled %d (frustum %d, back-face %d, zero-area %d, no-sample %d), %d binned\n",
			st.Draws, st.VerticesShaded, st.VertexWarps, st.VertexWarpWidth, st.PrimitivesIn, st.PrimitivesClipped, c.Total(), c.Frustum, c.BackFace, c.ZeroArea, c.NoSample, st.PrimitivesBinned)
		switch {
		case st.DirectRendering:
			fmt.Fprintf(w, "  tiling\tdirect rendering (the attachments do not fit GMEM in bins)\n")
		case st.Mode == "immediate":
			fmt.Fprintf(w, "  tiling\tnone (immediate mode)\n")
		case st.Bins > 0:
			fmt.Fprintf(w, "  bins\t%d of %dx%d, all resolved; %d primitive references (at most %d in a bin); visibility streams %d bytes\n",
				st.Bins, st.TileWidth, st.TileHeight, st.PrimitiveRefs, st.PrimitiveRefsMax, st.VisibilityStreams)
		default:
			fmt.Fprintf(w, "  tiles\t%d of %dx%d: %d written, %d eliminated by CRC; %d primitive references (at most %d in a tile)\n",
				st.TilesTotal, st.TileWidth, st.TileHeight, st.TilesWritten, st.TilesEliminated, st.PrimitiveRefs, st.PrimitiveRefsMax)
			fmt.Fprintf(w, "  polygon lists\t%d bytes written, %d bytes allocated", st.PolygonListBytes, st.PolygonListAlloc)
			if st.HierarchyLevelUses != nil {
				fmt.Fprintf(w, "; primitives per level (16x16 up) %v", st.HierarchyLevelUses)
			}
			fmt.Fprintln(w)
		}
		hsr := ""
		if st.HSRRemoved > 0 {
			hsr = fmt.Sprintf(", %d removed by hidden-surface removal", st.HSRRemoved)
		}
		fmt.Fprintf(w, "  fragments\t%d rasterized, %d early-Z killed, %d shaded (+%d helper lanes)%s, %d discarded, %d late-Z killed, %d written (%d blended); overdraw %.2f\n",
			st.FragmentsRasterized, st.EarlyZKilled, st.FragmentsShaded, st.HelperLanes, hsr, st.Discarded, st.LateZKilled, st.FragmentsWritten, st.Blended, st.Overdraw)
		fmt.Fprintf(w, "  attachments\t%d render pass(es), %d sample(s) per pixel; %d bytes loaded, %d stored", st.RenderPasses, st.Samples, st.AttachmentLoadBytes, st.AttachmentStoreBytes)
		if st.CompressedBytes > 0 {
			fmt.Fprintf(w, "; colour compressed %d -> %d bytes (%.2fx)", st.UncompressedBytes, st.CompressedBytes, st.CompressionRatio())
		}
		if st.PartialRenders > 0 {
			fmt.Fprintf(w, "; %d partial renders (parameter buffer full)", st.PartialRenders)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  shading\t%d vertex warp instructions; %d fragment warps of %d, %d warp instructions\n",
			st.VertexWarpInsts, st.FragmentWarps, st.FragmentWarpWidth, st.FragmentWarpInsts)
		fmt.Fprintf(w, "  texture\t%d samples (%d minified, %d trilinear, mean mip level %.2f); cache %d hits, %d misses, hit rate %s\n",
			st.TextureSamples, st.TexSamplesMinified, st.TexSamplesTrilinear, st.TexLodAvg, st.TexCacheHits, st.TexCacheMisses, formatPct(100*st.TexCacheHitRate))
		fmt.Fprintf(w, "  tile memory\t%d bytes\n", st.TileMemoryBytes)
		if e := st.Engine; e != nil {
			fmt.Fprintf(w, "  shader cores\tissue %s, occupancy %s; stalled on memory %s, texture %s, no warp %s\n",
				formatPct(e.Value("issue_utilization_pct")), formatPct(e.Value("occupancy_avg_pct")), formatPct(e.Value("stall_memory_pct")),
				formatPct(e.Value("stall_texture_pct")), formatPct(e.Value("stall_no_warp_pct")))
			fmt.Fprintf(w, "  geometry\tbusy cycles: vertex fetch %.0f (warps waited %.0f warp-cycles), primitive assembly %.0f\n",
				st.VertexFetchBusyCycles, st.VertexFetchWaitCycles, st.AssemblyBusyCycles)
			fmt.Fprintf(w, "  fixed function\tbusy cycles: rasteriser %.0f (stalled %.0f on a full queue), ZS %.0f, blender %.0f (finished warps waited %.0f warp-cycles), tiler %.0f\n",
				st.RasterBusyCycles, st.RasterStallCycles, st.ZSBusyCycles, st.BlendBusyCycles, st.BlendWaitCycles, st.TilerBusyCycles)
		}
		fmt.Fprintf(w, "  L2\t%d hits, %d misses\n", st.L2Hits, st.L2Misses)
		fmt.Fprintf(w, "  DRAM read\t%d bytes: geometry %d, binning %d, texture %d, frame buffer %d\n",
			st.DRAMReadBytes, st.DRAMRead.Geometry, st.DRAMRead.Binning, st.DRAMRead.Texture, st.DRAMRead.Framebuffer)
		fmt.Fprintf(w, "  DRAM write\t%d bytes: geometry %d, binning %d, texture %d, frame buffer %d\n",
			st.DRAMWriteBytes, st.DRAMWrite.Geometry, st.DRAMWrite.Binning, st.DRAMWrite.Texture, st.DRAMWrite.Framebuffer)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if rep.Partial != "" {
		fmt.Fprintf(out, "\nPARTIAL: %s\n", rep.Partial)
	}
	fmt.Fprintf(out, "\nwrote %d files to %s\n", len(rep.Files), filepath.Dir(rep.Files[len(rep.Files)-1]))
	return nil
}
