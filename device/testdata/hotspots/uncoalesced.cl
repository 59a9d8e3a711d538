// One deliberately slow line: a strided load, each lane of a warp in a
// line of its own, beside a coalesced load of as many elements
// (device/hotspots_test.go).
__kernel void uncoalesced(__global const float *in, __global float *out, int stride, int mask) {
	int i = get_global_id(0);
	float a = in[i];
	float b = in[(i * stride) & mask]; // slow
	float c = a * 0.5f + 1.0f;
	out[i] = b + c;
}
