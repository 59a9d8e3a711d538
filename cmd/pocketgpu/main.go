// Command pocketgpu simulates the tile-based GPUs of phones and SoCs: Arm Mali
// (Midgard, Bifrost), Qualcomm Adreno and Imagination PowerVR Rogue.
package main

import (
	"os"
)

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}
