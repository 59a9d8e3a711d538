package device

import (
	"math"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/counters"
)

// TestEngineTimeAddsUp: per core, issue and the stall causes (no-warp
// included) divide the engines' time: they add up to 100%, none above.
// A memory-bound stream keeps warps waiting while others' arrivals wake
// the engines, which once charged the same wait twice (stall_memory_pct
// 133% on a Mali-G52).
func TestEngineTimeAddsUp(t *testing.T) {
	args := []string{"buf:f32x4:262144", "buf:f32x4:262144", "u32:262144"}
	for _, id := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		r := timeKernel(t, userGPU(t, id, ""), "stream.spv", 16384, 64, args...)
		check := func(where string, s counters.Set) {
			sum := 0.0
			for _, c := range s {
				if c.Name == "issue_utilization_pct" || (strings.HasPrefix(c.Name, "stall_") && strings.HasSuffix(c.Name, "_pct")) {
					if c.Value < 0 || c.Value > 100+1e-9 {
						t.Errorf("%s %s: %s = %.2f%%", id, where, c.Name, c.Value)
					}
					sum += c.Value
				}
			}
			if math.Abs(sum-100) > 1e-6 {
				t.Errorf("%s %s: issue and stalls add up to %.4f%%", id, where, sum)
			}
		}
		for i, pc := range r.Timing.PerCore {
			check("core "+string(rune('0'+i)), pc)
		}
	}
}
