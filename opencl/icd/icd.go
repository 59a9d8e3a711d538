// Command icd is pocketgpu's OpenCL ICD: built with -buildmode=c-shared, it
// is the library an ICD loader (ocl-icd) loads for the "pocketgpu"
// platform, whose devices are the GPUs named in POCKETGPU_GPUS (comma
// separated: presets, GPU numbers or YAML files; default mali-g52). Its C
// half (icd.c, stubs.c) is the dispatch table; the answers come from
// package opencl.
//
//	go build -buildmode=c-shared -o DIR/libpocketgpu-icd.so ./opencl/icd
package main

//go:generate sh -c "go run ./internal/stubgen /usr/include/CL/cl_icd.h . > stubs.c"

/*
#include "icd.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/pocketgpu/pocketgpu/opencl"
)

func main() {}

var (
	initOnce sync.Once
	platform *opencl.Platform
	// functional runs kernels without the timing model
	// (POCKETGPU_FUNCTIONAL=1): results only, no simulated time.
	functional bool
)

// pgInit makes the platform from POCKETGPU_GPUS; it returns the number of
// devices, or 0 after printing why there are none.
//
//export pgInit
func pgInit() C.int {
	initOnce.Do(func() {
		functional = os.Getenv("POCKETGPU_FUNCTIONAL") == "1"
		spec := os.Getenv("POCKETGPU_GPUS")
		if strings.TrimSpace(spec) == "" {
			spec = "mali-g52"
		}
		p, err := opencl.NewPlatform(strings.Split(spec, ","))
		if err != nil {
			fmt.Fprintf(os.Stderr, "pocketgpu: POCKETGPU_GPUS=%q: %v\n", spec, err)
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
