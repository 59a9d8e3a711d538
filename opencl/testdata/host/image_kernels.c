// Images of every dimensionality read and written by kernels, with
// samplers; image copies, fills and maps; image and sampler errors. Every
// line it prints must be the same on PoCL and on pocketgpu.
#define CL_TARGET_OPENCL_VERSION 200
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src =
	// Each kernel copies its input image through a sampler into a buffer
	// (x4 channels) and writes x + 10 * y + 100 * z into an output image.
	"__kernel void k1(read_only image1d_t in, sampler_t s, __global int4 *out, write_only image1d_t o) {\n"
	"  int x = get_global_id(0); out[x] = read_imagei(in, s, x); write_imagei(o, x, (int4)(x, 0, 0, 1)); }\n"
	"__kernel void kb(read_only image1d_buffer_t in, __global int4 *out, write_only image1d_buffer_t o) {\n"
	"  int x = get_global_id(0); out[x] = read_imagei(in, x); write_imagei(o, x, (int4)(x, 1, 2, 3)); }\n"
	"__kernel void k1a(read_only image1d_array_t in, sampler_t s, __global int4 *out, write_only image1d_array_t o) {\n"
	"  int x = get_global_id(0), l = get_global_id(1); out[l * get_global_size(0) + x] = read_imagei(in, s, (int2)(x, l));\n"
	"  write_imagei(o, (int2)(x, l), (int4)(x, l, get_image_array_size(in), 1)); }\n"
	"__kernel void k2(read_only image2d_t in, sampler_t s, __global int4 *out, write_only image2d_t o) {\n"
	"  int x = get_global_id(0), y = get_global_id(1); out[y * get_global_size(0) + x] = read_imagei(in, s, (int2)(x, y));\n"
	"  write_imagei(o, (int2)(x, y), (int4)(x + 10 * y, 0, 0, 1)); }\n"
	"__kernel void k2a(read_only image2d_array_t in, sampler_t s, __global int4 *out, write_only image2d_array_t o) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagei(in, s, (int4)(x, y, z, 0));\n"
	"  write_imagei(o, (int4)(x, y, z, 0), (int4)(x + 10 * y + 100 * z, 0, 0, 1)); }\n"
	"__kernel void k3(read_only image3d_t in, sampler_t s, __global int4 *out, write_only image3d_t o) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagei(in, s, (int4)(x, y, z, 0));\n"
	"  write_imagei(o, (int4)(x, y, z, 0), (int4)(x + 10 * y + 100 * z, 0, 0, 1)); }\n"
	// Float sampling at float coordinates, normalized or not.
	"__kernel void f2(read_only image2d_t in, sampler_t s, __global float4 *out, __global const float2 *at) {\n"
	"  int i = get_global_id(0); out[i] = read_imagef(in, s, at[i]); }\n"
	"__kernel void fdims(read_only image2d_t in, __global int *out) {\n"
	"  out[0] = get_image_width(in); out[1] = get_image_height(in); }\n";

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
static cl_device_id device;

static void check(const char *what, cl_int err)
{
	printf("%s: %d\n", what, err);
}

// spec prints a check of what the specification requires where PoCL is
// more lenient: "spec ok" or "spec FAIL" (the test compares these only on
// pocketgpu).
static void spec(const char *what, cl_int got, cl_int want)
{
	printf("spec %s %s: got %d, want %d\n", got == want ? "ok" : "FAIL", what, got, want);
}

static const cl_image_format rgba_i32 = {CL_RGBA, CL_SIGNED_INT32};

// make creates an image of n texels with texel i = (i, 2i, 3i, 4i).
static cl_mem make(cl_image_desc d, int n)
{
	static int data[4 * 512];
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < 4; c++) {
			data[4 * i + c] = (c + 1) * i;
		}
	}
	cl_int err;
	cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &rgba_i32, &d, data, &err);
	if (err != CL_SUCCESS) {
		printf("create image %#x: %d\n", d.image_type, err);
	}
	return m;
}

