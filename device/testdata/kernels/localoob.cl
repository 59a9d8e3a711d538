// A kernel with an off-by-one bug: the last work-item of each work-group
// writes one int past its work-group's local memory.
__kernel void localoob(__global int *out) {
	__local int tile[64];
	int l = get_local_id(0);
	tile[l + 1] = l;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[l];
}
