// A PolyBench-style 2-D FDTD (finite-difference time-domain) solver in
// OpenCL: per time step, three kernels update the electric fields ey and
// ex from hz and then hz from both, on an NX x NY grid. The shape and the
// three kernels follow PolyBench/GPU's fdtd-2d; the code is pocketgpu's.
//
//	gcc -O2 -o fdtd2d examples/fdtd2d.c -lOpenCL -lm
//	pocketgpu exec --gpu mali-g52 -- ./fdtd2d [N] [STEPS]
//
// It checks the result against the same computation on the host and
// prints the simulated time of all kernels from their profiling events.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
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

static const char *source =
	"__kernel void fdtd_ey(__global const float *fict, __global float *ex, __global float *ey,\n"
	"                      __global const float *hz, int t, int nx, int ny) {\n"
	"  int j = get_global_id(0), i = get_global_id(1);\n"
	"  if (i < nx && j < ny) {\n"
	"    if (i == 0) ey[j] = fict[t];\n"
	"    else ey[i*ny + j] -= 0.5f * (hz[i*ny + j] - hz[(i-1)*ny + j]);\n"
	"  }\n"
	"}\n"
	"__kernel void fdtd_ex(__global float *ex, __global const float *hz, int nx, int ny) {\n"
	"  int j = get_global_id(0), i = get_global_id(1);\n"
	"  if (i < nx && j < ny && j > 0)\n"
	"    ex[i*ny + j] -= 0.5f * (hz[i*ny + j] - hz[i*ny + j - 1]);\n"
	"}\n"
	"__kernel void fdtd_hz(__global const float *ex, __global const float *ey, __global float *hz,\n"
	"                      int nx, int ny) {\n"
	"  int j = get_global_id(0), i = get_global_id(1);\n"
	"  if (i < nx - 1 && j < ny - 1)\n"
	"    hz[i*ny + j] -= 0.7f * (ex[i*ny + j + 1] - ex[i*ny + j] + ey[(i+1)*ny + j] - ey[i*ny + j]);\n"
	"}\n";

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 512;
	int steps = argc > 2 ? atoi(argv[2]) : 500;
	if (n < 2 || n % 32 != 0 || steps < 1) {
		fprintf(stderr, "usage: fdtd2d [N, a multiple of 32] [STEPS]\n");
		return 2;
	}
	size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
	float *fict = malloc(steps * sizeof(float));
	float *ex = malloc(bytes), *ey = malloc(bytes), *hz = malloc(bytes);
	float *rex = malloc(bytes), *rey = malloc(bytes), *rhz = malloc(bytes);
	for (int t = 0; t < steps; t++) fict[t] = (float)t;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			rex[i*n + j] = ex[i*n + j] = ((float)i * (j + 1)) / n;
			rey[i*n + j] = ey[i*n + j] = ((float)(i - 1) * (j + 2)) / n;
			rhz[i*n + j] = hz[i*n + j] = ((float)(i + 9) * (j + 3)) / n;
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
	cl_mem bfict = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, steps * sizeof(float), fict, &err);
	CHECK(err);
	cl_mem bex = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ex, &err);
	CHECK(err);
	cl_mem bey = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ey, &err);
	CHECK(err);
	cl_mem bhz = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, hz, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 1, &device, NULL, NULL, NULL));
	cl_kernel k1 = clCreateKernel(prog, "fdtd_ey", &err);
	CHECK(err);
	cl_kernel k2 = clCreateKernel(prog, "fdtd_ex", &err);
	CHECK(err);
	cl_kernel k3 = clCreateKernel(prog, "fdtd_hz", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k1, 0, sizeof bfict, &bfict));
	CHECK(clSetKernelArg(k1, 1, sizeof bex, &bex));
	CHECK(clSetKernelArg(k1, 2, sizeof bey, &bey));
	CHECK(clSetKernelArg(k1, 3, sizeof bhz, &bhz));
	CHECK(clSetKernelArg(k1, 5, sizeof n, &n));
	CHECK(clSetKernelArg(k1, 6, sizeof n, &n));
	CHECK(clSetKernelArg(k2, 0, sizeof bex, &bex));
	CHECK(clSetKernelArg(k2, 1, sizeof bhz, &bhz));
	CHECK(clSetKernelArg(k2, 2, sizeof n, &n));
	CHECK(clSetKernelArg(k2, 3, sizeof n, &n));
	CHECK(clSetKernelArg(k3, 0, sizeof bex, &bex));
	CHECK(clSetKernelArg(k3, 1, sizeof bey, &bey));
	CHECK(clSetKernelArg(k3, 2, sizeof bhz, &bhz));
	CHECK(clSetKernelArg(k3, 3, sizeof n, &n));
	CHECK(clSetKernelArg(k3, 4, sizeof n, &n));

	size_t global[2] = {n, n}, local[2] = {32, 8};
	double kernel_ns = 0;
	for (int t = 0; t < steps; t++) {
		cl_event ev[3];
		CHECK(clSetKernelArg(k1, 4, sizeof t, &t));
		CHECK(clEnqueueNDRangeKernel(q, k1, 2, NULL, global, local, 0, NULL, &ev[0]));
		CHECK(clEnqueueNDRangeKernel(q, k2, 2, NULL, global, local, 0, NULL, &ev[1]));
		CHECK(clEnqueueNDRangeKernel(q, k3, 2, NULL, global, local, 0, NULL, &ev[2]));
		CHECK(clFinish(q));
		for (int e = 0; e < 3; e++) {
			cl_ulong s, f;
			CHECK(clGetEventProfilingInfo(ev[e], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
			CHECK(clGetEventProfilingInfo(ev[e], CL_PROFILING_COMMAND_END, sizeof f, &f, NULL));
			kernel_ns += (double)(f - s);
			clReleaseEvent(ev[e]);
		}
	}
	CHECK(clEnqueueReadBuffer(q, bhz, CL_TRUE, 0, bytes, hz, 0, NULL, NULL));

	// The same steps on the host.
	for (int t = 0; t < steps; t++) {
		for (int j = 0; j < n; j++) rey[j] = fict[t];
		for (int i = 1; i < n; i++)
			for (int j = 0; j < n; j++) rey[i*n + j] -= 0.5f * (rhz[i*n + j] - rhz[(i-1)*n + j]);
		for (int i = 0; i < n; i++)
			for (int j = 1; j < n; j++) rex[i*n + j] -= 0.5f * (rhz[i*n + j] - rhz[i*n + j - 1]);
		for (int i = 0; i < n - 1; i++)
			for (int j = 0; j < n - 1; j++)
				rhz[i*n + j] -= 0.7f * (rex[i*n + j + 1] - rex[i*n + j] + rey[(i+1)*n + j] - rey[i*n + j]);
	}
	double worst = 0;
	for (size_t c = 0; c < cells; c++) {
		double d = fabs((double)hz[c] - rhz[c]) / fmax(1.0, fabs(rhz[c]));
		if (d > worst) worst = d;
	}
	printf("%s: fdtd-2d %dx%d, %d steps: kernels %.3f ms, largest relative difference from the host %.2g\n",
	       name, n, n, steps, kernel_ns / 1e6, worst);
	return worst > 1e-3;
}
