// Buffers end to end: sub-buffers, rectangular transfers, maps, host
// pointers used in place, migration and destructor callbacks. Every line
// it prints must be the same on PoCL and on pocketgpu.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define N 1024

static const char *src =
	"__kernel void add(__global int *a, int v) { a[get_global_id(0)] += v; }\n"
	"__kernel void idx(__global int *a) { a[get_global_id(0)] = get_global_id(0); }\n";

static cl_context ctx;
static cl_command_queue q;
static cl_kernel add;

static void check(const char *what, cl_int err)
{
	printf("%s: %d\n", what, err);
}

static void run_add(cl_mem m, int v, size_t n)
{
	clSetKernelArg(add, 0, sizeof m, &m);
	clSetKernelArg(add, 1, sizeof v, &v);
	check("add", clEnqueueNDRangeKernel(q, add, 1, NULL, &n, NULL, 0, NULL, NULL));
}

static void print_ints(const char *what, const int *a, int n)
{
	printf("%s:", what);
	for (int i = 0; i < n; i++) {
		printf(" %d", a[i]);
	}
	printf("\n");
}

static int order[3];
static volatile int norder; // PoCL calls destructors on a thread of its own

static void CL_CALLBACK destructed(cl_mem m, void *user)
{
	(void)m;
	order[norder++] = *(int *)user;
}

