// Control flow for the IR builder's tests (ir/control_run_test.go has the
// references): a switch with fall-through and an early return, a switch on
// a 64-bit value, a loop whose variables swap (phi copies that read each
// other), and loops with break, continue and a nested do-while.

__kernel void sw(__global const int *in, __global const int *flag, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i];
    int r;
    switch (x) {
    case 0:
        r = 10;
        break;
    case 1:
        r = 11;
    case 2:
        r = x * 2;
        break;
    case 5:
        r = -x;
        break;
    case 6:
        if (flag[i]) {
            out[i] = 99;
            return;
        }
        r = 6;
        break;
    default:
        r = x + 1000;
    }
    out[i] = r;
}

__kernel void sw64(__global const long *in, __global long *out)
{
    size_t i = get_global_id(0);
    long x = in[i];
    long r;
    switch (x) {
    case 0x100000000L:
        r = 1;
        break;
    case -1L:
        r = 2;
        break;
    case 3:
        r = 3;
        break;
    default:
        r = x ^ 0x5555;
    }
    out[i] = r;
}

__kernel void swap(__global const int *n, __global uint *out)
{
    int i = get_global_id(0);
    uint a = 0, b = 1;
    for (int k = 0; k < n[i]; k++) {
        uint t = a;
        a = b;
        b = t + b;
    }
    out[2 * i] = a;
    out[2 * i + 1] = b;
}

__kernel void loops(__global const int *in, __global uint *out)
{
    int i = get_global_id(0);
    uint acc = 0;
    for (int k = 0; k < 64; k++) {
        if (k == in[i])
            break;
        if ((k & 3) == 1)
            continue;
        int j = k;
        do {
            acc = acc * 3u + (uint)j;
            j -= 7;
        } while (j > 0);
    }
    if ((acc & 15) == 3)
        return;
    out[i] = acc;
}
