// Shared by the conformance-style host programs (prog_*, kernel_*, event_*,
// ctx_*): they print only what the OpenCL specification defines, so the
// output is the same on PoCL and on pocketgpu.
#ifndef HOST_COMMON_H
#define HOST_COMMON_H
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
	do {                                                                     \
		cl_int e_ = (call);                                                  \
		if (e_ != CL_SUCCESS) {                                              \
			printf("FAIL %s: %d (line %d)\n", #call, e_, __LINE__);          \
			exit(1);                                                         \
		}                                                                    \
	} while (0)

// EXPECT prints a line naming a check and whether the code was the one the
// specification gives.
#define EXPECT(name, got, want)                                              \
	do {                                                                     \
		cl_int g_ = (got);                                                   \
		if (g_ == (want))                                                    \
			printf("ok %s\n", name);                                         \
		else                                                                 \
			printf("FAIL %s: got %d, want %d\n", name, g_, (int)(want));     \
	} while (0)

static cl_platform_id platform;
static cl_device_id device;

// setup finds the first device of the first platform and makes a context
// and a queue on it.
static inline cl_context setup(cl_command_queue *q, cl_command_queue_properties props)
{
	cl_int err;
	setvbuf(stdout, NULL, _IONBF, 0);
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	if (q) {
		*q = clCreateCommandQueue(ctx, device, props, &err);
		CHECK(err);
	}
	return ctx;
}

// build makes and builds a program from source, printing its log on failure.
static inline cl_program build(cl_context ctx, const char *src, const char *options)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	if (clBuildProgram(p, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
		char log[8192] = "";
		clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		printf("FAIL build (%s):\n%s\n", options ? options : "", log);
		exit(1);
	}
	return p;
}
#endif