static void sub_buffers(cl_uint align)
{
	cl_int err;
	static int data[N];
	for (int i = 0; i < N; i++) {
		data[i] = i;
	}
	cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
	check("parent", err);
	cl_buffer_region r = {align, 64 * sizeof(int)};
	cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	check("sub", err);
	// A kernel through the sub-buffer writes the parent's memory, and one
	// through the parent is seen through the sub-buffer.
	run_add(sub, 1000, 64);
	run_add(parent, 5, N);
	int out[N];
	check("read parent", clEnqueueReadBuffer(q, parent, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
	int first = align / sizeof(int);
	print_ints("parent around sub", out + first - 2, 5);
	print_ints("parent end of sub", out + first + 62, 4);
	check("read sub", clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 16, out, 0, NULL, NULL));
	print_ints("sub", out, 4);
	cl_mem assoc;
	size_t off, size;
	cl_mem_flags flags;
	clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
	clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL);
	clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, NULL);
	clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
	printf("sub info: parent %d offset ok %d size %zu read-write %d\n", assoc == parent, off == align, size, (flags & CL_MEM_READ_WRITE) != 0);
	clGetMemObjectInfo(parent, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
	printf("parent has no parent: %d\n", assoc == NULL);
	// Errors.
	cl_buffer_region odd = {4, 16};
	clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &odd, &err);
	check("misaligned sub-buffer", err);
	cl_buffer_region past = {align, sizeof data};
	clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &past, &err);
	check("sub-buffer past the end", err);
	clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	check("sub-buffer of a sub-buffer", err);
	clCreateSubBuffer(parent, 0, 0x1234, &r, &err);
	check("bad create type", err);
	cl_mem wo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof data, NULL, &err);
	clCreateSubBuffer(wo, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	check("more access than the parent", err);
	clCreateSubBuffer(wo, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	check("host pointer flag on a sub-buffer", err);
	cl_mem inherit = clCreateSubBuffer(wo, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	clGetMemObjectInfo(inherit, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
	printf("inherited write-only: %d\n", (flags & CL_MEM_WRITE_ONLY) != 0);
	clReleaseMemObject(inherit);
	clReleaseMemObject(wo);
	// Destructor callbacks run on the last release, newest first; the
	// parent outlives its sub-buffer.
	static int one = 1, two = 2, three = 3;
	clSetMemObjectDestructorCallback(parent, destructed, &one);
	clSetMemObjectDestructorCallback(parent, destructed, &two);
	clSetMemObjectDestructorCallback(sub, destructed, &three);
	clReleaseMemObject(parent);
	printf("after parent release: %d callbacks\n", norder);
	clReleaseMemObject(sub);
	// An implementation may call them a little after the release (PoCL
	// does, from its own thread): wait up to a second for all three.
	for (int i = 0; i < 100 && norder < 3; i++) {
		struct timespec ms10 = {0, 10000000};
		nanosleep(&ms10, NULL);
	}
	printf("destructors:");
	for (int i = 0; i < norder; i++) {
		printf(" %d", order[i]);
	}
	printf("\n");
}

static void rects(void)
{
	cl_int err;
	// An 8x6x2 box of bytes; a 3x2x2 region at (2,1,0) goes out and back.
	unsigned char box[96], host[64], back[96];
	for (int i = 0; i < 96; i++) {
		box[i] = i;
	}
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof box, box, &err);
	size_t bo[3] = {2, 1, 0}, ho[3] = {1, 0, 0}, region[3] = {3, 2, 2};
	memset(host, 0, sizeof host);
	check("read rect", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, ho, region, 8, 48, 4, 8, host, 0, NULL, NULL));
	print_ints("rect bytes", (int[]){host[1], host[2], host[3], host[5], host[7], host[9], host[11], host[13], host[15]}, 9);
	// Pitches of 0 are tight: rows of region[0], slices of region[1] rows.
	unsigned char tight[12];
	size_t zero[3] = {0, 0, 0};
	check("read rect tight", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, zero, region, 8, 48, 0, 0, tight, 0, NULL, NULL));
	print_ints("tight", (int[]){tight[0], tight[2], tight[3], tight[5], tight[6], tight[11]}, 6);
	unsigned char ones[12];
	memset(ones, 200, sizeof ones);
	check("write rect", clEnqueueWriteBufferRect(q, b, CL_FALSE, bo, zero, region, 8, 48, 0, 0, ones, 0, NULL, NULL));
	size_t so[3] = {0, 0, 0}, dof[3] = {4, 4, 1};
	check("copy rect", clEnqueueCopyBufferRect(q, b, b, so, dof, (size_t[]){2, 2, 1}, 8, 48, 8, 48, 0, NULL, NULL));
	clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
	int changed = 0, sum = 0;
	for (int i = 0; i < 96; i++) {
		changed += back[i] != box[i];
		sum += back[i];
	}
	printf("after write and copy: %d bytes changed, sum %d, [10]=%d [84]=%d [93]=%d\n", changed, sum, back[10], back[84], back[93]);
	// Errors.
	check("rect past the end", clEnqueueReadBufferRect(q, b, CL_TRUE, (size_t[]){6, 0, 1}, zero, region, 8, 48, 0, 0, host, 0, NULL, NULL));
	check("rect zero region", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, zero, (size_t[]){0, 1, 1}, 8, 48, 0, 0, host, 0, NULL, NULL));
	check("rect row pitch too small", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, zero, region, 2, 48, 0, 0, host, 0, NULL, NULL));
	check("rect slice pitch not a multiple", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, zero, region, 8, 13, 0, 0, host, 0, NULL, NULL));
	check("rect NULL pointer", clEnqueueReadBufferRect(q, b, CL_TRUE, bo, zero, region, 8, 48, 0, 0, NULL, 0, NULL, NULL));
	check("copy rect overlap", clEnqueueCopyBufferRect(q, b, b, so, (size_t[]){1, 0, 0}, (size_t[]){2, 2, 1}, 8, 48, 8, 48, 0, NULL, NULL));
	clReleaseMemObject(b);
}

