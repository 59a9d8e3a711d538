package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Options control a compile.
type Options struct {
	// Defines are preprocessor definitions, NAME or NAME=VALUE, passed to the
	// compiler as -D.
	Defines []string
	// IncludeDirs are added to the compiler's include search path (-I).
	IncludeDirs []string
	// Validate runs spirv-val on the result. The OpenCL C pipeline always
	// validates (it is step 4 of the pipeline in DEVELOPERS.md, because
	// llvm-spirv can emit invalid SPIR-V); for GLSL output and for .spv files
	// it is done only when Validate is set.
	Validate bool
	// Light compiles OpenCL C with the light pipeline (clang without LLVM
	// passes, then opt-14 with optPasses: no inlining, unrolling or LICM)
	// instead of the driver pipeline (full -O2 as a vendor driver runs it).
	Light bool
	// NoFP64 compiles OpenCL C for a device without cl_khr_fp64, as its
	// driver would: unsuffixed double literals become float, with clang's
	// warning, and double arithmetic is an error.
	NoFP64 bool
	// ClangFlags are passed to clang-14 as they are (OpenCL C only), after
	// the pipeline's own.
	ClangFlags []string
	// Warnings, when set, receives the compilers' warnings of a compile
	// that succeeds (a driver's build log).
	Warnings io.Writer
	// Meta, when set, receives each kernel's argument metadata and
	// attributes, by kernel name (OpenCL C only; see KernelMeta).
	Meta map[string]*KernelMeta
	// Headers are extra #include files, found by their names
	// (clCompileProgram's input headers).
	Headers []Header
	// Debug keeps line information: OpenCL C with clang's
	// -gline-tables-only (an OpLine before each instruction, inlined code
	// keeping its own source line), GLSL with glslangValidator -g. What it
	// costs the code: almost nothing; the optimizer runs as without it
	// (debuginfo.go), but LLVM 14 can keep an empty block it would
	// otherwise remove (one loop exit in examples/matmul.cl, 2% of its
	// cycles on the Adreno 640), so it is asked for, not the default.
	Debug bool
}

// Header is an #include file given in memory: Name is how the source
// names it.
type Header struct {
	Name   string
	Source []byte
}

// ToolMissingError says that a compiler the toolchain needs is not installed.
type ToolMissingError struct {
	Tool    string // the executable, e.g. "clang-14"
	Package string // the Debian package that provides it
}

func (e *ToolMissingError) Error() string {
	return fmt.Sprintf("%s not found: install the Debian package %s", e.Tool, e.Package)
}

// CompileError carries a compiler's diagnostics: the source (or the SPIR-V)
// is wrong, and the user can fix it.
type CompileError struct {
	Tool   string // the tool that rejected the input
	Output string // its diagnostics, trimmed
}

func (e *CompileError) Error() string {
	if e.Output == "" {
		return e.Tool + " failed without diagnostics"
	}
	return e.Tool + " failed:\n" + e.Output
}

// ToolCrashError says that a compiler crashed (killed by a signal or an
// internal error) rather than rejecting the input: a fault of the tool, not of
// the user's source.
type ToolCrashError struct {
	Tool   string
	Err    error  // how it ended
	Output string // what it printed, trimmed
}

func (e *ToolCrashError) Error() string {
	msg := fmt.Sprintf("%s crashed (%v)", e.Tool, e.Err)
	if e.Output != "" {
		msg += ":\n" + e.Output
	}
	return msg
}

// toolPackages names the Debian package of each tool (DEVELOPERS.md).
var toolPackages = map[string]string{
	"clang-14":         "clang-14",
	"opt-14":           "llvm-14",
	"llvm-spirv-14":    "llvm-spirv-14",
	"spirv-val":        "spirv-tools",
	"glslangValidator": "glslang-tools",
	"llvm-dis-14":      "llvm-14",
	"llvm-link-14":     "llvm-14",
}

// optPasses is the known-good LLVM pass list of DEVELOPERS.md: plain -O2
// through llvm-spirv-14 can place blocks before their dominators and emit
// freeze, so clang runs without LLVM passes and opt-14 runs only these.
const optPasses = "function(sroa,early-cse,instcombine,simplifycfg,gvn,dce)"

