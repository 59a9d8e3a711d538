// clpeak-style integer peak: dependent multiply-add chains on int (the
// multiply and the add wrap, as OpenCL's int does), 2048 a work-item.
#define IMADS_4(x, y) x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + x;
#define IMADS_16(x, y) IMADS_4(x, y) IMADS_4(x, y) IMADS_4(x, y) IMADS_4(x, y)

__kernel void peak_int(__global int *out, int a)
{
    int x = a;
    int y = (int)get_local_id(0);
    for (int i = 0; i < 128; i++) {
        IMADS_16(x, y)
    }
    out[get_global_id(0)] = y;
}
