// A Rodinia-hotspot-style thermal stencil of my own: 16x16 work-groups
// load a tile of temperature and power into local memory and run several
// time steps on it, each shrinking the valid region by one cell (a
// pyramid), then write the inner cells back.
#define BS 16
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : ((x) > (hi) ? (hi) : (x)))
__kernel void hotspot(int iters, __global const float *power, __global const float *tin,
                      __global float *tout, int cols, int rows, int borderCols, int borderRows,
                      float cap, float rx, float ry, float rz, float step) {
  __local float t[BS][BS];
  __local float p[BS][BS];
  __local float n[BS][BS];
  float ambient = 80.0f;
  int bx = get_group_id(0), by = get_group_id(1);
  int tx = get_local_id(0), ty = get_local_id(1);
  float sdc = step / cap;
  int small = BS - iters * 2;
  int x0 = small * bx - borderCols, y0 = small * by - borderRows;
  int gx = x0 + tx, gy = y0 + ty;
  int idx = cols * gy + gx;
  if (gx >= 0 && gx < cols && gy >= 0 && gy < rows) {
    t[ty][tx] = tin[idx];
    p[ty][tx] = power[idx];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int vy0 = y0 < 0 ? -y0 : 0, vy1 = y0 + BS - 1 > rows - 1 ? BS - 1 - (y0 + BS - rows) : BS - 1;
  int vx0 = x0 < 0 ? -x0 : 0, vx1 = x0 + BS - 1 > cols - 1 ? BS - 1 - (x0 + BS - cols) : BS - 1;
  int N = CLAMP(ty - 1, vy0, vy1), S = CLAMP(ty + 1, vy0, vy1);
  int W = CLAMP(tx - 1, vx0, vx1), E = CLAMP(tx + 1, vx0, vx1);
  bool computed = false;
  for (int i = 0; i < iters; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= BS - i - 2 && ty >= i + 1 && ty <= BS - i - 2 &&
        tx >= vx0 && tx <= vx1 && ty >= vy0 && ty <= vy1) {
      computed = true;
      float c = t[ty][tx];
      n[ty][tx] = c + sdc * (p[ty][tx] + (t[S][tx] + t[N][tx] - 2.0f * c) * ry +
                             (t[ty][E] + t[ty][W] - 2.0f * c) * rx + (ambient - c) * rz);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == iters - 1) break;
    if (computed) t[ty][tx] = n[ty][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed) tout[idx] = n[ty][tx];
}