// FindTool returns the path of one of the toolchain's executables, or a
// *ToolMissingError naming the Debian package to install.
func FindTool(tool string) (string, error) {
	p, err := exec.LookPath(tool)
	if err != nil {
		pkg := toolPackages[tool]
		if pkg == "" {
			pkg = tool
		}
		return "", &ToolMissingError{Tool: tool, Package: pkg}
	}
	return p, nil
}

// Compile compiles the kernel file at path to SPIR-V, choosing the compiler
// from the extension (see LanguageOf). The result is the SPIR-V module as
// little-endian bytes. A .spv file is read, checked and (with opt.Validate)
// validated, so Compile accepts every kind of kernel file.
func Compile(path string, opt Options) ([]byte, error) {
	lang, err := LanguageOf(path)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading kernel: %w", err)
	}
	return compile(src, path, path, lang, opt)
}

// CompileSource compiles src, whose language is lang, to SPIR-V. name is used
// in diagnostics; for GLSL its extension picks the stage (see StageOf), and
// if its directory exists it is searched for #include files.
func CompileSource(src []byte, name string, lang Language, opt Options) ([]byte, error) {
	return compile(src, "", name, lang, opt)
}

// Load returns the SPIR-V of a kernel file: a .spv file is read as is
// (checked for a SPIR-V header; validated only with opt.Validate), a source
// file is compiled with Compile.
func Load(path string, opt Options) ([]byte, error) {
	return Compile(path, opt)
}

var defineName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkOptions(opt Options) error {
	for _, d := range opt.Defines {
		name, value, _ := strings.Cut(d, "=")
		if !defineName.MatchString(name) {
			return fmt.Errorf("define %q: the name must be a C identifier (letters, digits, _; not starting with a digit), as in NAME or NAME=VALUE", d)
		}
		if strings.ContainsAny(value, "\n\r\x00") {
			return fmt.Errorf("define %q: the value must not contain a newline or NUL", d)
		}
	}
	for _, dir := range opt.IncludeDirs {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("include directory %q: %w", dir, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("include directory %q is not a directory", dir)
		}
	}
	return nil
}

// compile runs the toolchain on src. srcPath is the file src came from, or ""
// when src exists only in memory; name is the name for diagnostics.
func compile(src []byte, srcPath, name string, lang Language, opt Options) ([]byte, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	switch lang {
	case SPIRV:
		words, err := CheckSPIRV(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if opt.Validate {
			if err := validateBytes(words, "", name); err != nil {
				return nil, err
			}
		}
		return words, nil
	case OpenCLC, GLSL:
	default:
		return nil, fmt.Errorf("%s: unknown kernel language %v", name, lang)
	}

	tmp, err := os.MkdirTemp("", "pocketgpu-kernel-")
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	w := &work{tmp: tmp, name: name, warnings: opt.Warnings}

	in := srcPath
	includes := opt.IncludeDirs
	if len(opt.Headers) > 0 {
		dir, err := w.writeHeaders(opt.Headers)
		if err != nil {
			return nil, err
		}
		includes = append([]string{dir}, includes...)
	}
	if in == "" {
		base := filepath.Base(name)
		if base == "." || base == string(filepath.Separator) || base == "" {
			base = "kernel"
		}
		in = filepath.Join(tmp, base)
		if err := os.WriteFile(in, src, 0o600); err != nil {
			return nil, fmt.Errorf("compiling %s: %w", name, err)
		}
		w.srcTmp = in
		if dir := filepath.Dir(name); dir != "." {
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				includes = append([]string{dir}, includes...)
			}
		}
	}

	if lang == OpenCLC {
		if opt.Debug && w.srcTmp != "" {
			// The line table names an in-memory source by its name.
			m := "-fdebug-prefix-map=" + tmp + "=" + filepath.Dir(name)
			opt.ClangFlags = append([]string{m}, opt.ClangFlags...)
		}
		if opt.Light {
			return w.openCLLight(in, includes, opt)
		}
		return w.openCL(in, includes, opt)
	}
	return w.glsl(in, StageOf(name), includes, opt.Defines, opt.Validate, opt.Debug)
}

// work is one compile: its private temp dir and how to clean its paths out of
// diagnostics.
type work struct {
	tmp      string
	name     string
	srcTmp   string    // the temp copy of an in-memory source, or ""
	warnings io.Writer // where a successful tool's diagnostics go, or nil
}

