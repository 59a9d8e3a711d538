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

// pg_unsupported reports a call pocketgpu does not implement (stderr).
void pg_unsupported(const char *name);
// pg_fill_stubs points every entry of t at its stub (stubs.c).
void pg_fill_stubs(cl_icd_dispatch *t);

#endif
