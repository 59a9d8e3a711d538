// y = a*x + y over n floats, one work-item per element: the "hello world"
// of GPU compute. Used by docs/run.md:
//   go run ./cmd/pocketgpu run --gpu mali-g52 examples/saxpy.cl --global 4096 \
//       --arg buf:f32:4096=random --arg buf:f32:4096=iota --arg f32:2.0 --print 1:8
__kernel void saxpy(__global const float *x, __global float *y, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
