package probe

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Backend is an OpenCL device as the probe drives it: the few calls every
// measurement needs. The simulated GPUs (package opencl, in process) and any
// device behind the ICD loader implement it, so the measurement code is the
// same for both.
type Backend interface {
	// Info answers the device queries the probe may read (ArchProbe reads
	// the same ones); everything else is measured.
	Info() Info
	// Kernel loads an entry point of the probe's kernels (kernels/probe.cl).
	Kernel(name string) (Kernel, error)
	// KernelWorkGroup is the largest work-group k runs with
	// (CL_KERNEL_WORK_GROUP_SIZE: its registers may allow fewer work-items
	// than the device's maximum).
	KernelWorkGroup(k Kernel) (int, error)
	// Buffer makes a device buffer holding data.
	Buffer(data []byte) (Buffer, error)
	// Read returns the first n bytes of a buffer (after the runs before it).
	Read(b Buffer, n int) ([]byte, error)
	// Image1D views a buffer as an image1d_buffer of texels RGBA texels of
	// 32-bit unsigned channels, for the texture path; its handle is passed
	// as a Buf argument.
	Image1D(b Buffer, texels int) (Buffer, error)
	// Run runs k with args over a 1-D NDRange and returns the kernel's
	// device time in nanoseconds (its profiling events).
	Run(k Kernel, args []Arg, global, local int) (float64, error)
	// Close releases what the backend holds.
	Close()
}

// Kernel and Buffer are a backend's own handles.
type (
	Kernel any
	Buffer any
)

// Arg is one kernel argument: a buffer, a value (little-endian bytes), or
// a __local allocation of Local bytes.
type Arg struct {
	Buf   Buffer
	Value []byte
	Local int
}

// U32 and F32 make value arguments.
func U32(v uint32) Arg { return Arg{Value: binary.LittleEndian.AppendUint32(nil, v)} }

// F32 is a float value argument.
func F32(v float32) Arg { return Arg{Value: binary.LittleEndian.AppendUint32(nil, mathFloat32bits(v))} }

// F16 is a half value argument (IEEE binary16).
func F16(v float32) Arg { return Arg{Value: binary.LittleEndian.AppendUint16(nil, half(v))} }

// Info is what the device says about itself (clGetDeviceInfo).
type Info struct {
	Name, Vendor, Platform string
	ClockMHz               int // CL_DEVICE_MAX_CLOCK_FREQUENCY
	ComputeUnits           int // CL_DEVICE_MAX_COMPUTE_UNITS
	MaxWorkGroup           int // CL_DEVICE_MAX_WORK_GROUP_SIZE
	LocalMemBytes          int // CL_DEVICE_LOCAL_MEM_SIZE
	GlobalMemBytes         int // CL_DEVICE_GLOBAL_MEM_SIZE
	FP16                   bool
}

// OpenCL device-info parameters (values from the Khronos cl.h).
const (
	clDeviceMaxComputeUnits   = 0x1002
	clDeviceMaxWorkGroupSize  = 0x1004
	clDeviceMaxClockFrequency = 0x100C
	clDeviceGlobalMemSize     = 0x101F
	clDeviceLocalMemSize      = 0x1023
	clDeviceName              = 0x102B
	clDeviceVendor            = 0x102C
	clDeviceExtensions        = 0x1030
)

// infoFrom fills an Info from a raw query function (clGetDeviceInfo's
// bytes); both backends answer through it so that they read the same
// fields the same way.
func infoFrom(query func(param uint32) ([]byte, error)) (Info, error) {
	var in Info
	str := func(p uint32) string {
		b, err := query(p)
		if err != nil {
			return ""
		}
		return cString(b)
	}
	num := func(p uint32) (int, error) {
		b, err := query(p)
		if err != nil {
			return 0, err
		}
		switch len(b) {
		case 4:
			return int(binary.LittleEndian.Uint32(b)), nil
		case 8:
			return int(binary.LittleEndian.Uint64(b)), nil
		}
		return 0, fmt.Errorf("device info 0x%X: %d bytes", p, len(b))
	}
	in.Name, in.Vendor = str(clDeviceName), str(clDeviceVendor)
	var err error
	if in.ClockMHz, err = num(clDeviceMaxClockFrequency); err != nil {
		return in, fmt.Errorf("CL_DEVICE_MAX_CLOCK_FREQUENCY: %w", err)
	}
	if in.ComputeUnits, err = num(clDeviceMaxComputeUnits); err != nil {
		return in, fmt.Errorf("CL_DEVICE_MAX_COMPUTE_UNITS: %w", err)
	}
	if in.MaxWorkGroup, err = num(clDeviceMaxWorkGroupSize); err != nil {
		return in, fmt.Errorf("CL_DEVICE_MAX_WORK_GROUP_SIZE: %w", err)
	}
	in.LocalMemBytes, _ = num(clDeviceLocalMemSize)
	in.GlobalMemBytes, _ = num(clDeviceGlobalMemSize)
	in.FP16 = containsWord(str(clDeviceExtensions), "cl_khr_fp16")
	if in.ClockMHz <= 0 {
		return in, errors.New("the device reports no clock frequency (CL_DEVICE_MAX_CLOCK_FREQUENCY is 0): rates per clock cannot be normalised")
	}
	return in, nil
}
