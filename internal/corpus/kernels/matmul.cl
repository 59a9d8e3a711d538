// C (M x N) = A (M x K) * B (K x N), row-major, in TILE x TILE tiles staged
// through __local arrays declared in the kernel. M, N and K are multiples of
// TILE (set with -DTILE=...).
#ifndef TILE
#error define TILE
#endif

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, int M, int N, int K)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ly][lx] = A[row * K + t + lx];
        Bs[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
