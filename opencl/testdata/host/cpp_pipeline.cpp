// A small pipeline through the Khronos C++ bindings (opencl.hpp): a
// program of three kernels (scale, prefix per work-group through __local
// memory, and a reduction of the group sums), run in turn on one queue
// with events between them, results printed.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdio>
#include <vector>

static const char *source = R"CLC(
__kernel void scale(__global const float *in, __global float *out, float k)
{ size_t i = get_global_id(0); out[i] = in[i] * k; }

__kernel void group_prefix(__global float *data, __global float *sums, __local float *tmp)
{
	size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
	tmp[l] = data[g];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = 1; s < n; s *= 2) {
		float v = l >= s ? tmp[l - s] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		tmp[l] += v;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	data[g] = tmp[l];
	if (l == n - 1) sums[get_group_id(0)] = tmp[l];
}

__kernel void total(__global const float *sums, __global float *out, uint n)
{ float t = 0; for (uint i = 0; i < n; i++) t += sums[i]; out[0] = t; }
)CLC";

int main()
{
	try {
		std::vector<cl::Platform> platforms;
		cl::Platform::get(&platforms);
		std::vector<cl::Device> devices;
		platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
		cl::Device dev = devices.at(0);
		cl::Context ctx(dev);
		cl::CommandQueue q(ctx, dev);
		cl::Program prog(ctx, source);
		prog.build({dev}, "-cl-std=CL1.2");
		const size_t n = 256, local = 16, groups = n / local;
		std::vector<float> in(n);
		for (size_t i = 0; i < n; i++)
			in[i] = float(i % 7);
		cl::Buffer bin(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), in.data());
		cl::Buffer bdata(ctx, CL_MEM_READ_WRITE, n * sizeof(float));
		cl::Buffer bsums(ctx, CL_MEM_READ_WRITE, groups * sizeof(float));
		cl::Buffer btotal(ctx, CL_MEM_WRITE_ONLY, sizeof(float));

		cl::KernelFunctor<cl::Buffer, cl::Buffer, float> scale(prog, "scale");
		cl::KernelFunctor<cl::Buffer, cl::Buffer, cl::LocalSpaceArg> prefix(prog, "group_prefix");
		cl::KernelFunctor<cl::Buffer, cl::Buffer, cl_uint> total(prog, "total");
		cl::Event e1 = scale(cl::EnqueueArgs(q, cl::NDRange(n)), bin, bdata, 0.5f);
		cl::Event e2 = prefix(cl::EnqueueArgs(q, e1, cl::NDRange(n), cl::NDRange(local)), bdata, bsums, cl::Local(local * sizeof(float)));
		cl::Event e3 = total(cl::EnqueueArgs(q, e2, cl::NDRange(1)), bsums, btotal, cl_uint(groups));
		e3.wait();

		std::vector<float> data(n), sums(groups);
		float t = 0;
		q.enqueueReadBuffer(bdata, CL_TRUE, 0, n * sizeof(float), data.data());
		q.enqueueReadBuffer(bsums, CL_TRUE, 0, groups * sizeof(float), sums.data());
		q.enqueueReadBuffer(btotal, CL_TRUE, 0, sizeof t, &t);
		std::printf("prefix of group 0: %g %g %g ... %g\n", data[0], data[1], data[2], data[local - 1]);
		std::printf("group sums: %g %g ... %g\n", sums[0], sums[1], sums[groups - 1]);
		std::printf("total %g\n", t);
		std::printf("kernels: %s\n", prog.getInfo<CL_PROGRAM_NUM_KERNELS>() == 3 ? "3" : "wrong");
		std::printf("event statuses: %d %d %d\n", e1.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(),
			    e2.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), e3.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>());
		try {
			cl::Kernel missing(prog, "missing");
		} catch (const cl::Error &e) {
			std::printf("missing kernel: %s %d\n", e.what(), e.err());
		}
	} catch (const cl::Error &e) {
		std::printf("FAIL %s: %d\n", e.what(), e.err());
		return 1;
	}
	return 0;
}
