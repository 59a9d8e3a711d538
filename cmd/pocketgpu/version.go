package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newVersionCmd) }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print pocketgpu's version, VCS revision and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info, ok := debug.ReadBuildInfo()
			if !ok {
				return fmt.Errorf("this binary carries no build information")
			}
			printVersion(cmd.OutOrStdout(), info)
			return nil
		},
	}
}

// printVersion writes the module version ("(devel)" for a build from a
// checkout), the commit it was built from and whether the tree had local
// changes, as the Go toolchain recorded them.
func printVersion(w io.Writer, info *debug.BuildInfo) {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	fmt.Fprintf(w, "pocketgpu %s\n", info.Main.Version)
	if rev := settings["vcs.revision"]; rev != "" {
		line := "revision  " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			line += ", with uncommitted changes"
		}
		fmt.Fprintln(w, line)
	} else {
		fmt.Fprintln(w, "revision  unknown (built without VCS stamping: go run, go test or -buildvcs=false)")
	}
	fmt.Fprintf(w, "go        %s %s/%s\n", info.GoVersion, settings["GOOS"], settings["GOARCH"])
}
