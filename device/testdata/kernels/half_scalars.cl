#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// A half-precision stencil: scalar half values live across the loop.
__kernel void hsmooth(__global const half *in, __global half *out, int n) {
  int i = get_global_id(0);
  half a = in[i], b = in[(i + 1) % n], c = in[(i + 2) % n], d = in[(i + 3) % n];
  half e = in[(i + 4) % n], f = in[(i + 5) % n], g = in[(i + 6) % n], h = in[(i + 7) % n];
  half acc = (half)0.0f;
  for (int k = 0; k < 16; k++) {
    acc = acc * a + b; a = a * c + d; b = b * e + f; c = c * g + h;
    d = d + acc; e = e * acc; f = f + a; g = g * b; h = h + c;
  }
  out[i] = acc + a + b + c + d + e + f + g + h;
}
