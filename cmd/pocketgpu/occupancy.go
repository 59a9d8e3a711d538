package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
)

func init() { subcommands = append(subcommands, newOccupancyCmd) }

// queryFlags maps arch.OccupancyQuery fields to the flags that set them.
var queryFlags = map[string]string{
	"regs":           "--regs",
	"local_bytes":    "--local-bytes",
	"workgroup_size": "--wg-size",
}

func newOccupancyCmd() *cobra.Command {
	var (
		gpu    string
		q      arch.OccupancyQuery
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "occupancy --gpu GPU --regs N [--local-bytes B] [--wg-size S] [--barrier] [--json]",
		Short: "How many threads and warps of a kernel stay resident, and what limits them",
		Long: `occupancy works out how many warps (Adreno waves, Rogue tasks) and threads of a
kernel stay resident per core and GPU-wide, by the family's own rules:

  Bifrost  registers round up to 32: more than 32 halves the warps; one
           work-group with local memory per shader core
  Midgard  full, half, quarter threads at 4, 8, 16 128-bit work registers
  Adreno   wave128 while the registers allow, else wave64; waves per uSPTP
           from the register file; local memory shared by the SP's uSPTPs
  Rogue    unified-store registers per thread decide resident tasks; work-
           groups of 4/8/16 pack 8/4/2 to a task, one per task with a barrier
           when the size is not fixed at compile time; over 512 refused

--regs always counts 32-bit registers per thread (10 Rogue 128-bit registers
are 40). GPU is ` + gpuArgHelp + `.`,
		Example: `  pocketgpu occupancy --gpu mali-g52 --regs 33
  pocketgpu occupancy --gpu adreno-640 --regs 24 --wg-size 256 --local-bytes 16384
  pocketgpu occupancy --gpu powervr-gx6250 --regs 40 --wg-size 8 --barrier --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseZero(cmd, "wg-size"); err != nil {
				return err
			}
			g, err := resolveGPU(gpu)
			if err != nil {
				return err
			}
			o, err := g.Occupancy(q)
			if err != nil {
				var qe *arch.QueryError
				if errors.As(err, &qe) {
					flag := queryFlags[qe.Field]
					if flag == "" {
						flag = qe.Field
					}
					return badInputf("%s: %s", flag, qe.Msg)
				}
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(o)
			}
			return writeOccupancyText(cmd.OutOrStdout(), g, o)
		},
	}
	f := cmd.Flags()
	addGPUFlag(cmd, &gpu)
	f.IntVar(&q.Regs, "regs", 0, "32-bit registers per thread")
	f.IntVar(&q.LocalBytes, "local-bytes", 0, "local (shared) memory per work-group, in bytes")
	f.IntVar(&q.WorkgroupSize, "wg-size", 0, "threads per work-group (needed with --local-bytes)")
	f.BoolVar(&q.Barrier, "barrier", false, "the kernel has a work-group barrier")
	f.BoolVar(&q.SizeFixedAtCompile, "fixed-wg-size", false, "the work-group size is fixed at compile time (Rogue packs small work-groups even with a barrier)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("regs")
	nameArgs(cmd, "gpu", "GPU", "regs", "N", "local-bytes", "BYTES", "wg-size", "THREADS")
	return cmd
}

func writeOccupancyText(out io.Writer, g *arch.GPU, o arch.Occupancy) error {
	fmt.Fprintf(out, "%s: %d registers per thread (allocated %d), warp width %d\n\n", g.ID, o.Regs, o.AllocatedRegs, o.WarpWidth)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "RESIDENT\tPER ENGINE\tPER CORE\tGPU-WIDE")
	fmt.Fprintf(w, "warps\t%d\t%d\t%d\n", o.ResidentWarpsPerEngine, o.ResidentWarpsPerCore, o.ResidentWarps)
	fmt.Fprintf(w, "threads\t-\t%d\t%d\n", o.ResidentThreadsPerCore, o.ResidentThreads)
	if o.WorkgroupsPerCore > 0 {
		fmt.Fprintf(w, "work-groups\t-\t%d\t%d\n", o.WorkgroupsPerCore, o.ResidentWorkgroups)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\noccupancy %s of %d threads per core; limited by %s\n", formatPct(o.Occupancy*100), o.MaxThreadsPerCore, o.LimitedBy)
	for _, line := range o.Explanation {
		fmt.Fprintf(out, "  - %s\n", line)
	}
	return nil
}
