package opencl

import (
	"encoding/binary"
	"errors"
)

// ErrInvalidValue is CL_INVALID_VALUE: a param_name the platform does not
// answer (OpenCL 2.x and 3.0 queries of a 1.2 platform among them).
var ErrInvalidValue = errors.New("CL_INVALID_VALUE")

// Parameter names (cl.h, cl_ext.h; values from the OpenCL specification).
const (
	PlatformProfileParam    = 0x0900
	PlatformVersionParam    = 0x0901
	PlatformNameParam       = 0x0902
	PlatformVendorParam     = 0x0903
	PlatformExtensionsParam = 0x0904
	PlatformICDSuffixParam  = 0x0920 // CL_PLATFORM_ICD_SUFFIX_KHR

	DeviceTypeGPU = 1 << 2
)

// PlatformInfo answers clGetPlatformInfo.
func (p *Platform) PlatformInfo(param uint32) ([]byte, error) {
	switch param {
	case PlatformProfileParam:
		return cstr(PlatformProfile), nil
	case PlatformVersionParam:
		return cstr(PlatformVersion), nil
	case PlatformNameParam:
		return cstr(PlatformName), nil
	case PlatformVendorParam:
		return cstr(PlatformVendor), nil
	case PlatformExtensionsParam:
		return cstr(PlatformExtensions), nil
	case PlatformICDSuffixParam:
		return cstr(ICDSuffix), nil
	}
	return nil, ErrInvalidValue
}

// Device limits the GPU descriptions do not hold, each the OpenCL 1.2 full
// profile's minimum or a value of the same order, so a program sizing
// itself by them stays within what the simulator models.
const (
	// assumed: 2 GiB of global memory; arch has no memory-size parameter,
	// and the phones of the seeds have 4 GB or more.
	globalMemBytes   = 2 << 30
	constantBufBytes = 64 << 10 // the 1.2 minimum
	image2DMaxSide   = 16384    // assumed: as gfx.MaxFrameSide
	image3DMaxSide   = 2048     // the 1.2 minimum
	imageMaxArray    = 2048     // the 1.2 minimum
	printfBufBytes   = 1 << 20  // the 1.2 minimum
)

// fp configuration bits (cl_device_fp_config).
const (
	fpDenorm         = 1 << 0
	fpInfNaN         = 1 << 1
	fpRoundToNearest = 1 << 2
	fpRoundToZero    = 1 << 3
	fpRoundToInf     = 1 << 4
	fpFMA            = 1 << 5
)

