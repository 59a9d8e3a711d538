package main

import (
	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
)

// gpuArgHelp says how a GPU may be named; every command that takes a GPU
// uses it so that they all read the same.
const gpuArgHelp = "a preset id (see `pocketgpu gpus`), a Panfrost GPU ID (7212, 0x6221, 720 ...), an Adreno number (640) or a YAML file with `base: <preset>` and overrides"

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

// addGPUFlag adds the --gpu flag, marked required, to cmd.
func addGPUFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "gpu", "", "the GPU: "+gpuArgHelp)
	_ = cmd.MarkFlagRequired("gpu")
}