// run launches kernel name over global (dims) with in, a sampler (if
// s), the buffer and the output image, and prints the buffer and the
// output image's first channels.
static void run(const char *name, cl_mem in, cl_sampler s, cl_mem outImg, int dims, size_t *global, size_t *region)
{
	cl_int err;
	cl_kernel k = clCreateKernel(prog, name, &err);
	size_t n = global[0] * (dims > 1 ? global[1] : 1) * (dims > 2 ? global[2] : 1);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 16, NULL, &err);
	int a = 0;
	clSetKernelArg(k, a++, sizeof in, &in);
	if (s != NULL) {
		clSetKernelArg(k, a++, sizeof s, &s);
	}
	clSetKernelArg(k, a++, sizeof buf, &buf);
	clSetKernelArg(k, a++, sizeof outImg, &outImg);
	check(name, clEnqueueNDRangeKernel(q, k, dims, NULL, global, NULL, 0, NULL, NULL));
	int out[4 * 512];
	clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 16, out, 0, NULL, NULL);
	printf("%s read:", name);
	for (size_t i = 0; i < n; i++) {
		printf(" %d/%d", out[4 * i], out[4 * i + 3]);
	}
	size_t origin[3] = {0, 0, 0};
	check("read image", clEnqueueReadImage(q, outImg, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));
	printf("\n%s wrote:", name);
	for (size_t i = 0; i < n; i++) {
		printf(" %d", out[4 * i] + 1000 * out[4 * i + 1] + 100000 * out[4 * i + 2]);
	}
	printf("\n");
	clReleaseMemObject(buf);
	clReleaseKernel(k);
}

static void dimensions(void)
{
	cl_int err;
	cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
	check("sampler", err);
	cl_image_desc d1 = {CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0, 0, 0, 0, 0, NULL};
	size_t g1[3] = {8, 1, 1};
	run("k1", make(d1, 8), s, make(d1, 8), 1, g1, g1);

	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * 16, NULL, &err);
	int fill[4] = {7, 8, 9, 10};
	clEnqueueFillBuffer(q, b, fill, 16, 0, 8 * 16, 0, NULL, NULL);
	cl_image_desc db = {CL_MEM_OBJECT_IMAGE1D_BUFFER, 8, 0, 0, 0, 0, 0, 0, 0, b};
	cl_mem ib = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba_i32, &db, NULL, &err);
	check("1D buffer image", err);
	cl_mem ob = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * 16, NULL, &err);
	cl_image_desc dob = {CL_MEM_OBJECT_IMAGE1D_BUFFER, 8, 0, 0, 0, 0, 0, 0, 0, ob};
	run("kb", ib, NULL, clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba_i32, &dob, NULL, &err), 1, g1, g1);
	// The image's writes are in its buffer.
	int back[32];
	clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
	printf("1D buffer image's buffer: %d %d %d %d %d\n", back[0], back[4], back[5], back[28], back[31]);
	cl_mem assoc;
	clGetImageInfo(ib, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL);
	printf("image buffer is b: %d\n", assoc == b);

	cl_image_desc d1a = {CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 3, 0, 0, 0, 0, NULL};
	size_t g1a[3] = {4, 3, 1};
	run("k1a", make(d1a, 12), s, make(d1a, 12), 2, g1a, g1a);

	cl_image_desc d2 = {CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0, 0, 0, 0, 0, NULL};
	size_t g2[3] = {4, 3, 1};
	run("k2", make(d2, 12), s, make(d2, 12), 2, g2, g2);

	cl_image_desc d2a = {CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 2, 0, 2, 0, 0, 0, 0, NULL};
	size_t g2a[3] = {3, 2, 2};
	run("k2a", make(d2a, 12), s, make(d2a, 12), 3, g2a, g2a);

	cl_image_desc d3 = {CL_MEM_OBJECT_IMAGE3D, 3, 2, 2, 0, 0, 0, 0, 0, NULL};
	run("k3", make(d3, 12), s, make(d3, 12), 3, g2a, g2a);

	// Image info of the 2D array.
	cl_mem a = make(d2a, 12);
	size_t w, h, depth, arr, row, slice, elem;
	clGetImageInfo(a, CL_IMAGE_WIDTH, sizeof w, &w, NULL);
	clGetImageInfo(a, CL_IMAGE_HEIGHT, sizeof h, &h, NULL);
	clGetImageInfo(a, CL_IMAGE_DEPTH, sizeof depth, &depth, NULL);
	clGetImageInfo(a, CL_IMAGE_ARRAY_SIZE, sizeof arr, &arr, NULL);
	clGetImageInfo(a, CL_IMAGE_ELEMENT_SIZE, sizeof elem, &elem, NULL);
	clGetImageInfo(a, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL);
	clGetImageInfo(a, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL);
	cl_image_format f;
	clGetImageInfo(a, CL_IMAGE_FORMAT, sizeof f, &f, NULL);
	cl_mem_object_type t;
	clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof t, &t, NULL);
	printf("2D array info: %zu %zu %zu %zu elem %zu row %zu slice %zu format %#x %#x type %#x\n", w, h, depth, arr, elem, row, slice, f.image_channel_order, f.image_channel_data_type, t);
	clReleaseSampler(s);
}

