// Line information through the builder (ir/lines_test.go).
float twice(float x) {
	return x * 2.0f;
}

__kernel void lines(__global float *a) {
	size_t i = get_global_id(0);
	float v = a[i];
	float w = twice(v);
	a[i] = w + 1.0f;
}
