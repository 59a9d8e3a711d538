// A host program of a real tuned library: CLBlast's SGEMM and SAXPY on the
// first device of the first platform, each between two profiling markers
// and with CLBlast's own event. The results are checked against a host
// reference (max relative error and a tolerance); the lines
//
//	NAME event_ns N          CLBlast's event: end - start
//	NAME event S E           its start and end on the device clock
//	NAME span S E            the markers': end of the first, end of the second
//
// let a caller compare the times with what the device ran.
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
	do {                                                                     \
		cl_int e_ = (call);                                                  \
		if (e_ != CL_SUCCESS) {                                              \
			printf("FAIL %s: %d (line %d)\n", #call, e_, __LINE__);          \
			exit(1);                                                         \
		}                                                                    \
	} while (0)

#define CHECK_BLAST(call)                                                    \
	do {                                                                     \
		CLBlastStatusCode s_ = (call);                                       \
		if (s_ != CLBlastSuccess) {                                          \
			printf("FAIL %s: CLBlast status %d (line %d)\n", #call, (int)s_, \
			       __LINE__);                                                \
			exit(1);                                                         \
		}                                                                    \
	} while (0)

static const double tolerance = 1e-4;

static cl_ulong profile(cl_event ev, cl_profiling_info what)
{
	cl_ulong t;
	CHECK(clGetEventProfilingInfo(ev, what, sizeof t, &t, NULL));
	return t;
}

static cl_mem buffer(cl_context ctx, size_t n, const float *data)
{
	cl_int err;
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), (void *)data, &err);
	CHECK(err);
	return b;
}

// report prints a routine's error and times and releases its events; it
// returns whether the error is within the tolerance.
static int report(const char *name, double maxrel, cl_event before, cl_event ev, cl_event after)
{
	cl_ulong start = profile(ev, CL_PROFILING_COMMAND_START), end = profile(ev, CL_PROFILING_COMMAND_END);
	int ok = maxrel <= tolerance;
	printf("%s max_rel_err %.3g %s\n", name, maxrel, ok ? "ok" : "FAIL");
	printf("%s event_ns %llu\n", name, (unsigned long long)(end - start));
	printf("%s event %llu %llu\n", name, (unsigned long long)start, (unsigned long long)end);
	printf("%s span %llu %llu\n", name, (unsigned long long)profile(before, CL_PROFILING_COMMAND_END),
	       (unsigned long long)profile(after, CL_PROFILING_COMMAND_END));
	CHECK(clReleaseEvent(before));
	CHECK(clReleaseEvent(ev));
	CHECK(clReleaseEvent(after));
	return ok;
}

static double relerr(double got, double want)
{
	double d = fabs(got - want), m = fabs(want);
	return m > 1 ? d / m : d;
}

