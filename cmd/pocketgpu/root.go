package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes: 0 success, 1 a failure inside the simulator or the host, 2 bad
// input the user can fix (an unknown GPU, a malformed file, a wrong flag).
const (
	exitOK       = 0
	exitFailure  = 1
	exitBadInput = 2
)

// userError marks an error caused by the user's input; it exits with code 2.
type userError struct{ err error }

func (e userError) Error() string { return e.err.Error() }
func (e userError) Unwrap() error { return e.err }

// badInput wraps err so that the command exits with code 2.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return userError{err}
}

func badInputf(format string, args ...any) error {
	return userError{fmt.Errorf(format, args...)}
}

func newRootCmd() (*cobra.Command, func()) {
	maxMemory := byteSize(defaultMaxMemory())
	stop := func() {}
	root := &cobra.Command{
		Use:   "pocketgpu",
		Short: "Simulate the tile-based GPUs of phones and SoCs",
		Long: `pocketgpu simulates Arm Mali (Midgard, Bifrost), Qualcomm Adreno (5xx-7xx) and
Imagination PowerVR Rogue GPUs: give it a GPU description and real work (an
OpenCL C, GLSL or SPIR-V kernel, or a scene) and it reports what that hardware
would do.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if maxMemory == 0 {
				return badInputf("--max-memory 0: want a size like 4GiB")
			}
			ctx, s := watchMemory(cmd.Context(), uint64(maxMemory))
			cmd.SetContext(context.WithValue(ctx, memoryLimitKey{}, uint64(maxMemory)))
			stop = s
			return nil
		},
	}
	root.PersistentFlags().Var(&maxMemory, "max-memory", "stop a simulation whose memory passes SIZE (512MiB, 4GiB; default half the machine's memory)")
	root.PersistentFlags().Lookup("max-memory").DefValue = "" // machine-dependent: the usage says it
	root.SetFlagErrorFunc(flagError)
	for _, add := range subcommands {
		root.AddCommand(add())
	}
	return root, func() { stop() }
}

// subcommands is filled by each command's file in init, so that adding a
// command touches only its own file.
var subcommands []func() *cobra.Command

func execute(args []string, stdout, stderr io.Writer) int {
	return executeContext(context.Background(), args, stdout, stderr)
}

// executeContext runs the command line under ctx: cancelling ctx with
// errInterrupted stops the simulation, which prints what it has.
func executeContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root, stop := newRootCmd()
	ctx = context.WithValue(ctx, commandLineKey{}, args)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	stop()
	if err == nil {
		return exitOK
	}
	var capErr *memoryCapError
	var prog programExit
	switch {
	case errors.As(err, &prog):
		// exec: the program's own status, which it has explained.
		return prog.code
	case errors.Is(context.Cause(ctx), errInterrupted) || errors.Is(err, errInterrupted):
		fmt.Fprintf(stderr, "pocketgpu: interrupted: %v\n", err)
		return exitInterrupted
	case errors.As(err, &capErr):
		fmt.Fprintf(stderr, "pocketgpu: %v\n", capErr)
		return exitBadInput
	}
	fmt.Fprintf(stderr, "pocketgpu: %v\n", err)
	var ue userError
	if errors.As(err, &ue) || isCobraUsageError(err) {
		return exitBadInput
	}
	return exitFailure
}

// commandLineKey holds the command line's arguments in the context, for
// reports that show what made them.
type commandLineKey struct{}

// commandLine is the command as typed, quoted where a shell would need it.
func commandLine(ctx context.Context) string {
	args, _ := ctx.Value(commandLineKey{}).([]string)
	out := []string{"pocketgpu"}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}

// isCobraUsageError reports errors cobra produces for a wrong command line
// (unknown command, wrong argument count), which are the user's to fix.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "unknown flag", "unknown shorthand", "invalid argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