// sampling reads a 4x2 RGBA UNORM_INT8 image at float coordinates through
// samplers of each addressing mode, normalized or not.
static void sampling(void)
{
	cl_int err;
	unsigned char texels[4 * 8];
	for (int i = 0; i < 8; i++) {
		texels[4 * i] = 10 * i;
		texels[4 * i + 1] = 255;
		texels[4 * i + 2] = 0;
		texels[4 * i + 3] = 255;
	}
	cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
	cl_mem img = clCreateImage2D(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, 4, 2, 0, texels, &err);
	check("image 2D (deprecated call)", err);
	cl_float2 at[6] = {{{0.5f, 0.5f}}, {{3.5f, 1.5f}}, {{-1.0f, 0.5f}}, {{5.2f, 1.5f}}, {{1.7f, 1.2f}}, {{4.5f, -0.5f}}};
	cl_mem atb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof at, at, &err);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 6 * 16, NULL, &err);
	cl_kernel k = clCreateKernel(prog, "f2", &err);
	clSetKernelArg(k, 0, sizeof img, &img);
	clSetKernelArg(k, 2, sizeof out, &out);
	clSetKernelArg(k, 3, sizeof atb, &atb);
	struct {
		cl_bool norm;
		cl_addressing_mode mode;
		const char *name;
	} cases[] = {
		{CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, "clamp to edge"},
		{CL_FALSE, CL_ADDRESS_CLAMP, "clamp"},
		{CL_FALSE, CL_ADDRESS_NONE, "none"},
		{CL_TRUE, CL_ADDRESS_REPEAT, "normalized repeat"},
		{CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, "normalized mirrored"},
		{CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, "normalized clamp to edge"},
	};
	for (int c = 0; c < 6; c++) {
		cl_sampler s = clCreateSampler(ctx, cases[c].norm, cases[c].mode, CL_FILTER_NEAREST, &err);
		clSetKernelArg(k, 1, sizeof s, &s);
		if (cases[c].norm) {
			// Normalized: the same texels, coordinates divided by the size.
			for (int i = 0; i < 6; i++) {
				at[i].s[0] /= 4;
				at[i].s[1] /= 2;
			}
			clEnqueueWriteBuffer(q, atb, CL_TRUE, 0, sizeof at, at, 0, NULL, NULL);
			for (int i = 0; i < 6; i++) {
				at[i].s[0] *= 4;
				at[i].s[1] *= 2;
			}
		} else {
			clEnqueueWriteBuffer(q, atb, CL_TRUE, 0, sizeof at, at, 0, NULL, NULL);
		}
		size_t n = cases[c].mode == CL_ADDRESS_NONE ? 2 : 6; // NONE is undefined outside
		clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
		float v[24];
		clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 16, v, 0, NULL, NULL);
		printf("%s:", cases[c].name);
		for (size_t i = 0; i < n; i++) {
			printf(" (%.0f %.0f %.0f %.0f)", v[4 * i] * 255, v[4 * i + 1] * 255, v[4 * i + 2] * 255, v[4 * i + 3] * 255);
		}
		printf("\n");
		clReleaseSampler(s);
	}
	// A sampler from properties, and its info.
	cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
	cl_sampler ps = clCreateSamplerWithProperties(ctx, props, &err);
	check("sampler with properties", err);
	cl_bool norm;
	cl_addressing_mode mode;
	cl_filter_mode filter;
	cl_uint refs;
	clRetainSampler(ps);
	clGetSamplerInfo(ps, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL);
	clGetSamplerInfo(ps, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, NULL);
	clGetSamplerInfo(ps, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, NULL);
	clGetSamplerInfo(ps, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
	printf("sampler info: norm %u mode %#x filter %#x refs %u\n", norm, mode, filter, refs);
	check("release sampler", clReleaseSampler(ps));
	check("release sampler", clReleaseSampler(ps));
	// Bad sampler arguments.
	spec("sampler arg is a buffer", clSetKernelArg(k, 1, sizeof out, &out), CL_INVALID_SAMPLER);
	check("sampler arg size", clSetKernelArg(k, 1, 4, &out));
	clCreateSampler(ctx, CL_FALSE, 0x1234, CL_FILTER_NEAREST, &err);
	spec("bad addressing mode", err, CL_INVALID_VALUE);
	clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, 0x99, &err);
	spec("bad filter mode", err, CL_INVALID_VALUE);
	cl_int dims[2];
	cl_kernel kd = clCreateKernel(prog, "fdims", &err);
	clSetKernelArg(kd, 0, sizeof img, &img);
	clSetKernelArg(kd, 1, sizeof out, &out);
	size_t one = 1;
	clEnqueueNDRangeKernel(q, kd, 1, NULL, &one, NULL, 0, NULL, NULL);
	clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof dims, dims, 0, NULL, NULL);
	printf("image dims in a kernel: %d %d\n", dims[0], dims[1]);
	clReleaseKernel(kd);
	clReleaseKernel(k);
	clReleaseMemObject(out);
	clReleaseMemObject(atb);
	clReleaseMemObject(img);
}

