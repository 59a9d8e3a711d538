// Command pocketgpu simulates the tile-based GPUs of phones and SoCs: Arm Mali
// (Midgard, Bifrost), Qualcomm Adreno and Imagination PowerVR Rogue.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pocketgpu/pocketgpu/internal/hostprof"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		// The first Ctrl-C stops the simulation, which prints what it has;
		// a second one does not wait for that.
		cancel(errInterrupted)
		<-sig
		fmt.Fprintln(os.Stderr, "pocketgpu: interrupted twice; exiting without results")
		hostprof.Stop()
		os.Exit(exitInterrupted)
	}()
	stopProfile := hostprof.Start()
	code := executeContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}
