# pyopencl's array library on a simulated GPU: its reductions, scans and
# elementwise kernels are generated, built and cached by pyopencl, and size
# their work-groups from the device's and kernels' answers.
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clm
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel

ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
q = cl.CommandQueue(ctx)
a = np.random.RandomState(1).rand(5000).astype(np.float32)
da = cla.to_device(q, a)


def close(x, y):
    return bool(np.allclose(x, y, rtol=1e-4, atol=1e-5))


print("sum", close(cla.sum(da).get(), a.sum()))
print("dot", close(cla.dot(da, da).get(), a.dot(a)))
print("max", cla.max(da).get() == a.max())
print("expression", close((2 * da + da * da).get(), 2 * a + a * a))
print("exp", close(clm.exp(da).get(), np.exp(a)))
times3 = ElementwiseKernel(ctx, "float *x, float *y", "y[i] = x[i] * 3.0f", "times3")
dy = cla.empty_like(da)
times3(da, dy)
print("elementwise", close(dy.get(), 3 * a))
squares = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*x[i]",
                          arguments="__global float *x")
print("reduction", close(squares(da).get(), (a * a).sum()))
print("cumsum", close(cla.cumsum(da).get(), np.cumsum(a)))
