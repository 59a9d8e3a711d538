// A benchmark that times the GPU the way many do: with the host's clock
// around an enqueue and clFinish, not with profiling events. Under
// pocketgpu exec --virtual-clock its host-measured times are the simulated
// GPU's; without it they are the simulator's. It prints both measurements
// and the kernel's event time.
//
//	gcc -O2 -o hosttimed examples/hosttimed.c -lOpenCL
//	pocketgpu exec --virtual-clock -- ./hosttimed [N]
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#define CHECK(call)                                                          \
	do {                                                                     \
		cl_int e_ = (call);                                                  \
		if (e_ != CL_SUCCESS) {                                              \
			fprintf(stderr, "%s failed: %d (line %d)\n", #call, e_, __LINE__); \
			exit(1);                                                         \
		}                                                                    \
	} while (0)

static const char *source =
	"__kernel void triad(__global const float *x, __global const float *y, __global float *z, float a)\n"
	"{ size_t i = get_global_id(0); z[i] = a * x[i] + y[i]; }\n";

static long long monotonic_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long timeofday_ns(void) {
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000000LL + (long long)tv.tv_usec * 1000;
}

static cl_ulong event_ns(cl_event ev) {
	cl_ulong start, end;
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
	return end - start;
}

int main(int argc, char **argv) {
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1 << 18;
	if (n == 0 || n % 64 != 0) {
		fprintf(stderr, "N must be a positive multiple of 64\n");
		return 2;
	}
	float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)(i % 1000);
		y[i] = 1.0f;
	}
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	char name[256];
	CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	size_t bytes = n * sizeof(float);
	cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x, &err);
	CHECK(err);
	cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, y, &err);
	CHECK(err);
	cl_mem bz = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 1, &device, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "triad", &err);
	CHECK(err);
	float a = 3.0f;
	CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
	CHECK(clSetKernelArg(k, 1, sizeof by, &by));
	CHECK(clSetKernelArg(k, 2, sizeof bz, &bz));
	CHECK(clSetKernelArg(k, 3, sizeof a, &a));
	size_t local = 64;
	cl_event ev[2];

	long long t0 = monotonic_ns();
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, &ev[0]));
	CHECK(clFinish(q));
	long long t1 = monotonic_ns();

	long long u0 = timeofday_ns();
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, &ev[1]));
	CHECK(clFinish(q));
	long long u1 = timeofday_ns();

	CHECK(clEnqueueReadBuffer(q, bz, CL_TRUE, 0, bytes, z, 0, NULL, NULL));
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		bad += z[i] != 3.0f * (float)(i % 1000) + 1.0f;
	}
	printf("%s: triad of %zu floats, %d wrong\n", name, n, bad);
	printf("clock_gettime %lld ns, its event %llu ns\n", t1 - t0, (unsigned long long)event_ns(ev[0]));
	printf("gettimeofday  %lld ns, its event %llu ns\n", u1 - u0, (unsigned long long)event_ns(ev[1]));
	return bad != 0;
}
