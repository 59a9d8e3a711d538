// Divergent control flow: every work-item runs its own trip count, takes
// nested if/else paths, skips iterations with continue and may leave early
// with break; then a data-dependent while loop (Collatz steps, capped).
__kernel void divergent(__global const uint *trips, __global uint *out)
{
    uint i = get_global_id(0);
    uint n = trips[i] % 37u;
    uint acc = i;
    for (uint k = 0; k < n; k++) {
        if (k % 7u == 3u)
            continue;
        if (acc > 100000u) {
            if (i & 1u)
                acc = acc / 3u + k;
            else
                acc ^= k << 4;
        } else if ((acc & 3u) == 2u) {
            acc = acc * 5u + 1u;
        } else {
            acc += k * k;
        }
        if (acc % 97u == 13u)
            break;
    }
    uint steps = 0;
    uint x = acc;
    while (x > 1u && steps < 64u) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
    }
    out[i] = acc ^ (steps << 24);
}
