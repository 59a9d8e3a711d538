// The C side of pocketgpu's OpenCL ICD: the objects the ICD loader sees
// (each starts with the dispatch table, as cl_icd.h requires) and what the
// generated stubs need.
#ifndef POCKETGPU_ICD_H
#define POCKETGPU_ICD_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>
#include <stddef.h>

struct _cl_platform_id {
	cl_icd_dispatch *dispatch;
};

struct _cl_device_id {
	cl_icd_dispatch *dispatch;
	int index; // the device's place in the Go platform
};

// Every other object: the dispatch table, then nothing; Go finds the
// object behind it by its address (objects.go).
struct _cl_context { cl_icd_dispatch *dispatch; };
struct _cl_command_queue { cl_icd_dispatch *dispatch; };
struct _cl_mem { cl_icd_dispatch *dispatch; };
struct _cl_program { cl_icd_dispatch *dispatch; };
struct _cl_kernel { cl_icd_dispatch *dispatch; };
struct _cl_event { cl_icd_dispatch *dispatch; };
struct _cl_sampler { cl_icd_dispatch *dispatch; };

// pg_table is the dispatch table every object starts with.
cl_icd_dispatch *pg_table(void);
// pg_device_index is a device handle's index, or -1 if it is none.
int pg_device_index(cl_device_id d);
// pg_device is the handle of device i.
cl_device_id pg_device(int i);
// pg_platform is the platform's handle.
cl_platform_id pg_platform(void);

// pg_clock_attach finds the clock shim's offset (LD_PRELOAD); it returns 0
// if the shim is not loaded. pg_clock_publish stores a new offset.
int pg_clock_attach(void);
void pg_clock_publish(long long offset_ns);
// pg_stdout_write writes kernels' printf output through the C library's
// stdout, so that it keeps its order with the program's own prints.
void pg_stdout_write(const char *p, size_t n);

// pg_unsupported reports a call pocketgpu does not implement (stderr).
void pg_unsupported(const char *name);
// pg_fill_stubs points every entry of t at its stub (stubs.c).
void pg_fill_stubs(cl_icd_dispatch *t);

#endif
