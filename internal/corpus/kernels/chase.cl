// Pointer chase over a ring made by chase:STRIDE: work-item i starts at slot
// i (element i*slot) and follows `steps` links; it writes where it ended and
// the sum of the element indices it visited.
__kernel void chase(__global const uint *next, __global uint2 *out,
                    uint steps, uint slot)
{
    uint i = get_global_id(0);
    uint p = i * slot;
    uint sum = 0;
    for (uint s = 0; s < steps; s++) {
        p = next[p];
        sum += p;
    }
    out[i] = (uint2)(p, sum);
}