// commands: copies, fills, maps and host transfers with pitches.
static void commands(void)
{
	cl_int err;
	cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
	unsigned char px[6 * 4 * 4];
	for (int i = 0; i < (int)sizeof px; i++) {
		px[i] = i;
	}
	// A 6x4 image from host memory with a row pitch of 28 bytes (6 texels
	// and one spare).
	unsigned char pitched[28 * 4];
	for (int y = 0; y < 4; y++) {
		memcpy(pitched + 28 * y, px + 24 * y, 24);
	}
	cl_image_desc d = {CL_MEM_OBJECT_IMAGE2D, 6, 4, 0, 0, 28, 0, 0, 0, NULL};
	cl_mem a = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, pitched, &err);
	check("image with row pitch", err);
	cl_image_desc d0 = {CL_MEM_OBJECT_IMAGE2D, 6, 4, 0, 0, 0, 0, 0, 0, NULL};
	cl_mem b = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d0, NULL, &err);
	size_t o0[3] = {0, 0, 0}, o1[3] = {1, 1, 0}, o2[3] = {3, 2, 0}, r22[3] = {2, 2, 1}, all[3] = {6, 4, 1};
	cl_uint color[4] = {1, 2, 3, 4};
	check("fill image", clEnqueueFillImage(q, b, color, o0, all, 0, NULL, NULL));
	check("copy image", clEnqueueCopyImage(q, a, b, o1, o2, r22, 0, NULL, NULL));
	unsigned char got[96];
	check("read image", clEnqueueReadImage(q, b, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
	printf("after fill and copy:");
	for (int i = 0; i < 96; i += 4) {
		printf(" %d", got[i]);
	}
	printf("\n");
	// Write a 2x2 region with a host row pitch of 12 bytes.
	unsigned char patch[24];
	memset(patch, 250, sizeof patch);
	check("write image", clEnqueueWriteImage(q, b, CL_TRUE, o0, r22, 12, 0, patch, 0, NULL, NULL));
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 200, NULL, &err);
	check("image to buffer", clEnqueueCopyImageToBuffer(q, b, buf, o0, all, 4, 0, NULL, NULL));
	check("buffer to image", clEnqueueCopyBufferToImage(q, buf, a, 4 + 4 * 6, o0, (size_t[]){6, 3, 1}, 0, NULL, NULL));
	size_t row;
	unsigned char *m = clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o1, (size_t[]){3, 2, 1}, &row, NULL, 0, NULL, NULL, &err);
	check("map image", err);
	printf("mapped:");
	for (int y = 0; y < 2; y++) {
		for (int x = 0; x < 3; x++) {
			printf(" %d", m[y * row + 4 * x]);
		}
	}
	printf("\n");
	m[0] = 99;
	m[row + 8] = 98;
	check("unmap image", clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
	check("read image", clEnqueueReadImage(q, a, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
	printf("after map:");
	for (int i = 0; i < 96; i += 4) {
		printf(" %d", got[i]);
	}
	printf("\n");
	// A USE_HOST_PTR image: a kernel's writes reach the host memory.
	cl_image_format fi = {CL_RGBA, CL_SIGNED_INT32};
	static int hostimg[4 * 4 * 3];
	cl_mem u = clCreateImage2D(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &fi, 4, 3, 0, hostimg, &err);
	check("use host ptr image", err);
	cl_image_desc d2 = {CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0, 0, 0, 0, 0, NULL};
	cl_mem in = make(d2, 12);
	cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
	size_t g2[3] = {4, 3, 1};
	run("k2", in, s, u, 2, g2, g2);
	clFinish(q);
	printf("host image: %d %d %d\n", hostimg[0], hostimg[4 * 5], hostimg[4 * 11]);
	// 3D image made with the deprecated call, filled in part, then mapped.
	cl_mem v = clCreateImage3D(ctx, CL_MEM_READ_WRITE, &fi, 2, 2, 3, 0, 0, NULL, &err);
	check("image 3D (deprecated call)", err);
	cl_int icolor[4] = {-7, 0, 0, 0};
	clEnqueueFillImage(q, v, (cl_int[]){5, 0, 0, 0}, o0, (size_t[]){2, 2, 3}, 0, NULL, NULL);
	clEnqueueFillImage(q, v, icolor, (size_t[]){1, 0, 1}, (size_t[]){1, 2, 2}, 0, NULL, NULL);
	size_t slice;
	int *mv = clEnqueueMapImage(q, v, CL_TRUE, CL_MAP_READ, o0, (size_t[]){2, 2, 3}, &row, &slice, 0, NULL, NULL, &err);
	check("map 3D", err);
	printf("3D:");
	for (int z = 0; z < 3; z++) {
		for (int y = 0; y < 2; y++) {
			for (int x = 0; x < 2; x++) {
				printf(" %d", *(int *)((char *)mv + z * slice + y * row + 16 * x));
			}
		}
	}
	printf("\n");
	clEnqueueUnmapMemObject(q, v, mv, 0, NULL, NULL);
	// Errors.
	cl_image_format bad = {CL_RGB, CL_UNORM_SHORT_565};
	clCreateImage2D(ctx, CL_MEM_READ_WRITE, &bad, 4, 4, 0, NULL, &err);
	spec("unsupported format", err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
	cl_image_format invalid = {CL_RGB, CL_FLOAT};
	clCreateImage2D(ctx, CL_MEM_READ_WRITE, &invalid, 4, 4, 0, NULL, &err);
	spec("invalid format", err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	clCreateImage(ctx, CL_MEM_READ_WRITE, &f, NULL, NULL, &err);
	check("no descriptor", err);
	cl_image_desc pitch = {CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0, 8, 0, 0, 0, NULL};
	clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &pitch, pitched, &err);
	spec("row pitch too small", err, CL_INVALID_IMAGE_DESCRIPTOR);
	cl_image_desc huge = {CL_MEM_OBJECT_IMAGE2D, 1 << 20, 4, 0, 0, 0, 0, 0, 0, NULL};
	clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &huge, NULL, &err);
	spec("too wide", err, CL_INVALID_IMAGE_SIZE);
	check("read outside", clEnqueueReadImage(q, b, CL_TRUE, o2, all, 0, 0, got, 0, NULL, NULL));
	check("2D region depth", clEnqueueReadImage(q, b, CL_TRUE, o0, (size_t[]){1, 1, 2}, 0, 0, got, 0, NULL, NULL));
	check("copy format mismatch", clEnqueueCopyImage(q, a, u, o0, o0, r22, 0, NULL, NULL));
	check("image to small buffer", clEnqueueCopyImageToBuffer(q, b, buf, o0, all, 150, 0, NULL, NULL));
	clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ, o0, r22, NULL, NULL, 0, NULL, NULL, &err);
	check("map without row pitch", err);
	cl_uint nf;
	check("supported formats", clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nf));
	cl_image_format fs[64];
	clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 64, fs, NULL);
	int minimum = 0;
	cl_channel_type need[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
		CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
	for (cl_uint i = 0; i < nf && i < 64; i++) {
		for (int j = 0; j < 10; j++) {
			minimum += fs[i].image_channel_order == CL_RGBA && fs[i].image_channel_data_type == need[j];
		}
		minimum += fs[i].image_channel_order == CL_BGRA && fs[i].image_channel_data_type == CL_UNORM_INT8;
	}
	printf("the 1.2 minimum formats: %d of 11\n", minimum);
	clReleaseSampler(s);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	cl_platform_id platform;
	cl_int err;
	clGetPlatformIDs(1, &platform, NULL);
	clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
	cl_bool images;
	clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
	printf("image support %u\n", images);
	ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	q = clCreateCommandQueue(ctx, device, 0, &err);
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	check("build", clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	if (err != CL_SUCCESS) {
		return 1;
	}
	dimensions();
	sampling();
	commands();
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
