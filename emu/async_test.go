package emu

import "testing"

// async_work_group_copy copies once per work-group: with two warps per
// work-group, the second warp reaching the copy after the first one had
// waited and tripled its elements used to copy again and undo that (PoCL
// gives the tripled tile). In a loop, each round's copy happens once.
func TestAsyncCopyOncePerWorkGroup(t *testing.T) {
	const n, groupSize = 32, 8
	in := make([]int32, 3*n)
	for i := range in {
		in[i] = int32(i*7 - 50)
	}
	for _, width := range []int{4, 8} {
		out := filled(2*n, -1)
		klaunch{file: "async.spv", entry: "tile3", global: [3]int{n, 1, 1}, local: [3]int{groupSize, 1, 1}, width: width,
			args: []any{&kbuf{data: le32(in[:n]...)}, out, klocal(4 * groupSize)}}.mustRun(t)
		for i := 0; i < 2*n; i++ {
			want := int32(-1)
			if i%2 == 0 {
				want = 3 * in[i/2]
			}
			if got := at32(out.data, i); got != want {
				t.Errorf("width %d: tile3 out[%d] = %d, want %d", width, i, got, want)
			}
		}

		acc := filled(n, 0)
		klaunch{file: "async.spv", entry: "rounds", global: [3]int{n, 1, 1}, local: [3]int{groupSize, 1, 1}, width: width,
			args: []any{&kbuf{data: le32(in...)}, acc, klocal(4 * groupSize)}}.mustRun(t)
		for i := 0; i < n; i++ {
			g, l := i/groupSize, i%groupSize
			want := int32(0)
			for r := 0; r < 3; r++ {
				want += in[(g*3+r)*groupSize+(l+1)%groupSize] + int32(r*1000)
			}
			if got := at32(acc.data, i); got != want {
				t.Errorf("width %d: rounds out[%d] = %d, want %d", width, i, got, want)
			}
		}
	}
}
