package emu

import "errors"

// ErrBudget reports a kernel that ran past its instruction budget.
var ErrBudget = errors.New("instruction budget exhausted")

// Run executes the whole NDRange functionally: work-groups in order, a
// window of them interleaved, each warp run for a slice of blocks at a time.
func (d *Dispatch) Run() error {
	const slice = 256
	n := d.Tasks()
	window := max(d.Window, 1)
	var active []*WorkGroup
	next, groupsDone := 0, 0
	for next < n || len(active) > 0 {
		for len(active) < window && next < n {
			active = append(active, d.NewTask(next))
			next++
		}
		keep := active[:0]
		for _, wg := range active {
			for _, w := range wg.Warps {
				if w.status == Running {
					d.lastStepped = w
					w.run(slice, &d.Stats)
				}
			}
			done, err := wg.Sync()
			if err != nil {
				return err
			}
			if done {
				groupsDone += wg.Groups
				d.Release(wg)
			} else {
				keep = append(keep, wg)
			}
		}
		active = keep
		if err := d.Checkpoint(groupsDone, 0); err != nil {
			return err
		}
	}
	return nil
}