// clangArgs are the arguments every OpenCL C compile gives clang-14.
func clangArgs(in string, includes []string, opt Options, passes ...string) []string {
	// -fgnu89-inline: a plain `inline` function is also emitted as a
	// definition, as OpenCL drivers compile it (Intel's and PoCL's pass
	// the same flag). C99 makes it an inline definition only, which the
	// optimizer drops where it declines to inline (a large helper called
	// from several kernels), leaving calls to a declaration.
	args := []string{"-target", "spir64", "-cl-std=CL1.2", "-fgnu89-inline"}
	args = append(args, passes...)
	if opt.Debug {
		// Paths in the line table as the command line named them
		// (relative to the working directory), not absolute.
		args = append(args, "-gline-tables-only", "-fdebug-compilation-dir=.")
	}
	if opt.NoFP64 {
		args = append(args, "-Xclang", "-cl-ext=-cl_khr_fp64")
	}
	for _, d := range opt.Defines {
		args = append(args, "-D"+d)
	}
	for _, d := range includes {
		args = append(args, "-I", d)
	}
	args = append(args, opt.ClangFlags...)
	return append(args, in)
}

// openCL is the driver pipeline, as a vendor driver optimizes: clang-14 at
// -O2 (inlining, unrolling, LICM, GVN) without the CPU vectorizers (a SIMT
// GPU vectorizes across work-items, and their <N x i1> masks reach
// llvm-spirv as odd-width integers) or jump tables (a switch lookup table
// is a module-scope private array, which SPIR-V cannot hold), then
// llvm-spirv-14 and the blocks put in dominance order (llvm-spirv can emit
// a block before its dominator); spirv-val checks the result.
//
// When llvm-spirv refuses the optimized IR — a freeze, or an integer of odd
// width (instcombine narrows a switch on x & 7 to i3, because spir64's data
// layout declares no native integer widths) — the kernel is rebuilt by the
// repair route: the same -O2 run by opt-14 on a data layout that declares
// 8- to 64-bit integers native, and freeze turned into a no-op cast. The
// direct route is the common one and keeps a build within about twice
// clang's own time (BenchmarkCompileDriver).
func (w *work) openCL(in string, includes []string, opt Options) ([]byte, error) {
	bc := filepath.Join(w.tmp, "k.bc")
	spv := filepath.Join(w.tmp, "k.spv")
	args := clangArgs(in, includes, opt, "-c", "-emit-llvm", "-O2", "-fno-vectorize", "-fno-slp-vectorize", "-fno-jump-tables")
	if err := w.run("clang-14", append(args, "-o", bc)...); err != nil {
		return nil, err
	}
	if err := w.meta(bc, opt); err != nil {
		return nil, err
	}
	err := w.llvmSPIRV(bc, spv)
	var ce *CompileError
	if errors.As(err, &ce) && needsRepair(ce.Output) {
		err = w.repairRoute(in, includes, opt, spv)
	}
	if err != nil {
		return nil, err
	}
	raw, err := w.readSPIRV(spv)
	if err != nil {
		return nil, err
	}
	ordered, err := orderBlocks(raw)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: ordering the blocks of llvm-spirv's output: %w", w.name, err)
	}
	if err := os.WriteFile(spv, ordered, 0o600); err != nil {
		return nil, fmt.Errorf("compiling %s: %w", w.name, err)
	}
	if err := w.run("spirv-val", spv); err != nil {
		return nil, err
	}
	return ordered, nil
}

// needsRepair recognizes llvm-spirv-14's refusals that the repair route
// mends.
func needsRepair(diag string) bool {
	return strings.Contains(diag, "InvalidBitWidth") || strings.Contains(diag, "freeze")
}

// repairRoute builds the kernel's SPIR-V into spv with the IR edits
// llvm-spirv-14 needs (see openCL).
func (w *work) repairRoute(in string, includes []string, opt Options, spv string) error {
	// The direct route already passed the compilers' warnings on.
	defer func(saved io.Writer) { w.warnings = saved }(w.warnings)
	w.warnings = nil
	fe := filepath.Join(w.tmp, "front.ll")
	args := clangArgs(in, includes, opt, "-S", "-emit-llvm", "-O2", "-fno-jump-tables", "-Xclang", "-disable-llvm-passes")
	if err := w.run("clang-14", append(args, "-o", fe)...); err != nil {
		return err
	}
	return w.repairIR(fe, []string{"-passes=default<O2>", "-vectorize-loops=false", "-vectorize-slp=false"}, spv)
}

