package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/device"
)

func init() { subcommands = append(subcommands, newExecCmd) }

// execOptions are exec's flags.
type execOptions struct {
	gpus         []string
	functional   bool
	report       string
	virtualClock bool
	icdDir       string
	trace        traceFlags
	detail       device.Detail
	detailSet    bool // --detail was given: it overrides POCKETGPU_DETAIL
	strict       bool
}

func newExecCmd() *cobra.Command {
	var o execOptions
	cmd := &cobra.Command{
		Use:   "exec [flags] -- PROGRAM [ARGS...]",
		Short: "Run an OpenCL program on simulated GPUs",
		Long: `exec runs an unmodified OpenCL program with the simulated GPUs as its only
OpenCL platform ("pocketgpu"): each --gpu is one device. Kernels give the
right results and take their simulated time: every command's profiling times
(QUEUED, SUBMIT, START, END) are on the simulated device's clock, so a
program that times itself with events measures the simulated GPU.

The first run builds pocketgpu's OpenCL ICD from this clone (it needs gcc and
the OpenCL headers: Debian packages gcc and opencl-c-headers) into the user
cache directory; later runs reuse it until the source changes. exec then runs
PROGRAM with the ICD loader pointed at it. To set the loader up yourself (in a
container, say), build the ICD with pocketgpu icd --out DIR and set:

  OCL_ICD_VENDORS=DIR                  the loader reads only DIR/pocketgpu.icd
  POCKETGPU_GPUS=mali-g52,adreno-640   the devices (what --gpu takes)
  POCKETGPU_FUNCTIONAL=1               as --functional
  POCKETGPU_REPORT=FILE                a JSON line per command, as it ends
  POCKETGPU_VIRTUAL_CLOCK=1 LD_PRELOAD=DIR/libpocketgpu-clock.so
                                       as --virtual-clock
  POCKETGPU_TRACE=FILE                 as --trace: a Perfetto timeline, written
                                       when the last context is released and
                                       when the program exits
  POCKETGPU_TRACE_INTERVAL=CYCLES      as --trace-interval (default 1000)
  POCKETGPU_DETAIL=full                as --detail full
  POCKETGPU_STRICT=1                   as --strict

--virtual-clock is for programs that time the GPU with the host's clock
(gettimeofday, clock_gettime, std::chrono around an enqueue and clFinish): it
preloads a small shim over the C library's clock functions, so that while the
program waits for the device its clocks advance by the simulated time, and the
host time the simulation takes is not seen.

exec exits with the program's exit status.`,
		Example: `  pocketgpu exec --gpu mali-g52 --gpu adreno-640 -- clinfo -l
  pocketgpu exec --gpu adreno-640 --report saxpy.json -- python3 examples/saxpy.py
  pocketgpu exec --gpu mali-g52 --trace saxpy.pftrace -- python3 examples/saxpy.py`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExec(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // flags after PROGRAM are the program's
	f.StringArrayVar(&o.gpus, "gpu", nil, "a device of the platform (repeat for more; default mali-g52): "+gpuArgHelp)
	f.BoolVar(&o.functional, "functional", false, "results only: kernels run without the timing model, commands take no simulated time")
	f.StringVar(&o.report, "report", "", "write every command (kernel, sizes, simulated time, counters) to FILE as JSON, and print a summary at exit")
	f.BoolVar(&o.virtualClock, "virtual-clock", false, "make the program's clocks show simulated time while it waits for the device")
	f.StringVar(&o.icdDir, "icd", "", "use the ICD pocketgpu icd --out DIR built, instead of building one")
	addTraceFlags(cmd, &o.trace, runInterval)
	addDetailFlag(cmd, &o.detail)
	f.BoolVar(&o.strict, "strict", false, "fault a kernel that reaches local memory outside its work-group's (CL_OUT_OF_RESOURCES; by default it runs on, as on a GPU, with a warning naming the source line)")
	nameArgs(cmd, "gpu", "GPU")
	nameArgs(cmd, "report", "FILE")
	nameArgs(cmd, "icd", "DIR")
	return cmd
}

// programExit is the exit status of the program exec ran: exec exits with
// it, saying nothing more.
type programExit struct{ code int }

func (e programExit) Error() string { return fmt.Sprintf("the program exited with status %d", e.code) }

func runExec(cmd *cobra.Command, o execOptions, args []string) error {
	stderr := cmd.ErrOrStderr()
	o.detailSet = cmd.Flags().Changed("detail")
	if v := os.Getenv("POCKETGPU_DETAIL"); !o.detailSet && v != "" {
		if _, ok := device.ParseDetail(v); !ok {
			return badInputf("POCKETGPU_DETAIL=%q: want auto or full", v)
		}
	}
	if len(o.gpus) == 0 {
		o.gpus = []string{"mali-g52"}
	}
	var gpus []string
	for _, name := range o.gpus {
		for _, n := range strings.Split(name, ",") {
			if _, err := resolveGPU(n); err != nil {
				return err
			}
			// The program may run elsewhere; a YAML file is named in full.
			if _, err := os.Stat(n); err == nil {
				if abs, err := filepath.Abs(n); err == nil {
					n = abs
				}
			}
			gpus = append(gpus, n)
		}
	}
	if err := o.trace.check(cmd); err != nil {
		return err
	}
	if o.trace.file != "" && o.functional {
		return badInputf("--trace needs the timing model: drop --functional")
	}
	program, err := exec.LookPath(args[0])
	if err != nil {
		return badInputf("%s: %v", args[0], err)
	}
	var report *reportFile
	if o.report != "" {
		if report, err = newReportFile(o.report); err != nil {
			return err
		}
		defer report.cleanup()
	}
	var traceFile string
	ran := false
	if o.trace.file != "" {
		if traceFile, err = createExecTrace(o.trace.file); err != nil {
			return err
		}
		// An error before the program runs leaves no empty file behind.
		defer func() {
			if !ran {
				os.Remove(traceFile)
			}
		}()
	}
	dir := o.icdDir
	if dir == "" {
		if dir, err = cachedICD(cmd); err != nil {
			return err
		}
	} else if _, err := os.Stat(filepath.Join(dir, icdLibrary)); err != nil {
		return badInputf("--icd %s: no %s there: build it with pocketgpu icd --out %s", dir, icdLibrary, dir)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	env := execEnv(os.Environ(), dir, gpus, o)
	if report != nil {
		env = append(env, "POCKETGPU_REPORT="+report.lines)
	}
	if traceFile != "" {
		env = append(env, "POCKETGPU_TRACE="+traceFile, fmt.Sprintf("POCKETGPU_TRACE_INTERVAL=%g", o.trace.interval))
	}
	run := exec.Command(program, args[1:]...)
	run.Args[0] = args[0]
	run.Env = env
	run.Stdin, run.Stdout, run.Stderr = os.Stdin, cmd.OutOrStdout(), stderr
	// Ctrl-C reaches the program (it is in our process group); exec waits
	// for it to end and still writes the report of what ran.
	runErr := run.Run()
	ran = true
	if report != nil {
		if err := report.finish(stderr, gpus); err != nil {
			return err
		}
	}
	if traceFile != "" {
		finishExecTrace(stderr, o.trace.file, traceFile)
	}
	var exit *exec.ExitError
	if errors.As(runErr, &exit) {
		code := exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		return programExit{code}
	}
	if runErr != nil {
		return fmt.Errorf("running %s: %w", args[0], runErr)
	}
	return nil
}

// execEnv is the program's environment: the loader pointed at the ICD in
// dir alone, the GPUs, and what the flags ask for.
func execEnv(base []string, dir string, gpus []string, o execOptions) []string {
	drop := map[string]bool{"OCL_ICD_VENDORS": true, "OCL_ICD_FILENAMES": true, "POCKETGPU_GPUS": true,
		"POCKETGPU_FUNCTIONAL": true, "POCKETGPU_REPORT": true, "POCKETGPU_VIRTUAL_CLOCK": true,
		"POCKETGPU_TRACE": true, "POCKETGPU_TRACE_INTERVAL": true, "POCKETGPU_DETAIL": o.detailSet}
	var env []string
	preload := ""
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case drop[k]:
		case k == "LD_PRELOAD":
			preload = v
		default:
			env = append(env, kv)
		}
	}
	env = append(env,
		"OCL_ICD_VENDORS="+dir,
		// The Khronos loader and newer ocl-icd read this one first.
		"OCL_ICD_FILENAMES="+filepath.Join(dir, icdLibrary),
		"POCKETGPU_GPUS="+strings.Join(gpus, ","))
	if o.functional {
		env = append(env, "POCKETGPU_FUNCTIONAL=1")
	}
	if o.strict {
		env = append(env, "POCKETGPU_STRICT=1")
	}
	if o.detailSet {
		// Otherwise the program sees the user's own POCKETGPU_DETAIL.
		env = append(env, "POCKETGPU_DETAIL="+o.detail.String())
	}
	if o.virtualClock {
		env = append(env, "POCKETGPU_VIRTUAL_CLOCK=1")
		shim := filepath.Join(dir, clockShimLibrary)
		if preload != "" {
			shim += ":" + preload
		}
		preload = shim
	}
	if preload != "" {
		env = append(env, "LD_PRELOAD="+preload)
	}
	return env
}

// The trace of exec is written by the platform, inside the program: the
// whole timeline again when its last context is released and when it
// exits (an atexit hook of the ICD), each time by renaming a complete
// file over the last. So a program that never releases its context, or
// that dies after releasing it, still leaves a whole trace, and there is
// no partial file to merge afterwards. One process's timeline: if the
// program starts several OpenCL processes, the last to write wins.

// createExecTrace makes the trace file, so a bad path fails before the
// program runs, and returns its absolute path (the program may change
// directory).
func createExecTrace(name string) (string, error) {
	f, err := os.Create(name)
	if err != nil {
		return "", badInputf("--trace %s: %v", name, unwrapPath(err))
	}
	f.Close()
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	return abs, nil
}

// finishExecTrace says what the program left in the trace file; an empty
// one (no context made on the platform) is removed.
func finishExecTrace(stderr io.Writer, name, path string) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "--trace %s: %v\n", name, unwrapPath(err))
	case st.Size() == 0:
		os.Remove(path)
		fmt.Fprintf(stderr, "no trace written to %s: the program used no pocketgpu device, or was killed before it released its context or exited\n", name)
	default:
		fmt.Fprintf(stderr, "wrote trace %s (%d bytes)\n", name, st.Size())
	}
}
