package main

import (
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
)

// gpuArgHelp says how a GPU may be named; every command that takes a GPU
// uses it so that they all read the same.
const gpuArgHelp = "a preset id (pocketgpu gpus lists them), a Panfrost GPU ID (7212, 0x6221, 720 ...), an Adreno number (640) or a YAML file (base: PRESET plus overrides)"

// resolveGPU turns a GPU argument into its description. Every error is the
// user's to fix (unknown name with the nearest presets, unreadable or invalid
// YAML naming file, line and field), so it exits with code 2.
func resolveGPU(name string) (*arch.GPU, error) {
	g, err := arch.Lookup(name)
	if err != nil {
		return nil, badInput(err)
	}
	return g, nil
}

// checkWarpWidth refuses a --warp-width the GPU cannot schedule (0: the
// GPU's own choice): a Mali-G52 runs warps of 8, never of 3.
func checkWarpWidth(g *arch.GPU, w int) error {
	if w == 0 || slices.Contains(g.WarpSizes, w) {
		return nil
	}
	if len(g.WarpSizes) == 1 {
		return badInputf("--warp-width %d: %s runs warps of %d only (warp_sizes in its description)", w, g.ID, g.WarpSizes[0])
	}
	return badInputf("--warp-width %d: %s runs warps of %s (warp_sizes in its description)", w, g.ID, joinInts(g.WarpSizes, " or "))
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// addGPUFlag adds the --gpu flag, marked required, to cmd.
func addGPUFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "gpu", "", "the GPU: "+gpuArgHelp)
	nameArgs(cmd, "gpu", "GPU")
	_ = cmd.MarkFlagRequired("gpu")
}
