// Command icd is pocketgpu's OpenCL ICD: built with -buildmode=c-shared, it
// is the library an ICD loader (ocl-icd) loads for the "pocketgpu"
// platform, whose devices are the GPUs named in POCKETGPU_GPUS (comma
// separated: presets, GPU numbers or YAML files; default mali-g52). Its C
// half (icd.c, stubs.c) is the dispatch table; the answers come from
// package opencl. More environment variables, which pocketgpu exec sets:
//
//	POCKETGPU_FUNCTIONAL=1      results only, no timing model
//	POCKETGPU_REPORT=FILE       a JSON line per finished command
//	POCKETGPU_VIRTUAL_CLOCK=1   move the program's clocks by simulated time
//	                            (needs the clock shim preloaded)
//	POCKETGPU_TRACE=FILE        a Perfetto timeline of the commands and
//	                            kernels, written when the last context is
//	                            released and when the program exits
//	POCKETGPU_TRACE_INTERVAL=N  its sampling window in GPU cycles (1000)
//	POCKETGPU_DETAIL=full       simulate every launch in detail (default
//	                            auto: a repeat of a launch from the same
//	                            cache state reuses its figures, exactly)
//	POCKETGPU_STRICT=1          fault a kernel that reaches local memory
//	                            outside its work-group's (by default it
//	                            runs on, with a warning)
//	POCKETGPU_CPUPROFILE=FILE   a Go CPU profile of the simulator's host
//	                            time, written when the program exits
//
//	go build -buildmode=c-shared -o DIR/libpocketgpu-icd.so ./opencl/icd
package main

//go:generate sh -c "go run ./internal/stubgen /usr/include/CL/cl_icd.h . > stubs.c"

