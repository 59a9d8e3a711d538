// Package corpus is the team's own test kernels: OpenCL C and GLSL compute
// sources written for pocketgpu, their SPIR-V prebuilt with kernel.Compile (so
// tests need no compiler), the argument specs and NDRange to run each with,
// and a Go reference that computes the expected outputs from the inputs.
//
// Every OpenCL case is checked against PoCL in this package's tests, which
// proves the references and the argument handling independently of the
// simulator; the simulator's tests then check themselves against the same
// references.
//
// GLSL cases list their arguments as Vulkan binds them: the descriptor
// resources in (set, binding) order, then one scalar per push-constant block
// member in member order. Their specialization constants keep the defaults
// in the source.
package corpus

//go:generate go run ./gen

import (
	"embed"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pocketgpu/pocketgpu/kernel"
)

//go:embed kernels
var files embed.FS

// Dir is the directory of the sources and prebuilt SPIR-V, relative to this
// package's directory (SourceFile paths start with it).
const Dir = "kernels"

// Case is one corpus kernel with everything needed to run and check it.
type Case struct {
	Name       string
	Lang       string   // "opencl" or "glsl"
	SourceFile string   // path relative to the corpus package, e.g. "kernels/vecadd.cl"
	Source     []byte   // the source text
	SPIRV      []byte   // the prebuilt module, kernels/<Name>.spv (nil if not generated yet)
	Entry      string   // the kernel function (OpenCL) or "main" (GLSL)
	BuildOpts  []string // compiler options: -DNAME[=VALUE] only (for both clang and PoCL)
	Global     []int    // NDRange global size in work-items
	Local      []int    // work-group size
	Args       []string // argument specs, in kernel argument order
	// Outputs are the argument indices whose final contents are checked.
	Outputs []int
	// Tol is the tolerance for float outputs (0 = bit-exact; see Compare).
	Tol float64
	// Reference computes the expected final contents of every Outputs
	// argument from the initial contents of all arguments (in[i] is what
	// kernel.Arg.Materialize gives: nil for local memory).
	Reference func(in [][]byte) (map[int][]byte, error)
}

// SPIRVFile is the prebuilt module's path relative to the corpus package.
func (c Case) SPIRVFile() string { return path.Join(Dir, c.Name+".spv") }

// Defines returns BuildOpts as kernel.Options defines (NAME or NAME=VALUE).
func (c Case) Defines() []string {
	var d []string
	for _, o := range c.BuildOpts {
		d = append(d, strings.TrimPrefix(o, "-D"))
	}
	return d
}

// ParsedArgs parses the case's argument specs.
func (c Case) ParsedArgs() ([]kernel.Arg, error) {
	args := make([]kernel.Arg, len(c.Args))
	for i, s := range c.Args {
		a, err := kernel.ParseArg(s)
		if err != nil {
			return nil, fmt.Errorf("case %s argument %d: %w", c.Name, i, err)
		}
		args[i] = a
	}
	return args, nil
}

// Inputs parses and materialises the case's arguments.
func (c Case) Inputs() ([]kernel.Arg, [][]byte, error) {
	args, err := c.ParsedArgs()
	if err != nil {
		return nil, nil, err
	}
	in := make([][]byte, len(args))
	for i := range args {
		if in[i], err = args[i].Materialize(Dir); err != nil {
			return nil, nil, fmt.Errorf("case %s: %w", c.Name, err)
		}
	}
	return args, in, nil
}

// Cases returns the corpus, in a fixed order.
func Cases() []Case {
	out := make([]Case, 0, len(cases))
	for _, c := range cases {
		c.Source = mustRead(c.SourceFile)
		c.SPIRV, _ = files.ReadFile(c.SPIRVFile())
		out = append(out, c)
	}
	return out
}