static void maps(void)
{
	cl_int err;
	int data[N];
	for (int i = 0; i < N; i++) {
		data[i] = 3 * i;
	}
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
	int *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 16, 64, 0, NULL, NULL, &err);
	check("map read", err);
	printf("mapped: %d %d\n", p[0], p[15]);
	cl_uint count;
	clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
	printf("map count %u\n", count);
	check("unmap", clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
	cl_event ev;
	int *w = clEnqueueMapBuffer(q, b, CL_FALSE, CL_MAP_WRITE, 0, 64, 0, NULL, &ev, &err);
	check("map write (not blocking)", err);
	check("wait", clWaitForEvents(1, &ev));
	cl_command_type type;
	clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
	printf("map event type ok %d\n", type == CL_COMMAND_MAP_BUFFER);
	clReleaseEvent(ev);
	printf("write map sees %d %d\n", w[1], w[15]);
	w[1] = -1;
	check("unmap write", clEnqueueUnmapMemObject(q, b, w, 0, NULL, NULL));
	int *inv = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 64, 8, 0, NULL, NULL, &err);
	check("map invalidate", err);
	inv[0] = 77;
	inv[1] = 78;
	check("unmap invalidate", clEnqueueUnmapMemObject(q, b, inv, 0, NULL, NULL));
	run_add(b, 1, N);
	int out[20];
	clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
	print_ints("after maps and add", out, 20);
	clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
	printf("map count %u\n", count);
	// Errors.
	// (PoCL takes CL_MAP_READ with CL_MAP_WRITE_INVALIDATE_REGION, which
	// 1.2 forbids: mem_test.go checks it.)
	clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, sizeof data - 4, 8, 0, NULL, NULL, &err);
	check("map past the end", err);
	check("unmap of no map", clEnqueueUnmapMemObject(q, b, data, 0, NULL, NULL));
	cl_mem noread = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 64, NULL, &err);
	clEnqueueMapBuffer(q, noread, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
	check("map read of host write-only", err);
	check("read of host write-only", clEnqueueReadBuffer(q, noread, CL_TRUE, 0, 8, out, 0, NULL, NULL));
	clReleaseMemObject(noread);
	clReleaseMemObject(b);
}

static void host_ptr(void)
{
	cl_int err;
	static int host[N];
	for (int i = 0; i < N; i++) {
		host[i] = i;
	}
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
	check("use host ptr", err);
	void *hp;
	clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
	printf("host ptr is the program's: %d\n", hp == host);
	// A kernel's writes reach the program's memory (zero copy).
	run_add(b, 100, N);
	clFinish(q);
	print_ints("host after kernel", host, 4);
	int v[2] = {-5, -6};
	clEnqueueWriteBuffer(q, b, CL_TRUE, 8, sizeof v, v, 0, NULL, NULL);
	int pat = 9;
	clEnqueueFillBuffer(q, b, &pat, sizeof pat, 16, 8, 0, NULL, NULL);
	clFinish(q);
	print_ints("host after write and fill", host, 8);
	// A map of a USE_HOST_PTR buffer is the host memory at the offset.
	int *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 40, 16, 0, NULL, NULL, &err);
	printf("map is host_ptr + offset: %d\n", (char *)p == (char *)host + 40);
	p[0] = 4242;
	clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL);
	run_add(b, 1, N);
	clFinish(q);
	print_ints("host after unmap and add", host + 8, 4);
	// A sub-buffer of it points into the same memory.
	cl_buffer_region r = {128, 64};
	cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
	printf("sub host ptr is host + 128: %d\n", hp == (char *)host + 128);
	run_add(sub, 1000, 16);
	clFinish(q);
	print_ints("host through sub", host + 31, 3);
	cl_mem other = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	clEnqueueCopyBuffer(q, sub, other, 0, 0, 64, 0, NULL, NULL);
	clEnqueueCopyBuffer(q, other, b, 0, 0, 16, 0, NULL, NULL);
	clFinish(q);
	print_ints("host after copy", host, 5);
	cl_mem list[2] = {b, other};
	cl_event ev;
	check("migrate", clEnqueueMigrateMemObjects(q, 2, list, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
	cl_command_type type;
	clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
	printf("migrate event type ok %d\n", type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
	check("migrate bad flags", clEnqueueMigrateMemObjects(q, 1, list, 0x80, 0, NULL, NULL));
	check("migrate nothing", clEnqueueMigrateMemObjects(q, 0, list, 0, 0, NULL, NULL));
	clReleaseEvent(ev);
	clReleaseMemObject(sub);
	clReleaseMemObject(other);
	clReleaseMemObject(b);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	clGetPlatformIDs(1, &platform, NULL);
	clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
	ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	q = clCreateCommandQueue(ctx, device, 0, &err);
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	check("build", clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
	add = clCreateKernel(p, "add", &err);
	cl_uint align;
	clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL);
	sub_buffers(align / 8);
	rects();
	maps();
	host_ptr();
	clReleaseKernel(add);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
