package emu

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// Lanes of a warp split three ways, loop for different counts, return
// early, and meet again at the post-dominator with their own values; the
// warp widths 1 (no divergence), 4, 8 and 32 give the same results.
func TestDivergenceAndReconvergence(t *testing.T) {
	in := []int32{0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13, 27, 28, 31, 16, 17, 19, 22, 25, 30, 8, 10, 14}
	want := make([]int32, len(in))
	for i, x := range in {
		acc := int32(0)
		switch x % 3 {
		case 0:
			for k := int32(0); k < x; k++ {
				acc = (acc ^ k) + 1
			}
		case 1:
			acc = -x
			if x > 10 {
				want[i] = -7 // untouched
				continue
			}
		default:
			for k := x; k > 1; acc++ {
				if k&1 != 0 {
					k = 3*k + 1
				} else {
					k /= 2
				}
			}
		}
		want[i] = acc*2 + 1
	}
	for _, width := range []int{1, 4, 8, 32} {
		out := filled(len(in), -7)
		d := klaunch{file: "exec.spv", entry: "diverge", global: [3]int{len(in), 1, 1}, local: [3]int{len(in), 1, 1}, width: width,
			args: []any{&kbuf{data: le32(in...)}, out}}.mustRun(t)
		for i := range in {
			if got := at32(out.data, i); got != want[i] {
				t.Errorf("width %d: diverge(%d) = %d, want %d", width, in[i], got, want[i])
			}
		}
		if d.Stats.WorkGroups != 1 || d.Stats.Warps != uint64((len(in)+width-1)/width) || d.Stats.ThreadInsts < d.Stats.WarpInsts {
			t.Errorf("width %d: stats %+v", width, d.Stats)
		}
	}
}

// Atomics run lane by lane in lane order, warps in order, work-groups in
// order: the counter's old values are the global ids.
func TestAtomicsInLaneOrder(t *testing.T) {
	const n = 40
	counter, seen, mixed := filled(1, 0), filled(n, -1), &kbuf{data: make([]byte, 16)}
	klaunch{file: "exec.spv", entry: "order", global: [3]int{n, 1, 1}, local: [3]int{20, 1, 1}, width: 8,
		args: []any{counter, seen, mixed}}.mustRun(t)
	for i := 0; i < n; i++ {
		if got := at32(seen.data, i); got != int32(i) {
			t.Errorf("atomic_inc seen by %d = %d, want %d", i, got, i)
		}
	}
	if got := at32(counter.data, 0); got != n {
		t.Errorf("counter = %d, want %d", got, n)
	}
	if x, m := binary.LittleEndian.Uint64(mixed.data), binary.LittleEndian.Uint64(mixed.data[8:]); x != 1<<n-1 || m != (n-1)*0x100000001 {
		t.Errorf("atom_xor = %#x, atom_max = %#x", x, m)
	}
}

// Every id builtin on a 2D NDRange with a global offset.
func TestBuiltins(t *testing.T) {
	const gx, gy, lx, ly, ox, oy = 6, 4, 3, 2, 100, 7
	out := filled(12*gx*gy, -1)
	klaunch{file: "exec.spv", entry: "ids", global: [3]int{gx, gy, 1}, local: [3]int{lx, ly, 1}, width: 4,
		setup: func(d *Dispatch) { d.Dims, d.Offset = 2, [3]int{ox, oy, 0} }, args: []any{out}}.mustRun(t)
	for y := 0; y < gy; y++ {
		for x := 0; x < gx; x++ {
			g := y*gx + x
			want := []int32{int32(x + ox), int32(y + oy), int32(x % lx), int32(y % ly), int32(x / lx), int32(y / ly),
				gx / lx, gy, ox, 2, ly, lx}
			for k, w := range want {
				if got := at32(out.data, 12*g+k); got != w {
					t.Errorf("work-item (%d,%d): builtin %d = %d, want %d", x, y, k, got, w)
				}
			}
		}
	}
}