// Lookup returns the case called name.
func Lookup(name string) (Case, bool) {
	for _, c := range Cases() {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// SPIRVSeeds is every prebuilt module of the corpus, in name order, then
// the files matching each of globs (other test modules): the seed inputs
// of the fuzz targets that take SPIR-V. Unreadable files are skipped.
func SPIRVSeeds(globs ...string) [][]byte {
	var seeds [][]byte
	entries, _ := files.ReadDir(Dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".spv") {
			seeds = append(seeds, mustRead(path.Join(Dir, e.Name())))
		}
	}
	for _, glob := range globs {
		names, _ := filepath.Glob(glob)
		for _, name := range names {
			if b, err := os.ReadFile(name); err == nil {
				seeds = append(seeds, b)
			}
		}
	}
	return seeds
}

func mustRead(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(fmt.Sprintf("corpus: %s is listed but not embedded: %v", name, err))
	}
	return b
}

// maxMismatches bounds how many mismatching elements Compare lists.
const maxMismatches = 5

// Compare checks the final contents got of argument arg against want,
// element by element in the argument's type. Integers must be equal; floats
// must satisfy |got-want| <= Tol*max(|want|, 1) (relative for magnitudes of
// 1 and more, absolute below, so results near zero are not held to a
// relative bound), with NaN matching NaN. The padding component of
// 3-vectors is not compared. The error names the first mismatching
// elements and how many there are.
func Compare(c Case, arg int, got, want []byte) error {
	if arg < 0 || arg >= len(c.Args) {
		return fmt.Errorf("case %s: no argument %d (it has %d)", c.Name, arg, len(c.Args))
	}
	a, err := kernel.ParseArg(c.Args[arg])
	if err != nil {
		return fmt.Errorf("case %s: %w", c.Name, err)
	}
	if len(got) != len(want) {
		return fmt.Errorf("case %s argument %d (%s): %d bytes, want %d", c.Name, arg, a.Spec, len(got), len(want))
	}
	e := a.Elem
	n := len(want) / e.Size()
	var msgs []string
	bad := 0
	for i := 0; i < n; i++ {
		for comp := 0; comp < e.Vec; comp++ {
			gf, gs, gu := kernel.Component(got, e, i, comp)
			wf, ws, wu := kernel.Component(want, e, i, comp)
			ok := gs == ws && gu == wu
			if e.Float {
				ok = floatClose(gf, wf, c.Tol)
			}
			if ok {
				continue
			}
			bad++
			if len(msgs) < maxMismatches {
				where := fmt.Sprintf("element %d", i)
				if e.Vec > 1 {
					where += fmt.Sprintf(" component %d", comp)
				}
				msgs = append(msgs, fmt.Sprintf("%s: got %s, want %s", where,
					formatOne(got, e, i, comp), formatOne(want, e, i, comp)))
			}
		}
	}
	if bad == 0 {
		return nil
	}
	tol := ""
	if e.Float {
		tol = fmt.Sprintf(", tolerance %g", c.Tol)
	}
	return fmt.Errorf("case %s argument %d (%s): %d mismatching values%s; first: %s",
		c.Name, arg, a.Spec, bad, tol, strings.Join(msgs, "; "))
}

func floatClose(got, want, tol float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	if got == want {
		return true // also equal infinities
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1)
}

// formatOne prints one component as FormatElements would.
func formatOne(data []byte, e kernel.ElemType, i, comp int) string {
	one := e
	one.Vec = 1
	off := i*e.Size() + comp*e.Bits/8
	return kernel.FormatElements(data[off:off+e.Bits/8], one, 1)[0]
}

// CompileOptions are the kernel.Compile options that made the case's
// prebuilt SPIR-V: the light pipeline, which keeps calls and loops as
// written so the executor meets them (device.TestCorpusDriverPipeline runs
// the same sources through the driver pipeline).
func CompileOptions(c Case) kernel.Options {
	return kernel.Options{Defines: c.Defines(), Validate: true, Light: true}
}
