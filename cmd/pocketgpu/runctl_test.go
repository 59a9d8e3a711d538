package main

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

func TestParseByteSize(t *testing.T) {
	for s, want := range map[string]uint64{"512MiB": 512 << 20, "4GiB": 4 << 30, "2GB": 2e9, "1.5g": 3 << 29, "1000": 1000, "64 kb": 64000} {
		if got, err := parseByteSize(s); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "x", "-1GiB", "1e30GB", "GiB"} {
		if _, err := parseByteSize(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if got := formatBytes(3 << 29); got != "1.5 GiB" {
		t.Errorf("formatBytes = %q", got)
	}
}

// The watchdog cancels with the cap as the cause once the live heap passes it.
func TestWatchMemory(t *testing.T) {
	ctx, stop := watchMemory(context.Background(), 64<<20)
	defer stop()
	var hold [][]byte
	deadline := time.Now().Add(10 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		hold = append(hold, make([]byte, 8<<20))
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	var capErr *memoryCapError
	if !errors.As(context.Cause(ctx), &capErr) || capErr.live <= 64<<20 {
		t.Fatalf("cause %v after holding %d MiB", context.Cause(ctx), 8*len(hold))
	}
	runtime.KeepAlive(hold)
}