// Memory faults name the kernel, the work-item, the address and the buffer
// nearest it; the first faulting lane is reported and the run stops.
func TestFaults(t *testing.T) {
	for _, c := range []struct {
		name  string
		l     klaunch
		wants []string
	}{
		{"store past the end", klaunch{file: "exec.spv", entry: "store_at", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{filled(8, 0), kval(le32(3))}},
			[]string{"GPU fault in kernel store_at: work-item (5,0,0)", "write of 4 bytes at global address", "0 bytes past the end of buffer \"arg0\"", "out of bounds"}},
		{"store before the start", klaunch{file: "exec.spv", entry: "store_at", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{filled(8, 0), kval(le32(-2))}},
			[]string{"work-item (0,0,0)", "8 bytes before buffer \"arg0\""}},
		{"write to a read-only buffer", klaunch{file: "exec.spv", entry: "write_const", global: [3]int{4, 1, 1}, local: [3]int{4, 1, 1},
			args: []any{&kbuf{data: le32(1, 2, 3, 4), ro: true}, filled(4, 0)}},
			[]string{"work-item (0,0,0)", "write to a read-only buffer", "inside buffer \"arg0\""}},
		{"local memory, strict", klaunch{file: "exec.spv", entry: "local_at", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
			args: []any{klocal(32), filled(8, 0), kval(le32(1))}, setup: func(d *Dispatch) { d.Strict = true }},
			[]string{"work-item (7,0,0)", "local address 0x20", "(local memory is 32 bytes)"}},
	} {
		_, err := c.l.run(t)
		var f *Fault
		if !errors.As(err, &f) {
			t.Errorf("%s: %v, want a *Fault", c.name, err)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

// Outside Strict, a local access out of bounds runs on: counted, the
// write dropped, with the lowest site recorded.
func TestLocalOutOfBoundsRunsOn(t *testing.T) {
	var d *Dispatch
	_, err := klaunch{file: "exec.spv", entry: "local_at", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
		args: []any{klocal(32), filled(8, 0), kval(le32(1))}, setup: func(x *Dispatch) { d = x }}.run(t)
	if err != nil {
		t.Fatalf("%v, want the kernel to run on", err)
	}
	if d.Stats.LocalOutOfBounds != 1 || d.Stats.LocalOutOfBoundsSite <= 0 {
		t.Errorf("stats %+v, want one access out of bounds and its site", d.Stats)
	}
}

// A barrier some work-items of a warp skip, and a barrier some work-items
// never reach because they returned, are kernel errors naming one missing
// work-item.
func TestBarrierErrors(t *testing.T) {
	_, err := klaunch{file: "exec.spv", entry: "half_barrier", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
		args: []any{filled(8, 0)}}.run(t)
	var ke *KernelError
	if !errors.As(err, &ke) || !strings.Contains(err.Error(), "work-item (3,0,0) is on another path (divergent control flow around a barrier)") {
		t.Errorf("divergent barrier: %v", err)
	}
	for _, width := range []int{4, 8} {
		_, err = klaunch{file: "exec.spv", entry: "exit_then_barrier", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1}, width: width,
			args: []any{filled(8, 0)}}.run(t)
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), "work-item (5,0,0)") || !strings.Contains(err.Error(), "kernel exit_then_barrier, work-group (0,0,0)") {
			t.Errorf("width %d: barrier after a return: %v", width, err)
		}
	}
}

