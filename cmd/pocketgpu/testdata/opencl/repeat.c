// Launches one kernel several times with the same arguments, as clpeak
// and mixbench do to average a timing, and prints each launch's event time
// and a checksum of the results: exec's launch reuse (--detail auto) must
// print what --detail full prints.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
	do {                                                                     \
		cl_int e_ = (call);                                                  \
		if (e_ != CL_SUCCESS) {                                              \
			fprintf(stderr, "%s failed: %d (line %d)\n", #call, e_, __LINE__); \
			exit(1);                                                         \
		}                                                                    \
	} while (0)

// acc adds into its output, so its results differ launch by launch; the
// host puts its input back before every launch, so its time does not.
static const char *source =
	"__kernel void scale(__global const float *x, __global float *y, float a)\n"
	"{ size_t i = get_global_id(0); y[i] = a * x[i] + 1.0f; }\n"
	"__kernel void acc(__global const float *x, __global float *y)\n"
	"{ size_t i = get_global_id(0); y[i] += x[i]; }\n";

int main(void) {
	enum { N = 16384, LAUNCHES = 6 };
	static float x[N], y[N];
	for (int i = 0; i < N; i++) x[i] = (float)(i % 97);
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
	CHECK(err);
	cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 1, &device, NULL, NULL, NULL));
	const char *names[] = {"scale", "acc"};
	for (int k = 0; k < 2; k++) {
		cl_kernel kern = clCreateKernel(prog, names[k], &err);
		CHECK(err);
		float a = 2.0f;
		CHECK(clSetKernelArg(kern, 0, sizeof bx, &bx));
		CHECK(clSetKernelArg(kern, 1, sizeof by, &by));
		if (k == 0) CHECK(clSetKernelArg(kern, 2, sizeof a, &a));
		size_t global = N, local = 64;
		for (int l = 0; l < LAUNCHES; l++) {
			if (k == 1) {
				float zero[N] = {0};
				CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
			}
			cl_event ev;
			CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, &ev));
			CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
			cl_ulong start, end;
			CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
			CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
			double sum = 0;
			for (int i = 0; i < N; i++) sum += y[i] * (double)(i % 7 + 1);
			printf("%s launch %d: %llu ns, checksum %.1f\n", names[k], l + 1, (unsigned long long)(end - start), sum);
			clReleaseEvent(ev);
		}
		clReleaseKernel(kern);
	}
	return 0;
}
