// An ordinary OpenCL host program: y = a*x + y on the first device of the
// first platform, timed with a profiling event. It prints the results it
// checks (the same on any correct platform) and, on the last line, the
// kernel's time from its event.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
	do {                                                                     \
		cl_int e_ = (call);                                                  \
		if (e_ != CL_SUCCESS) {                                              \
			fprintf(stderr, "%s failed: %d (line %d)\n", #call, e_, __LINE__); \
			return 1;                                                        \
		}                                                                    \
	} while (0)

static const char *source =
	"__kernel void saxpy(__global const float *x, __global float *y, float a)\n"
	"{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n";

int main(void)
{
	enum { N = 4096 };
	static float x[N], y[N];
	for (int i = 0; i < N; i++) {
		x[i] = (float)i * 0.5f;
		y[i] = (float)(N - i);
	}
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
	CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
	cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	CHECK(err);
	if (clBuildProgram(prog, 1, &device, "-cl-mad-enable", NULL, NULL) != CL_SUCCESS) {
		char log[4096];
		clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "build failed:\n%s\n", log);
		return 1;
	}
	cl_kernel k = clCreateKernel(prog, "saxpy", &err);
	CHECK(err);
	float a = 2.0f;
	CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
	CHECK(clSetKernelArg(k, 1, sizeof by, &by));
	CHECK(clSetKernelArg(k, 2, sizeof a, &a));
	size_t global = N;
	cl_event ev;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev));
	CHECK(clWaitForEvents(1, &ev));
	CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
	CHECK(clFinish(q));
	double sum = 0;
	int bad = 0;
	for (int i = 0; i < N; i++) {
		sum += y[i];
		if (y[i] != 2.0f * ((float)i * 0.5f) + (float)(N - i))
			bad++;
	}
	printf("y[0..3] = %g %g %g %g\n", y[0], y[1], y[2], y[3]);
	printf("sum %.1f, %d wrong\n", sum, bad);
	cl_ulong start, end;
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
	CHECK(clReleaseEvent(ev));
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseProgram(prog));
	CHECK(clReleaseMemObject(bx));
	CHECK(clReleaseMemObject(by));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseContext(ctx));
	printf("kernel_ns %llu\n", (unsigned long long)(end - start));
	return bad != 0;
}