// DeviceInfo answers clGetDeviceInfo; platform is the handle the C side
// gives the platform (CL_DEVICE_PLATFORM returns it).
func (d *Device) DeviceInfo(param uint32, platform uint64) ([]byte, error) {
	g := d.GPU
	l2 := g.L2
	switch param {
	case 0x1000: // CL_DEVICE_TYPE
		return u64(DeviceTypeGPU), nil
	case 0x1001: // CL_DEVICE_VENDOR_ID
		return u32(d.driver.vendorID), nil
	case 0x1002: // CL_DEVICE_MAX_COMPUTE_UNITS
		return u32(uint32(d.ComputeUnits())), nil
	case 0x1003: // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS
		return u32(3), nil
	case 0x1004: // CL_DEVICE_MAX_WORK_GROUP_SIZE
		return u64(uint64(g.MaxWorkgroupSize)), nil
	case 0x1005: // CL_DEVICE_MAX_WORK_ITEM_SIZES
		n := uint64(g.MaxWorkgroupSize)
		return append(append(u64(n), u64(n)...), u64(n)...), nil
	case 0x1006, 0x1007, 0x1008, 0x1009, 0x100A, 0x100B, 0x1034: // CL_DEVICE_PREFERRED_VECTOR_WIDTH_*
		return u32(d.vectorWidth(param)), nil
	case 0x1036, 0x1037, 0x1038, 0x1039, 0x103A, 0x103B, 0x103C: // CL_DEVICE_NATIVE_VECTOR_WIDTH_*
		return u32(d.vectorWidth(param - 0x1036 + 0x1006)), nil
	case 0x100C: // CL_DEVICE_MAX_CLOCK_FREQUENCY
		return u32(uint32(g.ClockMHz)), nil
	case 0x100D: // CL_DEVICE_ADDRESS_BITS
		return u32(64), nil
	case 0x100E: // CL_DEVICE_MAX_READ_IMAGE_ARGS
		return u32(128), nil
	case 0x100F: // CL_DEVICE_MAX_WRITE_IMAGE_ARGS
		return u32(8), nil
	case 0x1010: // CL_DEVICE_MAX_MEM_ALLOC_SIZE
		return u64(globalMemBytes / 4), nil
	case 0x1011, 0x1012: // CL_DEVICE_IMAGE2D_MAX_WIDTH, _HEIGHT
		return u64(image2DMaxSide), nil
	case 0x1013, 0x1014, 0x1015: // CL_DEVICE_IMAGE3D_MAX_*
		return u64(image3DMaxSide), nil
	case 0x1016: // CL_DEVICE_IMAGE_SUPPORT
		return boolean(true), nil
	case 0x1017: // CL_DEVICE_MAX_PARAMETER_SIZE
		return u64(1024), nil
	case 0x1018: // CL_DEVICE_MAX_SAMPLERS
		return u32(16), nil
	case 0x1019: // CL_DEVICE_MEM_BASE_ADDR_ALIGN (bits)
		return u32(1024), nil
	case 0x101A: // CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE
		return u32(128), nil
	case 0x101B: // CL_DEVICE_SINGLE_FP_CONFIG
		return u64(fpInfNaN | fpRoundToNearest | fpFMA), nil
	case 0x101C: // CL_DEVICE_GLOBAL_MEM_CACHE_TYPE
		return u32(2), nil // CL_READ_WRITE_CACHE
	case 0x101D: // CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE
		return u32(uint32(l2.LineBytes)), nil
	case 0x101E: // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
		return u64(uint64(l2.SizeKiB) << 10), nil
	case 0x101F: // CL_DEVICE_GLOBAL_MEM_SIZE
		return u64(globalMemBytes), nil
	case 0x1020: // CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE
		return u64(constantBufBytes), nil
	case 0x1021: // CL_DEVICE_MAX_CONSTANT_ARGS
		return u32(8), nil
	case 0x1022: // CL_DEVICE_LOCAL_MEM_TYPE: CL_LOCAL on chip, CL_GLOBAL in system memory
		if g.LocalMemory.Kind == "on_chip" {
			return u32(1), nil
		}
		return u32(2), nil
	case 0x1023: // CL_DEVICE_LOCAL_MEM_SIZE
		return u64(uint64(g.LocalMemory.MaxPerWorkgroupKiB) << 10), nil
	case 0x1024: // CL_DEVICE_ERROR_CORRECTION_SUPPORT
		return boolean(false), nil
	case 0x1025: // CL_DEVICE_PROFILING_TIMER_RESOLUTION (ns): the simulated clock counts nanoseconds
		return u64(1), nil
	case 0x1026, 0x1027, 0x1028, 0x103E: // ENDIAN_LITTLE, AVAILABLE, COMPILER_AVAILABLE, LINKER_AVAILABLE
		return boolean(true), nil
	case 0x1029: // CL_DEVICE_EXECUTION_CAPABILITIES
		return u64(1), nil // CL_EXEC_KERNEL
	case 0x102A: // CL_DEVICE_QUEUE_PROPERTIES: out-of-order (run in order) and profiling
		return u64(3), nil
	case 0x102B: // CL_DEVICE_NAME
		return cstr(d.Name()), nil
	case 0x102C: // CL_DEVICE_VENDOR
		return cstr(d.driver.vendor), nil
	case 0x102D: // CL_DRIVER_VERSION
		return cstr("pocketgpu"), nil
	case 0x102E: // CL_DEVICE_PROFILE
		return cstr(PlatformProfile), nil
	case 0x102F: // CL_DEVICE_VERSION
		return cstr("OpenCL 1.2 " + d.driver.version), nil
	case 0x1030: // CL_DEVICE_EXTENSIONS
		return cstr(d.Extensions()), nil
	case 0x1031: // CL_DEVICE_PLATFORM
		return u64(platform), nil
	case 0x1032: // CL_DEVICE_DOUBLE_FP_CONFIG
		if g.HasFP64() {
			return u64(fpDenorm | fpInfNaN | fpRoundToNearest | fpRoundToZero | fpRoundToInf | fpFMA), nil
		}
		return u64(0), nil
	case 0x1033: // CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16)
		if op, ok := g.Op("fp16_mad"); ok && !op.Unsupported {
			return u64(fpInfNaN | fpRoundToNearest | fpFMA), nil
		}
		return nil, ErrInvalidValue
	case 0x1035: // CL_DEVICE_HOST_UNIFIED_MEMORY: a SoC GPU shares the host's DRAM
		return boolean(true), nil
	case 0x103D: // CL_DEVICE_OPENCL_C_VERSION
		return cstr("OpenCL C 1.2 "), nil
	case 0x103F: // CL_DEVICE_BUILT_IN_KERNELS
		return cstr(""), nil
	case 0x1040: // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE
		return u64(uint64(g.ImageMaxBufferTexels())), nil // texture.buffer_max_texels
	case 0x1041: // CL_DEVICE_IMAGE_MAX_ARRAY_SIZE
		return u64(imageMaxArray), nil
	case 0x1042: // CL_DEVICE_PARENT_DEVICE: none
		return u64(0), nil
	case 0x1043: // CL_DEVICE_PARTITION_MAX_SUB_DEVICES
		return u32(0), nil
	case 0x1044, 0x1046: // CL_DEVICE_PARTITION_PROPERTIES, _TYPE: none
		return u64(0), nil
	case 0x1045: // CL_DEVICE_PARTITION_AFFINITY_DOMAIN
		return u64(0), nil
	case 0x1047: // CL_DEVICE_REFERENCE_COUNT (a root device)
		return u32(1), nil
	case 0x1048: // CL_DEVICE_PREFERRED_INTEROP_USER_SYNC
		return boolean(true), nil
	case 0x1049: // CL_DEVICE_PRINTF_BUFFER_SIZE
		return u64(printfBufBytes), nil
	case 0x105B: // CL_DEVICE_IL_VERSION (cl_khr_il_program)
		return cstr("SPIR-V_1.0"), nil
	}
	return nil, ErrInvalidValue
}

