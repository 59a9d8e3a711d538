package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// Run control: every simulation runs under a context that Ctrl-C cancels
// (the command prints what it has, marked partial, and exits 130) and that a
// memory watchdog cancels when the simulator's live heap passes --max-memory.

const exitInterrupted = 130 // 128 + SIGINT, as shells report it

// errInterrupted is the cause when the user pressed Ctrl-C.
var errInterrupted = errors.New("interrupted")

// memoryCapError is the cause when the live heap passed the cap.
type memoryCapError struct{ live, limit uint64 }

func (e *memoryCapError) Error() string {
	return fmt.Sprintf("the simulation's memory passed --max-memory %s (%s live); give a smaller run or raise --max-memory", formatBytes(e.limit), formatBytes(e.live))
}

// watchMemory cancels ctx with a *memoryCapError when the live heap (what
// the last garbage collection kept) passes limit; it also tells the garbage
// collector to work harder near the limit so that garbage does not count.
// The returned stop ends the watch.
func watchMemory(ctx context.Context, limit uint64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	if limit == 0 {
		return ctx, func() { cancel(nil) }
	}
	old := debug.SetMemoryLimit(int64(limit))
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() != metrics.KindUint64 {
					continue
				}
				if live := sample[0].Value.Uint64(); live > limit {
					cancel(&memoryCapError{live: live, limit: limit})
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}

// defaultMaxMemory is half the machine's memory (a run that needs more
// would push the rest of the machine into swap), or 4 GiB when the size is
// unknown.
func defaultMaxMemory() uint64 {
	if total := physicalMemory(); total > 0 {
		return total / 2
	}
	return 4 << 30
}

// physicalMemory reads MemTotal from /proc/meminfo (0 elsewhere).
func physicalMemory() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// byteSize is a flag value of bytes written as 512MiB, 4GiB, 2GB or 1000000.
type byteSize uint64

var byteUnits = []struct {
	suffix string
	mult   uint64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1},
}

func parseByteSize(s string) (uint64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := uint64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) >= 1<<63 {
		return 0, fmt.Errorf("want a size like 512MiB, 4GiB or 2GB")
	}
	return uint64(v * float64(mult)), nil
}

func (b *byteSize) Set(s string) error {
	v, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(v)
	return nil
}
func (b *byteSize) String() string { return formatBytes(uint64(*b)) }
func (b *byteSize) Type() string   { return "SIZE" }

// formatBytes prints a size in the largest binary unit that keeps it at
// least 1: 1.5 GiB, 512 MiB, 100 B.
func formatBytes(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, i := float64(n), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return formatNumber(v) + " " + units[i]
}

// memoryLimitKey holds --max-memory in a command's context.
type memoryLimitKey struct{}

// memoryLimit is --max-memory as the command's context carries it (0 when
// it does not, as in tests that call a command's function directly).
func memoryLimit(ctx context.Context) uint64 {
	if ctx == nil {
		return 0
	}
	v, _ := ctx.Value(memoryLimitKey{}).(uint64)
	return v
}

// checkMemory refuses, before any work, a run whose estimated memory is
// over --max-memory, and warns before one that takes over a GiB.
func checkMemory(ctx context.Context, stderr io.Writer, what string, bytes uint64) error {
	if limit := memoryLimit(ctx); limit > 0 && bytes > limit {
		return badInputf("%s needs about %s of memory, over --max-memory %s; make it smaller or raise --max-memory", what, formatBytes(bytes), formatBytes(limit))
	}
	if bytes >= 1<<30 {
		fmt.Fprintf(stderr, "pocketgpu: %s needs about %s of memory\n", what, formatBytes(bytes))
	}
	return nil
}
