// Unsuffixed double literals: double arithmetic where the GPU has
// cl_khr_fp64 (Mali-T760), float with clang's warning where it has not.
__kernel void k(__global float *a) { size_t i = get_global_id(0); a[i] = a[i] / 3.0 + 0.1; }
