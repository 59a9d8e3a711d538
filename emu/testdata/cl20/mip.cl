// OpenCL 2.0 mipmapped reads (cl_khr_mipmap_image's read_imagef with a
// level of detail or gradients), which clang-14 compiles for spir64 at
// -cl-std=CL2.0 into OpImageSampleExplicitLod with Lod or Grad.
kernel void lod(read_only image2d_t img, sampler_t s, global const float *in, global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, (float2)(in[4 * i], in[4 * i + 1]), in[4 * i + 2]);
}

kernel void grad(read_only image2d_t img, sampler_t s, global const float *in, global float4 *out) {
    int i = get_global_id(0);
    float2 c = (float2)(in[6 * i], in[6 * i + 1]);
    out[i] = read_imagef(img, s, c, (float2)(in[6 * i + 2], in[6 * i + 3]), (float2)(in[6 * i + 4], in[6 * i + 5]));
}
