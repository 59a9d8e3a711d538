__kernel void strided(__global const float *in, __global float *out, int stride) {
    int i = get_global_id(0);
    float a = in[i];
    float b = in[(i * stride) % 65536];
    float c = a * 2.0f + 1.0f;
    out[i] = b + c;
}
