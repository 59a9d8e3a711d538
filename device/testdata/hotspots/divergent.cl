// One deliberately slow line: heavy work on one side of a branch taken by
// one work-item in eight, so every warp runs it with most lanes idle
// (device/hotspots_test.go).
__kernel void divergent(__global float *data, int n) {
	int i = get_global_id(0);
	float x = data[i];
	if ((i & 7) == 0)
		for (int k = 0; k < n; k++) x = x * 1.0001f + 0.5f; // slow
	else
		x = x + 1.0f;
	data[i] = x;
}