// sgemm runs C = alpha*op(A)*op(B) + beta*C, m x n with inner size k.
static int sgemm(cl_context ctx, cl_command_queue q, const char *name, CLBlastLayout layout,
                 CLBlastTranspose ta, CLBlastTranspose tb, size_t m, size_t n, size_t k)
{
	const float alpha = 1.5f, beta = -0.75f;
	int rowmajor = layout == CLBlastLayoutRowMajor;
	int at = ta != CLBlastTransposeNo, bt = tb != CLBlastTransposeNo;
	// A is m x k (k x m when transposed), B k x n (n x k), C m x n, each
	// stored in the layout with its leading dimension the stored row
	// (row-major) or column (column-major) length.
	size_t arows = at ? k : m, acols = at ? m : k;
	size_t brows = bt ? n : k, bcols = bt ? k : n;
	size_t lda = rowmajor ? acols : arows, ldb = rowmajor ? bcols : brows, ldc = rowmajor ? n : m;
	float *a = malloc(m * k * sizeof(float)), *b = malloc(k * n * sizeof(float));
	float *c = malloc(m * n * sizeof(float)), *got = malloc(m * n * sizeof(float));
	for (size_t i = 0; i < m * k; i++)
		a[i] = (float)((i * 7 + 3) % 17) / 8.0f - 1.0f;
	for (size_t i = 0; i < k * n; i++)
		b[i] = (float)((i * 5 + 1) % 13) / 6.0f - 1.0f;
	for (size_t i = 0; i < m * n; i++)
		c[i] = (float)((i * 3 + 2) % 11) / 5.0f - 1.0f;
#define AT(p, ld, r, cc) (rowmajor ? (p)[(r) * (ld) + (cc)] : (p)[(cc) * (ld) + (r)])
	cl_mem da = buffer(ctx, m * k, a), db = buffer(ctx, k * n, b), dc = buffer(ctx, m * n, c);
	cl_event before, ev = NULL, after;
	CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &before));
	CHECK_BLAST(CLBlastSgemm(layout, ta, tb, m, n, k, alpha, da, 0, lda, db, 0, ldb, beta, dc, 0, ldc, &q, &ev));
	CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &after));
	CHECK(clWaitForEvents(1, &after));
	CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, m * n * sizeof(float), got, 0, NULL, NULL));
	double maxrel = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;
			for (size_t l = 0; l < k; l++) {
				double x = at ? AT(a, lda, l, i) : AT(a, lda, i, l);
				double y = bt ? AT(b, ldb, j, l) : AT(b, ldb, l, j);
				s += x * y;
			}
			double want = alpha * s + beta * (double)AT(c, ldc, i, j);
			double e = relerr(AT(got, ldc, i, j), want);
			if (e > maxrel)
				maxrel = e;
		}
#undef AT
	CHECK(clReleaseMemObject(da));
	CHECK(clReleaseMemObject(db));
	CHECK(clReleaseMemObject(dc));
	free(a);
	free(b);
	free(c);
	free(got);
	return report(name, maxrel, before, ev, after);
}

static int saxpy(cl_context ctx, cl_command_queue q, size_t n)
{
	const float alpha = -2.5f;
	float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)(i % 97) * 0.25f - 3.0f;
		y[i] = (float)(i % 31) * 0.5f + 1.0f;
	}
	cl_mem dx = buffer(ctx, n, x), dy = buffer(ctx, n, y);
	cl_event before, ev = NULL, after;
	CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &before));
	CHECK_BLAST(CLBlastSaxpy(n, alpha, dx, 0, 1, dy, 0, 1, &q, &ev));
	CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &after));
	CHECK(clWaitForEvents(1, &after));
	CHECK(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, n * sizeof(float), got, 0, NULL, NULL));
	double maxrel = 0;
	for (size_t i = 0; i < n; i++) {
		double e = relerr(got[i], (double)alpha * x[i] + y[i]);
		if (e > maxrel)
			maxrel = e;
	}
	CHECK(clReleaseMemObject(dx));
	CHECK(clReleaseMemObject(dy));
	free(x);
	free(y);
	free(got);
	return report("saxpy", maxrel, before, ev, after);
}

int main(int argc, char **argv)
{
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	setvbuf(stdout, NULL, _IONBF, 0);
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
	char name[256];
	CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
	printf("device %s\n", name);
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	int ok = 1;
	ok &= sgemm(ctx, q, "sgemm", CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, 64, 48, 32);
	ok &= saxpy(ctx, q, 1000);
	// A second context: CLBlast builds its GEMM program there from the
	// binary it took from the first (clGetProgramInfo's
	// CL_PROGRAM_BINARIES, then clCreateProgramWithBinary).
	cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q2 = clCreateCommandQueue(ctx2, device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	ok &= sgemm(ctx2, q2, "sgemm_binary", CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, 64, 48, 32);
	CHECK(clReleaseCommandQueue(q2));
	CHECK(clReleaseContext(ctx2));
	// An optional larger GEMM, transposed and column-major, which CLBlast
	// runs through its indirect path (pad/transpose kernels, then Xgemm).
	if (argc > 1)
		ok &= sgemm(ctx, q, "sgemm_indirect", CLBlastLayoutColMajor, CLBlastTransposeYes, CLBlastTransposeNo,
		            atoi(argv[1]), atoi(argv[1]) - 3, atoi(argv[1]) + 5);
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseContext(ctx));
	return ok ? 0 : 1;
}
