// Command gen compiles the corpus sources to the prebuilt SPIR-V committed
// next to them (kernels/<case>.spv), with kernel.Compile and each case's
// defines. Run it through go generate in internal/corpus.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/kernel"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	for _, c := range corpus.Cases() {
		spv, err := kernel.Compile(filepath.FromSlash(c.SourceFile), corpus.CompileOptions(c))
		if err != nil {
			return fmt.Errorf("case %s: %w", c.Name, err)
		}
		out := filepath.FromSlash(c.SPIRVFile())
		if err := os.WriteFile(out, spv, 0o644); err != nil {
			return err
		}
		fmt.Printf("%-16s %s -> %s (%d bytes)\n", c.Name, c.SourceFile, out, len(spv))
	}
	return nil
}
