// One deliberately slow line: __local reads 16 floats apart, so the
// threads served together all read one bank (seed 003 §Common Store on
// Rogue; a cache line each on Mali), beside as many conflict-free reads
// (device/hotspots_test.go).
__kernel void bankconflict(__global float *out) {
	__local float tile[1024];
	int l = get_local_id(0);
	float v = (float)l;
	#pragma unroll
	for (int k = 0; k < 16; k++) tile[l + k * 64] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	float s = 0.0f, t = 0.0f;
	#pragma unroll
	for (int k = 0; k < 16; k++) t += tile[l + k * 64];
	#pragma unroll
	for (int k = 0; k < 16; k++) s += tile[l * 16 + k]; // slow
	out[get_global_id(0)] = s + t;
}
