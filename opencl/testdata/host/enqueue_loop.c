// Enqueues a small kernel N times (default 10000), each with an event it
// releases, and prints the process's resident memory after the first
// tenth and at the end: a platform that keeps something per command grows.
#include "common.h"
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static long rss_kb(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * 4;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	cl_command_queue q;
	cl_context ctx = setup(&q, CL_QUEUE_PROFILING_ENABLE);
	cl_int err;
	cl_program p = build(ctx, "__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }", NULL);
	cl_kernel k = clCreateKernel(p, "inc", &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
	CHECK(err);
	int zero = 0;
	CHECK(clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, 64 * sizeof(int), 0, NULL, NULL));
	CHECK(clSetKernelArg(k, 0, sizeof b, &b));
	size_t global = 64;
	long early = 0;
	double t0 = now_ns();
	for (int i = 0; i < n; i++) {
		cl_event ev;
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, &ev));
		CHECK(clReleaseEvent(ev));
		if (i == n / 10)
			early = rss_kb();
	}
	CHECK(clFinish(q));
	double per = (now_ns() - t0) / n;
	int out[64];
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
	printf("a[0] = %d after %d launches\n", out[0], n);
	fprintf(stderr, "rss_kb %ld %ld\nns_per_launch %.0f\n", early, rss_kb(), per);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