// vectorWidth answers the PREFERRED_VECTOR_WIDTH queries. Midgard's
// arithmetic units are vec4 VLIW over midgard.work_register_bits (128), so
// a vector of each type filling a work register is preferred; the other
// families issue scalar instructions per thread, with
// two halves packed in one 32-bit lane where fp16 runs at double rate.
// Doubles: 0 without fp64.
func (d *Device) vectorWidth(param uint32) uint32 {
	bits := map[uint32]uint32{0x1006: 8, 0x1007: 16, 0x1008: 32, 0x1009: 64, 0x100A: 32, 0x100B: 64, 0x1034: 16}[param]
	if param == 0x100B && !d.GPU.HasFP64() {
		return 0
	}
	if param == 0x1034 {
		op, ok := d.GPU.Op("fp16_mad")
		if !ok || op.Unsupported {
			return 0
		}
	}
	if m := d.GPU.Midgard; m != nil {
		return uint32(m.WorkRegisterBits) / bits
	}
	if param == 0x1034 {
		if op, _ := d.GPU.Op("fp16_mad"); op.Pack > 1 {
			return uint32(op.Pack)
		}
	}
	return 1
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// boolean is a cl_bool (a 32-bit unsigned integer).
func boolean(b bool) []byte {
	if b {
		return u32(1)
	}
	return u32(0)
}

// cstr is a NUL-terminated string, as info queries return them.
func cstr(s string) []byte { return append([]byte(s), 0) }
