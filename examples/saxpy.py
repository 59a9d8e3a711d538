# y = a*x + y with pyopencl, unchanged from how it runs on any OpenCL
# platform: it takes the first device of the first platform, and prints
# the kernel's time from its profiling event. Under pocketgpu:
#
#   go run ./cmd/pocketgpu exec --gpu adreno-640 -- python3 examples/saxpy.py
import numpy as np
import pyopencl as cl

SOURCE = """
__kernel void saxpy(__global const float *x, __global float *y, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
"""

platform = cl.get_platforms()[0]
device = platform.get_devices()[0]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)

n = 1 << 16
x = np.arange(n, dtype=np.float32)
y = np.full(n, 2.0, dtype=np.float32)
mf = cl.mem_flags
dx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
dy = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)

program = cl.Program(ctx, SOURCE).build()
event = program.saxpy(queue, (n,), None, dx, dy, np.float32(3.0))
event.wait()
out = np.empty_like(y)
cl.enqueue_copy(queue, out, dy)

print("platform:", platform.name)
print("device:", device.name)
print("correct:", bool(np.allclose(out, 3.0 * x + y)))
print("kernel: %.1f us" % ((event.profile.end - event.profile.start) / 1000))