// repairIR takes textual LLVM IR the front end or the linker made through
// the repair route's rewrites: native integer widths, the optimizer with
// optArgs, freeze removed, then llvm-spirv. The optimizer keeps a loop's
// exit values as the loop computes them (-replexitval=never):
// IndVarSimplify's closed forms work in odd widths (the sum of a 32-bit
// counter, n(n-1)/2, in i33), which SPIR-V has no type for, whatever the
// data layout says.
func (w *work) repairIR(ll string, optArgs []string, spv string) error {
	o2 := filepath.Join(w.tmp, "o2.ll")
	bc := filepath.Join(w.tmp, "repaired.bc")
	if err := w.editIR(ll, nativeIntegers); err != nil {
		return err
	}
	args := append(append([]string{"-S"}, optArgs...), "-replexitval=never", ll, "-o", o2)
	if err := w.run("opt-14", args...); err != nil {
		return err
	}
	if err := w.editIR(o2, removeFreeze); err != nil {
		return err
	}
	// instsimplify folds the no-op casts removeFreeze leaves.
	if err := w.run("opt-14", "-passes=instsimplify", o2, "-o", bc); err != nil {
		return err
	}
	return w.llvmSPIRV(bc, spv)
}

// editIR rewrites a textual LLVM IR file in place.
func (w *work) editIR(path string, edit func([]byte) []byte) error {
	text, err := os.ReadFile(path)
	if err == nil {
		err = os.WriteFile(path, edit(text), 0o600)
	}
	if err != nil {
		return fmt.Errorf("compiling %s: %w", w.name, err)
	}
	return nil
}

// dataLayout matches the module's data layout line.
var dataLayout = regexp.MustCompile(`(?m)^(target datalayout = "[^"]*)"$`)

// nativeIntegers declares 8-, 16-, 32- and 64-bit integers native in the
// data layout, which keeps LLVM from narrowing to other widths.
func nativeIntegers(ll []byte) []byte {
	return dataLayout.ReplaceAll(ll, []byte(`$1-n8:16:32:64"`))
}

// freezeInst matches an LLVM freeze: "%a = freeze TYPE %b", with the
// debug location a line-info build appends (", !dbg !12").
var freezeInst = regexp.MustCompile(`(?m)= freeze (.+?) (\S+?)((?:, !dbg !\d+)?)$`)

// removeFreeze turns each freeze into a no-op bitcast of its operand.
// freeze only pins an undefined value to one arbitrary value; the operand
// itself is one such value, so using it is a valid refinement.
func removeFreeze(ll []byte) []byte {
	return freezeInst.ReplaceAll(ll, []byte("= bitcast $1 $2 to $1$3"))
}

// openCLLight runs the light pipeline of DEVELOPERS.md: it always
// validates, but leaves calls, loops and private arrays as written.
func (w *work) openCLLight(in string, includes []string, opt Options) ([]byte, error) {
	bc0 := filepath.Join(w.tmp, "k0.bc")
	bc := filepath.Join(w.tmp, "k.bc")
	spv := filepath.Join(w.tmp, "k.spv")
	args := clangArgs(in, includes, opt, "-c", "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm")
	if err := w.run("clang-14", append(args, "-o", bc0)...); err != nil {
		return nil, err
	}
	if err := w.meta(bc0, opt); err != nil {
		return nil, err
	}
	if err := w.run("opt-14", "-passes="+optPasses, bc0, "-o", bc); err != nil {
		return nil, err
	}
	if err := w.llvmSPIRV(bc, spv); err != nil {
		return nil, err
	}
	if err := w.run("spirv-val", spv); err != nil {
		return nil, err
	}
	return w.readSPIRV(spv)
}

