// Package oclref runs OpenCL C kernels on PoCL (the Portable Computing
// Language, a CPU OpenCL implementation) so that the simulator's results can
// be checked against an independent implementation.
//
// The OpenCL library is opened at run time with dlopen("libOpenCL.so.1"), so
// building needs neither the OpenCL headers nor the library; without cgo, or
// when the library or a platform is missing, Available and Run return an
// error that wraps ErrUnavailable and names the Debian packages to install.
package oclref

import (
	"errors"
	"fmt"

	"github.com/pocketgpu/pocketgpu/kernel"
)

// ErrUnavailable says that no OpenCL implementation can be used.
var ErrUnavailable = errors.New("the OpenCL reference (PoCL) is unavailable: install the Debian packages pocl-opencl-icd and ocl-icd-libopencl1")

// ErrNoMatch says that no OpenCL device has the platform and device names
// asked for.
var ErrNoMatch = errors.New("no OpenCL device matches")

// Result is what a Run produced.
type Result struct {
	// Args holds the final contents of each argument: buffers and images
	// (RGBA texels, rows packed) as little-endian bytes; nil for scalars and
	// local memory.
	Args [][]byte
	// Seconds is the kernel's execution time as the OpenCL profiling events
	// report it (the wall time of the enqueue and finish if profiling is not
	// available). It excludes building the program and copying the data.
	Seconds float64
	// Device names the platform and device that ran the kernel.
	Device string
}

// BuildError is a program that the OpenCL compiler rejected.
type BuildError struct {
	Log string // the build log
}

func (e *BuildError) Error() string { return "OpenCL program build failed:\n" + e.Log }

// clError names an OpenCL status code (values from the Khronos cl.h).
func clError(call string, code int) error {
	name := clErrorNames[code]
	if name == "" {
		name = "unknown error"
	}
	return fmt.Errorf("%s: %s (%d)", call, name, code)
}

var clErrorNames = map[int]string{
	-1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -3: "CL_COMPILER_NOT_AVAILABLE",
	-4: "CL_MEM_OBJECT_ALLOCATION_FAILURE", -5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY",
	-7: "CL_PROFILING_INFO_NOT_AVAILABLE", -9: "CL_IMAGE_FORMAT_MISMATCH", -10: "CL_IMAGE_FORMAT_NOT_SUPPORTED",
	-11: "CL_BUILD_PROGRAM_FAILURE", -30: "CL_INVALID_VALUE", -33: "CL_INVALID_DEVICE",
	-34: "CL_INVALID_CONTEXT", -36: "CL_INVALID_COMMAND_QUEUE", -37: "CL_INVALID_HOST_PTR",
	-38: "CL_INVALID_MEM_OBJECT", -39: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR", -40: "CL_INVALID_IMAGE_SIZE",
	-41: "CL_INVALID_SAMPLER", -43: "CL_INVALID_BUILD_OPTIONS", -44: "CL_INVALID_PROGRAM",
	-45: "CL_INVALID_PROGRAM_EXECUTABLE", -46: "CL_INVALID_KERNEL_NAME", -47: "CL_INVALID_KERNEL_DEFINITION",
	-48: "CL_INVALID_KERNEL", -49: "CL_INVALID_ARG_INDEX", -50: "CL_INVALID_ARG_VALUE",
	-51: "CL_INVALID_ARG_SIZE", -52: "CL_INVALID_KERNEL_ARGS", -53: "CL_INVALID_WORK_DIMENSION",
	-54: "CL_INVALID_WORK_GROUP_SIZE", -55: "CL_INVALID_WORK_ITEM_SIZE", -56: "CL_INVALID_GLOBAL_OFFSET",
	-58: "CL_INVALID_EVENT", -59: "CL_INVALID_OPERATION", -61: "CL_INVALID_BUFFER_SIZE",
	-63: "CL_INVALID_GLOBAL_WORK_SIZE", -65: "CL_INVALID_IMAGE_DESCRIPTOR",
}

// checkRun validates Run's arguments before anything is sent to OpenCL.
func checkRun(entry string, global, local []int, args []kernel.Arg, initial [][]byte) error {
	if entry == "" {
		return errors.New("no kernel entry point named")
	}
	if len(global) < 1 || len(global) > 3 {
		return fmt.Errorf("global size has %d dimensions; OpenCL takes 1 to 3", len(global))
	}
	for d, g := range global {
		if g <= 0 {
			return fmt.Errorf("global size %v: dimension %d is %d, not positive", global, d, g)
		}
	}
	if local != nil {
		if len(local) != len(global) {
			return fmt.Errorf("local size %v has %d dimensions, global size %v has %d", local, len(local), global, len(global))
		}
		for d := range local {
			if local[d] <= 0 || global[d]%local[d] != 0 {
				return fmt.Errorf("local size %v does not divide global size %v in dimension %d (OpenCL 1.2 requires it)", local, global, d)
			}
		}
	}
	if len(initial) != len(args) {
		return fmt.Errorf("%d initial contents for %d arguments", len(initial), len(args))
	}
	for i := range args {
		a := &args[i]
		switch a.Kind {
		case kernel.BufferArg, kernel.Image1DBufferArg, kernel.Image2DArg:
			if len(initial[i]) != a.ByteSize() {
				return fmt.Errorf("argument %d (%s): %d bytes of initial contents, want %d", i, a.Spec, len(initial[i]), a.ByteSize())
			}
		case kernel.ScalarArg:
			if initial[i] != nil && len(initial[i]) != len(a.Scalar) {
				return fmt.Errorf("argument %d (%s): %d-byte scalar, want %d", i, a.Spec, len(initial[i]), len(a.Scalar))
			}
		case kernel.LocalArg:
			if a.LocalBytes <= 0 {
				return fmt.Errorf("argument %d (%s): local size %d", i, a.Spec, a.LocalBytes)
			}
		default:
			return fmt.Errorf("argument %d (%s): unknown kind %v", i, a.Spec, a.Kind)
		}
	}
	return nil
}