// A kernel that never ends stops at its instruction budget, or when its
// context is cancelled, naming the block it loops in; with no budget the
// stall check stops it once no work-group has finished for stallWork units.
func TestRunControl(t *testing.T) {
	spin := klaunch{file: "exec.spv", entry: "spin", global: [3]int{4, 1, 1}, local: [3]int{4, 1, 1},
		args: []any{filled(1, 0), kval(le32(1))}}

	l := spin
	l.setup = func(d *Dispatch) { d.MaxWarpInsts = 5000 }
	d, err := l.run(t)
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "did not finish within 5000 warp instructions; it was running block %") ||
		!strings.Contains(err.Error(), "(in 1 loop(s))") {
		t.Errorf("budget: %v", err)
	}
	if d.Budget() != 5000 || d.Stats.WarpInsts <= 5000 {
		t.Errorf("budget %d, %d warp instructions", d.Budget(), d.Stats.WarpInsts)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("user pressed ^C")
	cancel(cause)
	l = spin
	l.setup = func(d *Dispatch) { d.Ctx = ctx }
	_, err = l.run(t)
	if !errors.Is(err, ErrStopped) || !errors.Is(err, cause) || !strings.Contains(err.Error(), "kernel spin stopped after 0 of 1 work-groups") {
		t.Errorf("cancelled: %v", err)
	}

	// The stall check, driven directly: work piles up while the number of
	// finished work-groups stays put.
	l = spin
	d, _, err = l.dispatch(t)
	if err != nil {
		t.Fatal(err)
	}
	if d.Budget() != Unlimited {
		t.Errorf("no budget given: Budget() = %d", d.Budget())
	}
	wg := d.NewWorkGroup(0)
	for i := 0; i < 3; i++ {
		wg.Warps[0].Step()
	}
	if err := d.Checkpoint(0, 0); err != nil {
		t.Fatalf("first checkpoint: %v", err)
	}
	d.Stats.ThreadInsts += stallWork + 1
	err = d.Checkpoint(0, 0)
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "kernel spin seems hung: no work-group finished") || !strings.Contains(err.Error(), "it was running block %") {
		t.Errorf("stall: %v", err)
	}
	// Progress made resets the stall count.
	d.Stats.ThreadInsts += stallWork + 1
	if err := d.Checkpoint(1, 0); err != nil {
		t.Errorf("a finished work-group: %v", err)
	}
}

// Progress is reported at the end with every work-group done.
func TestProgress(t *testing.T) {
	var last Progress
	calls := 0
	klaunch{file: "exec.spv", entry: "diverge", global: [3]int{32, 1, 1}, local: [3]int{8, 1, 1},
		setup: func(d *Dispatch) { d.Progress = func(p Progress) { last, calls = p, calls+1 } },
		args:  []any{filled(32, 3), filled(32, 0)}}.mustRun(t)
	if calls == 0 || last.GroupsDone != 4 || last.Groups != 4 || last.WarpInsts == 0 {
		t.Errorf("%d calls, last %+v", calls, last)
	}
}

// printf formats each active lane's line in lane order, with C's
// conversions: flags, width and precision, length modifiers, OpenCL vector
// specifiers, strings from constant memory.
func TestPrintf(t *testing.T) {
	var out strings.Builder
	klaunch{file: "exec.spv", entry: "say", global: [3]int{8, 1, 1}, local: [3]int{8, 1, 1},
		setup: func(d *Dispatch) { d.Printf = &out },
		args:  []any{&kbuf{data: lef32(1.5, -0.125, 1234567)}, &kbuf{data: []byte("hey\x00")}, kval(le32(3))}}.mustRun(t)
	// The lines glibc's printf gives for the same arguments.
	want := "item 0:  1.50|0   |ff|10|A|hey|1.500000e+03|0|%|1,-2,3,-4|0XABC|0|+0\n" +
		"item 1: -0.12|3   |100|10|B|hey|-1.250000e+02|4294967295|%|1,-2,3,-4|0XABC|1099511627776|+1\n" +
		"item 2: 1234567.00|6   |101|10|C|hey|1.234567e+09|4294967294|%|1,-2,3,-4|0XABC|2199023255552|+2\n"
	if out.String() != want {
		t.Errorf("printf wrote\n%s\nwant\n%s", out.String(), want)
	}
}
