// printf from work-groups that take different times (the first ones
// longest): with several host threads later work-groups finish first, and
// the output must still come out in work-group order.
__kernel void chatter(__global const uint *n, __global uint *out)
{
    uint i = get_global_id(0);
    uint acc = i;
    uint trips = n[get_num_groups(0) - 1 - get_group_id(0)] * 64u;
    for (uint k = 0; k < trips; k++)
        acc = acc * 1664525u + 1013904223u;
    out[i] = acc;
    if (get_local_id(0) % 7 == 0)
        printf("group %u item %u: %u\n", (uint)get_group_id(0), i, acc);
}