// glsl runs glslangValidator for Vulkan 1.1 (DEVELOPERS.md).
func (w *work) glsl(in, stage string, includes, defines []string, validate, debug bool) ([]byte, error) {
	spv := filepath.Join(w.tmp, "k.spv")
	args := []string{"-V", "--target-env", "vulkan1.1", "-S", stage}
	if debug {
		args = append(args, "-g")
	}
	for _, d := range defines {
		args = append(args, "-D"+d)
	}
	for _, d := range includes {
		args = append(args, "-I"+d)
	}
	args = append(args, in, "-o", spv)
	if err := w.run("glslangValidator", args...); err != nil {
		return nil, err
	}
	if validate {
		if err := w.run("spirv-val", "--target-env", "vulkan1.1", spv); err != nil {
			return nil, err
		}
	}
	return w.readSPIRV(spv)
}

func (w *work) readSPIRV(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: reading the compiler's output: %w", w.name, err)
	}
	words, err := CheckSPIRV(b)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: the compiler's output: %w", w.name, err)
	}
	return words, nil
}

// validateBytes runs spirv-val on an in-memory module.
func validateBytes(spv []byte, env, name string) error {
	tmp, err := os.MkdirTemp("", "pocketgpu-kernel-")
	if err != nil {
		return fmt.Errorf("validating %s: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	w := &work{tmp: tmp, name: name}
	f := filepath.Join(tmp, "k.spv")
	if err := os.WriteFile(f, spv, 0o600); err != nil {
		return fmt.Errorf("validating %s: %w", name, err)
	}
	w.srcTmp = f
	args := []string{}
	if env != "" {
		args = append(args, "--target-env", env)
	}
	return w.run("spirv-val", append(args, f)...)
}

// run runs one tool and sorts its failure into missing tool, crash or
// diagnostics.
func (w *work) run(tool string, args ...string) error {
	path, err := FindTool(tool)
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		if w.warnings != nil && len(bytes.TrimSpace(out)) > 0 {
			fmt.Fprintln(w.warnings, w.trim(string(out)))
		}
		return nil
	}
	text := w.trim(string(out))
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return &ToolCrashError{Tool: tool, Err: err, Output: text}
	}
	if !ee.Exited() || strings.Contains(string(out), "PLEASE submit a bug report") ||
		strings.Contains(string(out), "Stack dump:") {
		return &ToolCrashError{Tool: tool, Err: err, Output: text}
	}
	return &CompileError{Tool: tool, Output: text}
}

// maxDiagLines bounds the diagnostics kept in a CompileError.
const maxDiagLines = 60

// trim removes the temp dir from a tool's output, drops glslangValidator's
// boilerplate lines and bounds the length.
func (w *work) trim(out string) string {
	if w.srcTmp != "" {
		out = strings.ReplaceAll(out, w.srcTmp, w.name)
	}
	out = strings.ReplaceAll(out, w.tmp+string(filepath.Separator), "")
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, " \t\r")
		switch {
		case line == "":
			continue
		case line == w.name || line == filepath.Base(w.name):
			continue // glslangValidator echoes the file name first
		case strings.HasPrefix(line, "SPIR-V is not generated"):
			continue
		}
		keep = append(keep, line)
	}
	if len(keep) > maxDiagLines {
		n := len(keep) - maxDiagLines
		keep = append(keep[:maxDiagLines], fmt.Sprintf("... (%d more lines)", n))
	}
	return strings.Join(keep, "\n")
}

// SPIR-V magic number (SPIR-V spec §3.1 Magic Number).
const spirvMagic = 0x07230203

// CheckSPIRV checks that b looks like a SPIR-V module — a whole number of
// 32-bit words, at least the 5-word header, the magic number — and returns it
// in little-endian byte order (a big-endian module is byte-swapped). It does
// not decode the instructions; that is the spirv package's job.
func CheckSPIRV(b []byte) ([]byte, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("not SPIR-V: %d bytes is not a whole number of 32-bit words", len(b))
	}
	if len(b) < 20 {
		return nil, fmt.Errorf("not SPIR-V: %d bytes is shorter than the 5-word header", len(b))
	}
	switch {
	case binary.LittleEndian.Uint32(b) == spirvMagic:
		return b, nil
	case binary.BigEndian.Uint32(b) == spirvMagic:
		out := make([]byte, len(b))
		for i := 0; i < len(b); i += 4 {
			binary.LittleEndian.PutUint32(out[i:], binary.BigEndian.Uint32(b[i:]))
		}
		return out, nil
	}
	return nil, fmt.Errorf("not SPIR-V: first word is 0x%08x, not the magic number 0x%08x", binary.LittleEndian.Uint32(b), uint32(spirvMagic))
}
