// C (M x N) = A (M x K) * B (K x N), row-major floats, computed in TILE x TILE
// blocks staged through local memory. M, N and K must be multiples of TILE
// and the work-group TILE x TILE; compile with -D TILE=8 (or 4, 16).
#ifndef TILE
#error compile with -D TILE=N
#endif

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, int M, int N, int K)
{
    __local float a[TILE][TILE];
    __local float b[TILE][TILE];
    int col = get_global_id(0);
    int row = get_global_id(1);
    int x = get_local_id(0);
    int y = get_local_id(1);
    float sum = 0.0f;
    for (int base = 0; base < K; base += TILE) {
        a[y][x] = A[row * K + base + x];
        b[y][x] = B[(base + y) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            sum += a[y][k] * b[k][x];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = sum;
}
