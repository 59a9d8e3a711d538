// ArchProbe-style peak FLOPS kernel, VEC-wide: each work-item runs a long
// unrolled chain of dependent multiply-adds on two vectors.
#ifndef VEC
#define VEC 4
#endif
#define T_(n) float##n
#define T(n) T_(n)
__kernel void gflops(__global float* out, float seed) {
  T(VEC) x = (T(VEC))(seed) + (float)get_local_id(0);
  T(VEC) y = (T(VEC))(seed * 0.5f);
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    x = mad(x, y, y);
    y = mad(y, x, x);
  }
#ifdef WIDE
  // Two more chains live beside the first: twice the registers.
  T(VEC) u = x * 0.25f, v = y * 0.75f;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    u = mad(u, v, x);
    v = mad(v, u, y);
  }
  x += u * v;
#endif
  T(VEC) s = x + y;
  float r = 0.0f;
  for (int i = 0; i < VEC; ++i) r += ((float*)&s)[i];
  out[get_global_id(0)] = r;
}
