// The entry points the ICD loader calls, and the dispatch table behind
// every pocketgpu object. What they answer comes from Go (icd.go, package
// opencl); this file only checks handles and moves bytes.
#include "icd.h"
#include "_cgo_export.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_icd_dispatch table;
static struct _cl_platform_id platform = {&table};
static struct _cl_device_id *devices;
static int ndevices = -1; // -1: not initialized; 0: the GPUs could not be set up

void pg_unsupported(const char *name) {
	fprintf(stderr, "pocketgpu: %s is not supported yet; it returns CL_INVALID_OPERATION\n", name);
}

// setup makes the platform's devices once, from POCKETGPU_GPUS.
static int setup(void) {
	if (ndevices >= 0) {
		return ndevices;
	}
	int n = pgInit();
	if (n <= 0) {
		ndevices = 0;
		return 0;
	}
	devices = calloc((size_t)n, sizeof *devices);
	if (devices == NULL) {
		ndevices = 0;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		devices[i].dispatch = &table;
		devices[i].index = i;
	}
	ndevices = n;
	return n;
}

static volatile int64_t *clock_offset;

int pg_clock_attach(void) {
	clock_offset = (volatile int64_t *)dlsym(RTLD_DEFAULT, "pocketgpu_clock_offset_ns");
	return clock_offset != NULL;
}

void pg_clock_publish(long long offset_ns) {
	if (clock_offset != NULL) {
		__atomic_store_n(clock_offset, (int64_t)offset_ns, __ATOMIC_RELEASE);
	}
}

cl_icd_dispatch *pg_table(void) { return &table; }

cl_platform_id pg_platform(void) { return &platform; }

cl_device_id pg_device(int i) { return setup() > i && i >= 0 ? &devices[i] : NULL; }

void pg_stdout_write(const char *p, size_t n) {
	fwrite(p, 1, n, stdout);
}

int pg_device_index(cl_device_id d) {
	if (setup() <= 0 || d < devices || d >= devices + ndevices) {
		return -1;
	}
	return d->index;
}

static int valid_device(cl_device_id d) {
	return setup() > 0 && d >= devices && d < devices + ndevices;
}

static cl_int CL_API_CALL pg_GetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
	if ((num_entries == 0 && platforms != NULL) || (platforms == NULL && num_platforms == NULL)) {
		return CL_INVALID_VALUE;
	}
	if (setup() == 0) {
		if (num_platforms) *num_platforms = 0;
		return CL_PLATFORM_NOT_FOUND_KHR;
	}
	if (platforms) platforms[0] = &platform;
	if (num_platforms) *num_platforms = 1;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL pg_GetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size, void *value, size_t *size_ret) {
	if (p != NULL && p != &platform) {
		return CL_INVALID_PLATFORM;
	}
	return pgPlatformInfo(param, size, value, size_ret);
}

static cl_int CL_API_CALL pg_GetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint num_entries, cl_device_id *out, cl_uint *num_devices) {
	if (p != NULL && p != &platform) {
		return CL_INVALID_PLATFORM;
	}
	if ((num_entries == 0 && out != NULL) || (out == NULL && num_devices == NULL)) {
		return CL_INVALID_VALUE;
	}
	const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
		CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
	if (type != CL_DEVICE_TYPE_ALL && (type & ~known) != 0) {
		return CL_INVALID_DEVICE_TYPE;
	}
	int n = setup();
	if (!(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)) || n == 0) {
		if (num_devices) *num_devices = 0;
		return CL_DEVICE_NOT_FOUND;
	}
	if (type == CL_DEVICE_TYPE_DEFAULT) {
		n = 1; // the first GPU is the default device
	}
	for (int i = 0; out != NULL && i < n && (cl_uint)i < num_entries; i++) {
		out[i] = &devices[i];
	}
	if (num_devices) *num_devices = (cl_uint)n;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL pg_GetDeviceInfo(cl_device_id d, cl_device_info param, size_t size, void *value, size_t *size_ret) {
	if (!valid_device(d)) {
		return CL_INVALID_DEVICE;
	}
	return pgDeviceInfo(d->index, param, size, value, size_ret, (unsigned long long)(uintptr_t)&platform);
}

static cl_int CL_API_CALL pg_RetainDevice(cl_device_id d) {
	return valid_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE; // root devices are not counted
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
	return pg_GetPlatformIDs(num_entries, platforms, num_platforms);
}

static void *CL_API_CALL pg_GetExtensionFunctionAddress(const char *name) {
	if (name != NULL && strcmp(name, "clIcdGetPlatformIDsKHR") == 0) {
		return (void *)clIcdGetPlatformIDsKHR;
	}
	return NULL;
}

static void *CL_API_CALL pg_GetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name) {
	(void)p;
	return pg_GetExtensionFunctionAddress(name);
}

// ocl-icd reads a library's extensions through its exported
// clGetPlatformInfo to see cl_khr_icd before it accepts the platform.
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size, void *value, size_t *size_ret) {
	return pg_GetPlatformInfo(p, param, size, value, size_ret);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
	return pg_GetExtensionFunctionAddress(name);
}

// write_trace writes POCKETGPU_TRACE's timeline when the program exits
// (returning from main, exit(), Python's interpreter ending), so a program
// that never releases its context still leaves a complete trace. Not on
// _exit or a fatal signal: the last context's release wrote what ran
// until then.
static void write_trace(void) { pgTraceExit(); }

__attribute__((constructor)) static void fill_table(void) {
	atexit(write_trace);
	pg_fill_stubs(&table);
	table.clGetPlatformIDs = pg_GetPlatformIDs;
	table.clGetPlatformInfo = pg_GetPlatformInfo;
	table.clGetDeviceIDs = pg_GetDeviceIDs;
	table.clGetDeviceInfo = pg_GetDeviceInfo;
	table.clRetainDevice = pg_RetainDevice;
	table.clReleaseDevice = pg_RetainDevice;
	table.clGetExtensionFunctionAddress = pg_GetExtensionFunctionAddress;
	table.clGetExtensionFunctionAddressForPlatform = pg_GetExtensionFunctionAddressForPlatform;
	// The entry points implemented in Go are set by pg_fill_stubs.
}
