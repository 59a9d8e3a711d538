// Compiled with plain -O2 and no pass list, llvm-spirv-14 places a loop block
// before the block that defines a value it uses (spirv-val: "ID has not been
// defined"), so the decoder must resolve ids in two passes.
__kernel void firstbig(__global int *out, __global const int *in, int n)
{
    int i = get_global_id(0);
    int s = 0;
    for (int j = 0; j < n; j++) {
        int v = in[j];
        if (v < 0)
            continue;
        for (int k = 0; k < v; k++) {
            s += k ^ i;
            if (s > 1 << 20)
                goto out;
        }
    }
out:
    out[i] = s;
}
