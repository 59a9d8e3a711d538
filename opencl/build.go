package opencl

import (
	"bytes"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// Program is a cl_program: OpenCL C source, SPIR-V, a binary, or what
// clLinkProgram made, built for its devices by the driver pipeline
// (kernel.CompileSource), per device as its driver would (without
// cl_khr_fp64 where the GPU has no fp64).
type Program struct {
	Ctx     *Context
	Devices []*Device // the context's, or those the program was made for
	Source  string    // OpenCL C, or ""
	IL      []byte    // SPIR-V given with clCreateProgramWithIL

	mu     sync.Mutex
	builds map[*Device]*build
	// kernels counts the program's live kernels: a program with kernels
	// cannot be rebuilt.
	kernels atomic.Int32
}

// build is a program's build for one device.
type build struct {
	Status  int32 // CL_BUILD_SUCCESS (0), _ERROR (-2), _NONE (-1)
	Log     string
	Options string
	Type    uint32 // CL_PROGRAM_BINARY_TYPE_*
	SPIRV   []byte // an executable's module
	Object  []byte // a compiled object's or library's bitcode
	Meta    map[string]*kernel.KernelMeta
	Kernels []string // an executable's kernel names, sorted
}

// Build statuses (cl_build_status) and binary types
// (cl_program_binary_type).
const (
	BuildSuccess = 0
	BuildNone    = -1
	BuildError   = -2

	BinaryNone       = 0
	BinaryObject     = 1
	BinaryLibrary    = 2
	BinaryExecutable = 4
)

func (c *Context) newProgram() *Program {
	return &Program{Ctx: c, Devices: c.Devices, builds: map[*Device]*build{}}
}

// NewProgram makes a program from OpenCL C source.
func (c *Context) NewProgram(source string) (*Program, error) {
	if source == "" {
		return nil, errorf(InvalidValue, "empty program source")
	}
	p := c.newProgram()
	p.Source = source
	return p, nil
}

// NewProgramIL makes a program from a SPIR-V module.
func (c *Context) NewProgramIL(spv []byte) (*Program, error) {
	b, err := kernel.CheckSPIRV(spv)
	if err != nil {
		return nil, errorf(InvalidValue, "%v", err)
	}
	p := c.newProgram()
	p.IL = b
	return p, nil
}

// devices checks a device list against the program's (nil: all of them).
func (p *Program) devices(devs []*Device) ([]*Device, error) {
	if devs == nil {
		return p.Devices, nil
	}
	for _, d := range devs {
		if !hasDevice(p.Devices, d) {
			return nil, errorf(InvalidDevice, "the device is not one of the program's")
		}
	}
	return devs, nil
}

func hasDevice(list []*Device, d *Device) bool {
	for _, x := range list {
		if x == d {
			return true
		}
	}
	return false
}

// Build is clBuildProgram for devices (nil: all of the program's). A
// failed build leaves its log in BuildInfo and returns BuildProgramFailure.
func (p *Program) Build(devs []*Device, options string) error {
	devs, err := p.devices(devs)
	if err != nil {
		return err
	}
	if p.kernels.Load() > 0 {
		return errorf(InvalidOperation, "the program has kernels; release them before building it again")
	}
	opt, err := parseOptions(options, buildOptions)
	if err != nil {
		p.setLog(devs, options, err.Error())
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	failed := false
	for _, d := range devs {
		b := &build{Options: options, Status: BuildSuccess, Type: BinaryExecutable}
		prev := p.builds[d]
		var log bytes.Buffer
		switch {
		case p.IL != nil:
			b.SPIRV = p.IL
		case p.Source != "":
			o := deviceOptions(opt, d, &log)
			b.Meta = o.Meta
			b.SPIRV, err = kernel.CompileSource([]byte(p.Source), "program.cl", kernel.OpenCLC, o)
		case prev != nil && prev.Type == BinaryExecutable:
			b.SPIRV, b.Meta = prev.SPIRV, prev.Meta
		case prev != nil && prev.Object != nil:
			o := deviceOptions(opt, d, &log)
			b.Meta = o.Meta
			b.SPIRV, err = kernel.LinkObjects([][]byte{prev.Object}, false, o)
		default:
			err = errorf(InvalidBinary, "the program has no source, IL or binary for the device")
		}
		if err == nil {
			b.Kernels, err = entryPoints(b.SPIRV)
		}
		if err != nil {
			log.WriteString(err.Error())
			b.Status, b.Type, b.SPIRV, failed = BuildError, BinaryNone, nil, true
			err = nil
		}
		b.Log = log.String()
		p.builds[d] = b
	}
	if failed {
		return errorf(BuildProgramFailure, "the program failed to build; see its build log")
	}
	return nil
}

// deviceOptions are a build's options for one device: no fp64 where the
// GPU has none, warnings into the log, and the kernels' metadata always
// gathered (many drivers keep argument info without -cl-kernel-arg-info).
func deviceOptions(opt kernel.Options, d *Device, log *bytes.Buffer) kernel.Options {
	opt.NoFP64 = !d.GPU.HasFP64()
	opt.Warnings = log
	opt.Meta = map[string]*kernel.KernelMeta{}
	opt.ClangFlags = append(append([]string(nil), opt.ClangFlags...), "-cl-kernel-arg-info")
	return opt
}

// setLog records a build that failed before compiling (bad options).
func (p *Program) setLog(devs []*Device, options, log string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range devs {
		p.builds[d] = &build{Status: BuildError, Options: options, Log: log}
	}
}

// entryPoints lists a module's kernels.
func entryPoints(spv []byte) ([]string, error) {
	names, err := device.EntryPoints(spv)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// Where an option may appear.
type optionUse int

const (
	buildOptions optionUse = iota
	compileOptions
	linkOptions
)

// clangOptions are the OpenCL C compiler options of the specification that
// clang-14 takes as they are.
var clangOptions = map[string]bool{
	"-cl-single-precision-constant": true, "-cl-denorms-are-zero": true, "-cl-fp32-correctly-rounded-divide-sqrt": true,
	"-cl-opt-disable": true, "-cl-mad-enable": true, "-cl-no-signed-zeros": true, "-cl-unsafe-math-optimizations": true,
	"-cl-finite-math-only": true, "-cl-fast-relaxed-math": true, "-cl-uniform-work-group-size": true,
	"-cl-kernel-arg-info": true, "-w": true, "-Werror": true,
}

// linkOnly are clLinkProgram's own options. The math options a link may
// also take change nothing here: they were fixed in each object's
// functions when it was compiled.
var linkMath = map[string]bool{
	"-cl-denorms-are-zero": true, "-cl-no-signed-zeros": true, "-cl-unsafe-math-optimizations": true,
	"-cl-finite-math-only": true, "-cl-fast-relaxed-math": true, "-cl-no-subgroup-ifp": true,
}

// parseOptions turns clBuildProgram/clCompileProgram options into compile
// options, or checks clLinkProgram's. A bad option is
// CL_INVALID_BUILD_OPTIONS, _COMPILER_OPTIONS or _LINKER_OPTIONS.
func parseOptions(s string, use optionUse) (kernel.Options, error) {
	var o kernel.Options
	bad := map[optionUse]Status{buildOptions: InvalidBuildOptions, compileOptions: InvalidCompilerOptions, linkOptions: InvalidLinkerOptions}[use]
	words := strings.Fields(s)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if use == linkOptions {
			if w != "-create-library" && w != "-enable-link-options" && !linkMath[w] {
				return o, errorf(bad, "link option %q is not one of -create-library, -enable-link-options and the math options", w)
			}
			continue
		}
		arg := func(prefix string) (string, bool) {
			if w == prefix && i+1 < len(words) {
				i++
				return words[i], true
			}
			if strings.HasPrefix(w, prefix) && len(w) > len(prefix) {
				return w[len(prefix):], true
			}
			return "", false
		}
		if v, ok := arg("-D"); ok {
			o.Defines = append(o.Defines, v)
			continue
		}
		if v, ok := arg("-I"); ok {
			o.IncludeDirs = append(o.IncludeDirs, v)
			continue
		}
		switch {
		case clangOptions[w]:
			o.ClangFlags = append(o.ClangFlags, w)
		case strings.HasPrefix(w, "-cl-std="):
			switch v := strings.TrimPrefix(w, "-cl-std="); v {
			case "CL1.1", "CL1.2", "CL2.0", "CL3.0":
				o.ClangFlags = append(o.ClangFlags, w)
			default:
				return o, errorf(bad, "-cl-std=%s: CL1.1, CL1.2, CL2.0 or CL3.0", v)
			}
		case w == "-g":
			// OpenCL 2.0's debugging option: a line table (clang's
			// -gline-tables-only), so that faults and warnings name the
			// line of program.cl. Not by default: LLVM 14 keeps the odd
			// empty block with it, and the timing would move.
			o.Debug = true
		case w == "-cl-no-subgroup-ifp":
			// Sub-groups are not offered, so there is nothing to keep
			// from being independent.
		default:
			return o, errorf(bad, "build option %q is not an OpenCL C compiler option (-D, -I, -cl-*, -g, -w, -Werror)", w)
		}
	}
	return o, nil
}

// BuildInfo is a device's build of the program: its status, log, options
// and binary type.
func (p *Program) BuildInfo(d *Device) (status int32, log, options string, binType uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.builds[d]
	if b == nil {
		return BuildNone, "", "", BinaryNone
	}
	return b.Status, b.Log, b.Options, b.Type
}

// executable is the program's executable build for a device, if it has one.
func (p *Program) executable(d *Device) *build {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.builds[d]; b != nil && b.Status == BuildSuccess && b.Type == BinaryExecutable {
		return b
	}
	return nil
}

// KernelNames are the kernels of the program's executables
// (CL_PROGRAM_KERNEL_NAMES), sorted; none built is
// CL_INVALID_PROGRAM_EXECUTABLE.
func (p *Program) KernelNames() ([]string, error) {
	seen := map[string]bool{}
	var names []string
	built := false
	for _, d := range p.Devices {
		b := p.executable(d)
		if b == nil {
			continue
		}
		built = true
		for _, n := range b.Kernels {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if !built {
		return nil, errorf(InvalidProgramExecutable, "the program has no executable built")
	}
	sort.Strings(names)
	return names, nil
}

// KernelReleased tells the program one of its kernels is gone.
func (p *Program) KernelReleased() { p.kernels.Add(-1) }