/*
#cgo LDFLAGS: -ldl
#include "icd.h"
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/internal/hostprof"
	"github.com/pocketgpu/pocketgpu/opencl"
)

func main() {}

var (
	initOnce sync.Once
	platform *opencl.Platform
	// functional runs kernels without the timing model
	// (POCKETGPU_FUNCTIONAL=1): results only, no simulated time.
	functional bool
	// detail is POCKETGPU_DETAIL: auto (repeats of a launch reuse its
	// figures) or full (every launch simulated).
	detail device.Detail
	// strict is POCKETGPU_STRICT=1: a kernel that reaches local memory
	// outside its work-group's faults instead of running on.
	strict bool
)

// pgInit makes the platform from POCKETGPU_GPUS; it returns the number of
// devices, or 0 after printing why there are none.
//
//export pgInit
func pgInit() C.int {
	initOnce.Do(func() {
		stopProfile = hostprof.Start()
		functional = os.Getenv("POCKETGPU_FUNCTIONAL") == "1"
		strict = os.Getenv("POCKETGPU_STRICT") == "1"
		d, ok := device.ParseDetail(os.Getenv("POCKETGPU_DETAIL"))
		if !ok {
			fmt.Fprintf(os.Stderr, "pocketgpu: POCKETGPU_DETAIL=%q: want auto or full\n", os.Getenv("POCKETGPU_DETAIL"))
			return
		}
		detail = d
		spec := os.Getenv("POCKETGPU_GPUS")
		if strings.TrimSpace(spec) == "" {
			spec = "mali-g52"
		}
		p, err := opencl.NewPlatform(strings.Split(spec, ","))
		if err != nil {
			fmt.Fprintf(os.Stderr, "pocketgpu: POCKETGPU_GPUS=%q: %v\n", spec, err)
			return
		}
		p.Printf = cStdout{}
		p.Warn = func(msg string) { fmt.Fprintf(os.Stderr, "pocketgpu: warning: %s\n", msg) }
		if err := observe(p); err != nil {
			fmt.Fprintf(os.Stderr, "pocketgpu: %v\n", err)
			return
		}
		platform = p
	})
	if platform == nil {
		return 0
	}
	return C.int(len(platform.Devices))
}

//export pgPlatformInfo
func pgPlatformInfo(param C.cl_platform_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) C.cl_int {
	if pgInit() == 0 {
		return C.CL_INVALID_PLATFORM
	}
	b, err := platform.PlatformInfo(uint32(param))
	return writeInfo(b, err, size, value, sizeRet)
}

//export pgDeviceInfo
func pgDeviceInfo(index C.int, param C.cl_device_info, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t, platformHandle C.ulonglong) C.cl_int {
	if pgInit() == 0 || int(index) < 0 || int(index) >= len(platform.Devices) {
		return C.CL_INVALID_DEVICE
	}
	b, err := platform.Devices[index].DeviceInfo(uint32(param), uint64(platformHandle))
	return writeInfo(b, err, size, value, sizeRet)
}

// writeInfo returns an info query's answer the OpenCL way: the size
// through size_ret, the bytes into value when it is big enough.
func writeInfo(b []byte, err error, size C.size_t, value unsafe.Pointer, sizeRet *C.size_t) C.cl_int {
	if errors.Is(err, opencl.ErrInvalidValue) {
		return C.CL_INVALID_VALUE
	}
	if err != nil {
		return C.CL_OUT_OF_HOST_MEMORY
	}
	if value != nil {
		if int(size) < len(b) {
			return C.CL_INVALID_VALUE
		}
		copy(unsafe.Slice((*byte)(value), len(b)), b)
	}
	if sizeRet != nil {
		*sizeRet = C.size_t(len(b))
	}
	return C.CL_SUCCESS
}

// observe sets up what the environment asks to watch: the report file and
// the virtual clock.
func observe(p *opencl.Platform) error {
	if path := os.Getenv("POCKETGPU_REPORT"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("POCKETGPU_REPORT: %w", err)
		}
		// One line per command, written as it finishes, so a program
		// that is killed still leaves a report of what it ran.
		enc := json.NewEncoder(f)
		p.Recorder = func(r opencl.CommandRecord) {
			if err := enc.Encode(r); err != nil {
				fmt.Fprintf(os.Stderr, "pocketgpu: POCKETGPU_REPORT: %v\n", err)
			}
		}
	}
	if path := os.Getenv("POCKETGPU_TRACE"); path != "" {
		if err := enableTrace(p, path, os.Getenv("POCKETGPU_TRACE_INTERVAL")); err != nil {
			return err
		}
	}
	if os.Getenv("POCKETGPU_VIRTUAL_CLOCK") == "1" {
		if C.pg_clock_attach() == 0 {
			return errors.New("POCKETGPU_VIRTUAL_CLOCK=1 needs the clock shim preloaded (LD_PRELOAD=.../libpocketgpu-clock.so; pocketgpu exec --virtual-clock does it)")
		}
		p.Clock = opencl.NewVirtualClock(func(ns int64) { C.pg_clock_publish(C.longlong(ns)) })
	}
	return nil
}

// inPlatform stops the program's virtual clock, if it has one, until the
// function it returns is called: the host time an API call takes inside
// pocketgpu is the simulator's, not the program's.
func inPlatform() func() {
	if platform == nil || platform.Clock == nil {
		return func() {}
	}
	c := platform.Clock
	c.Enter()
	return c.Leave
}

// traced is the platform once it traces (POCKETGPU_TRACE), for the exit
// hook, which must not set the platform up.
var traced atomic.Pointer[opencl.Platform]

// enableTrace has p record its timeline to path.
func enableTrace(p *opencl.Platform, path, interval string) error {
	if functional {
		return errors.New("POCKETGPU_TRACE needs the timing model: unset POCKETGPU_FUNCTIONAL")
	}
	cycles := 0.0 // the default
	if interval != "" {
		v, err := strconv.ParseFloat(interval, 64)
		if err != nil || !(v >= 1) || math.IsInf(v, 1) {
			return fmt.Errorf("POCKETGPU_TRACE_INTERVAL=%q: want a number of cycles, 1 or more", interval)
		}
		cycles = v
	}
	name := "pocketgpu exec"
	if len(os.Args) > 0 {
		name += " " + filepath.Base(os.Args[0])
	}
	if err := p.EnableTrace(path, cycles, name); err != nil {
		return fmt.Errorf("POCKETGPU_TRACE: %w", err)
	}
	traced.Store(p)
	return nil
}

// writeTrace writes the trace so far, if the platform traces.
func writeTrace() {
	p := traced.Load()
	if p == nil {
		return
	}
	if _, err := p.WriteTrace(); err != nil {
		fmt.Fprintf(os.Stderr, "pocketgpu: POCKETGPU_TRACE: %v\n", err)
	}
}

// pgTraceExit is the C exit hook's (icd.c).
//
//export pgTraceExit
func pgTraceExit() {
	writeTrace()
	stopProfile()
}

// stopProfile ends POCKETGPU_CPUPROFILE's profile of the ICD's host time
// (internal/hostprof) when the program exits.
var stopProfile = func() {}

// cStdout writes to the C library's stdout (kernels' printf output).
type cStdout struct{}

func (cStdout) Write(b []byte) (int, error) {
	if len(b) > 0 {
		C.pg_stdout_write((*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b)))
	}
	return len(b), nil
}
