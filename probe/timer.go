package probe

import (
	"fmt"
	"sort"
)

// timer runs kernels on a backend and turns device times into cycles of
// the reported clock. A measurement is the difference of a run with a loop
// count n and one with 2n (after a warm-up run), which removes the launch,
// the ramp-up and the final stores; on a real device each run is repeated
// and the fastest kept, as other work can only slow a run down.
type timer struct {
	b       Backend
	info    Info
	repeats int
	kernels map[string]Kernel
}

func newTimer(b Backend, repeats int) *timer {
	return &timer{b: b, info: b.Info(), repeats: max(repeats, 1), kernels: map[string]Kernel{}}
}

func (t *timer) kernel(name string) (Kernel, error) {
	if k, ok := t.kernels[name]; ok {
		return k, nil
	}
	k, err := t.b.Kernel(name)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", name, err)
	}
	t.kernels[name] = k
	return k, nil
}

// diffCycles measures the cycles that n more loop iterations cost: args
// built by with(n), run with n and 2n after a warm-up with n. The runs of
// n and 2n alternate, each kept at its fastest; a device shared with other
// work that makes 2n look no slower than n is measured again (three times
// at most).
func (t *timer) diffCycles(name string, with func(n int) []Arg, n, global, local int) (float64, error) {
	k, err := t.kernel(name)
	if err != nil {
		return 0, err
	}
	if _, err := t.b.Run(k, with(n), global, local); err != nil {
		return 0, err
	}
	var a, b float64
	for attempt := 0; attempt < 3; attempt++ {
		a, b = -1, -1
		for range t.repeats {
			x, err := t.b.Run(k, with(n), global, local)
			if err != nil {
				return 0, err
			}
			y, err := t.b.Run(k, with(2*n), global, local)
			if err != nil {
				return 0, err
			}
			if a < 0 || x < a {
				a = x
			}
			if b < 0 || y < b {
				b = y
			}
		}
		if b > a {
			return t.cycles(b - a), nil
		}
	}
	return 0, fmt.Errorf("%s: %d iterations took %.0f ns and %d took %.0f ns: the time does not grow with the work (is the device's profiling clock running, or is it too busy to measure?)", name, n, a, 2*n, b)
}

// cycles converts ns of the device to cycles of its reported clock.
func (t *timer) cycles(ns float64) float64 { return ns * float64(t.info.ClockMHz) / 1000 }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// fit is the largest power of two at most want that kernel name runs as
// one work-group.
func (t *timer) fit(name string, want int) (int, error) {
	k, err := t.kernel(name)
	if err != nil {
		return 0, err
	}
	most, err := t.b.KernelWorkGroup(k)
	if err != nil {
		return 0, fmt.Errorf("%s: CL_KERNEL_WORK_GROUP_SIZE: %w", name, err)
	}
	l := 1
	for l*2 <= min(want, most) {
		l *= 2
	}
	return l, nil
}
