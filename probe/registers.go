package probe

import (
	"encoding/binary"
	"fmt"
)

// RegisterSweep is what the register-pressure test measured: for each
// kernel of the family (R 32-bit values live through a loop, plus what the
// compiler adds for the loop itself), the work-items the device kept
// resident at once, and the largest work-group it reports for the kernel.
type RegisterSweep struct {
	WorkGroup int             `json:"work_group"` // work-items per work-group of the counting runs
	Points    []RegisterPoint `json:"points"`
	// Steps are the points where the resident work-items fall from the
	// point before (none: registers did not limit residency over the
	// sweep, as on a CPU).
	Steps []RegisterPoint `json:"steps,omitempty"`
}

// RegisterPoint is one kernel of the sweep.
type RegisterPoint struct {
	Values         int `json:"values"`          // 32-bit values the kernel keeps live (R)
	Resident       int `json:"resident"`        // work-items resident at once, device-wide
	KernelWorkSize int `json:"kernel_wg_size"`  // CL_KERNEL_WORK_GROUP_SIZE
	Grid           int `json:"grid_work_items"` // the counting run's global size
}

// regSweep are the register counts of probe.cl's occupy_R kernels.
var regSweep = func() []int {
	var r []int
	for v := 4; v <= 128; v += 4 {
		r = append(r, v)
	}
	return r
}()

func occupyName(r int) string { return fmt.Sprintf("occupy_%d", r) }

// occupyRingSlots is the ring the counting kernels chase: 64 slots of 64
// bytes, small enough for any first cache level.
const occupyRingSlots = 64

// occupySteps is the counting kernels' loop: 64 dependent loads.
const occupySteps = 64

// registers runs the occupy_R kernels. Each runs over a grid larger than
// the device can hold at once, in work-groups of wg work-items (the warp
// width, so that a work-group wastes no lanes and the count has a warp's
// resolution), and counts the work-groups running together; the grid is
// doubled while every work-group of it fitted at once.
func (p *prober) registers(warp int) (*RegisterSweep, error) {
	in := p.t.info
	rb, err := p.t.b.Buffer(ring(occupyRingSlots*chaseStride, chaseStride, 3))
	if err != nil {
		return nil, err
	}
	wg := max(warp, 1)
	sw := &RegisterSweep{WorkGroup: wg}
	grid := 2 * max(in.ComputeUnits, 1) * max(in.MaxWorkGroup, wg)
	var out Buffer
	outItems := 0
	for _, r := range regSweep {
		name := occupyName(r)
		k, err := p.t.kernel(name)
		if err != nil {
			return nil, err
		}
		most, err := p.t.b.KernelWorkGroup(k)
		if err != nil {
			return nil, fmt.Errorf("%s: CL_KERNEL_WORK_GROUP_SIZE: %w", name, err)
		}
		local := min(wg, most)
		if local != wg {
			// A kernel too heavy for one warp-wide work-group: the sweep
			// ends here (the device would not run it as the others ran).
			break
		}
		var resident int
		for try := 0; ; try++ {
			if grid > outItems {
				outItems = grid
				if out, err = p.t.b.Buffer(make([]byte, 16*grid)); err != nil {
					return nil, err
				}
			}
			wgs, err := p.countResident(k, rb, out, grid, local)
			if err != nil {
				return nil, fmt.Errorf("%s over %d work-items: %w", name, grid, err)
			}
			resident = wgs * local
			if resident < grid || try == 4 {
				break
			}
			grid *= 2 // every work-group fitted at once: the grid was too small
		}
		p.tick()
		pt := RegisterPoint{Values: r, Resident: resident, KernelWorkSize: most, Grid: grid}
		sw.Points = append(sw.Points, pt)
		// The next kernel holds at most as many: twice this one's count
		// (and no less than a work-group per compute unit twice over)
		// overfills the device.
		grid = max(2*resident, 2*max(in.ComputeUnits, 1)*local)
		grid = (grid + local - 1) / local * local
	}
	sw.Steps = registerSteps(sw.Points)
	return sw, nil
}

// countResident runs k once over global work-items and returns the most
// work-groups it found running together.
func (p *prober) countResident(k Kernel, rb, out Buffer, global, local int) (int, error) {
	cb, err := p.t.b.Buffer(make([]byte, 8))
	if err != nil {
		return 0, err
	}
	// 64 steps of the chase: thousands of cycles, so that every
	// work-group of the first round starts before the first ends.
	args := []Arg{{Buf: rb}, {Buf: out}, {Buf: cb}, U32(occupySteps), U32(occupyRingSlots), F32(1)}
	if _, err := p.t.b.Run(k, args, global, local); err != nil {
		return 0, err
	}
	c, err := p.t.b.Read(cb, 8)
	if err != nil {
		return 0, err
	}
	left, peak := int32(binary.LittleEndian.Uint32(c)), int32(binary.LittleEndian.Uint32(c[4:]))
	if left != 0 || peak < 1 || int(peak) > global/local {
		return 0, fmt.Errorf("the work-group count is inconsistent (%d running at the end, at most %d of %d): are atomics on global memory working?", left, peak, global/local)
	}
	return int(peak), nil
}

// registerSteps are the points whose resident count is lower than the
// point before by more than 5%: a busy CPU's thread pool moves its count
// by a work-group or so, registers halve it or take a share.
func registerSteps(pts []RegisterPoint) []RegisterPoint {
	var out []RegisterPoint
	for i := 1; i < len(pts); i++ {
		if float64(pts[i].Resident) < 0.95*float64(pts[i-1].Resident) {
			out = append(out, pts[i])
		}
	}
	return out
}

// BeforeFirstStep is the most values of the sweep's kernels that keep the
// lightest kernel's residency (the point before the first step).
func BeforeFirstStep(sw *RegisterSweep) int {
	last := 0
	for _, p := range sw.Points {
		if len(sw.Steps) > 0 && p.Values >= sw.Steps[0].Values {
			break
		}
		last = p.Values
	}
	return last
}
