// Writes one element past the end of its output: a GPU fault.
__kernel void oob(__global float *out, uint n)
{
    uint i = get_global_id(0);
    out[i + (i == n - 1 ? 1 : 0)] = (float)i;
}
