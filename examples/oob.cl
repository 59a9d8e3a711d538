// Writes one element past the end of its buffer: work-item n-1 faults, and
// pocketgpu reports it as a driver's GPU fault report would (docs/run.md).
__kernel void oob(__global float *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = (float)i;
}
