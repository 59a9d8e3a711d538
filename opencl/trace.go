package opencl

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// platformTrace is the platform's timeline (exec --trace,
// POCKETGPU_TRACE): a group per device, under it an "OpenCL commands"
// track per queue and the engines' tracks of its kernels. Each device's
// part is only touched under that device's clock lock, which a command
// holds while it runs, so devices record concurrently and every part is
// in its device's command order.
type platformTrace struct {
	mu   sync.Mutex // one WriteTrace at a time
	root *trace.Trace
	path string
	// commands counts recorded commands; written is the count the file
	// last got (-1: never written), so repeated writes of nothing new
	// (the last context released, then exit) cost nothing.
	commands atomic.Int64
	written  int64
}

// EnableTrace has the platform record every command on a timeline that
// WriteTrace writes to path; interval is the engines' sampling window in
// GPU cycles (0: trace.DefaultInterval). The file is created now, so a
// bad path fails before any work. Call it before any context is made.
func (p *Platform) EnableTrace(path string, interval float64, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	f.Close()
	root := trace.New(name, interval)
	seen := map[string]bool{}
	for i, d := range p.Devices {
		n := d.Name()
		if seen[n] { // --gpu mali-g52 --gpu mali-g52: two groups
			n = fmt.Sprintf("%s (device %d)", n, i)
		}
		seen[n] = true
		// Made now, in device order: the file's order does not depend on
		// which device runs first.
		d.trace = root.Sub(n)
	}
	p.trace = &platformTrace{root: root, path: path, written: -1}
	return nil
}

// queueTrack is the track of a new queue's commands (nil when not
// tracing): "OpenCL commands" for the device's first queue, then
// "OpenCL commands, queue N", numbered per device in creation order.
func (d *Device) queueTrack() *trace.Track {
	if d.trace == nil {
		return nil
	}
	d.clock.mu.Lock()
	defer d.clock.mu.Unlock()
	d.queues++
	name := "OpenCL commands"
	if d.queues > 1 {
		name = fmt.Sprintf("OpenCL commands, queue %d", d.queues)
	}
	return d.trace.Track(name)
}

// traceNames are the slice names of commands other than kernels.
var traceNames = map[string]string{
	"read": "read buffer", "write": "write buffer", "copy": "copy buffer", "fill": "fill buffer",
	"map": "map buffer", "read_rect": "read buffer rect", "write_rect": "write buffer rect",
	"copy_rect": "copy buffer rect",
}

// traceCommand adds a finished command to its queue's track. The caller
// holds the device's clock lock.
func (q *Queue) traceCommand(rec *CommandRecord, start, end uint64) {
	if q.track == nil {
		return
	}
	name := rec.Kernel
	if name == "" {
		name = traceNames[rec.Command]
	}
	if name == "" {
		name = strings.ReplaceAll(rec.Command, "_", " ")
	}
	args := []trace.Arg{trace.String("command", rec.Command)}
	if rec.Bytes > 0 {
		args = append(args, trace.Uint("bytes", uint64(rec.Bytes)))
	}
	if len(rec.Global) > 0 {
		args = append(args, trace.String("global", dims(rec.Global)), trace.String("local", dims(rec.Local)))
	}
	if rec.Cycles > 0 {
		args = append(args, trace.Float("cycles", rec.Cycles))
	}
	q.track.Slice(float64(start), float64(end), name, args...)
	q.Ctx.platform.trace.commands.Add(1)
}

func dims(d []int) string {
	s := make([]string, len(d))
	for i, v := range d {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, "x")
}

// WriteTrace writes the whole timeline so far to the trace file, if the
// platform traces and something was recorded since the last write. It
// may be called from any goroutine at any time: it waits for the
// commands running on the devices to end. The file is replaced at once
// (a temporary file renamed over it), so a program killed during a write
// leaves the previous trace, not half of one.
func (p *Platform) WriteTrace() (int64, error) {
	t := p.trace
	if t == nil {
		return 0, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	// Locked in device order; a command holds one device's clock only.
	for _, d := range p.Devices {
		d.clock.mu.Lock()
	}
	n := t.commands.Load()
	var buf bytes.Buffer
	var err error
	if n != t.written {
		_, err = t.root.WriteTo(&buf)
	}
	for _, d := range p.Devices {
		d.clock.mu.Unlock()
	}
	if err != nil || n == t.written {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), "."+filepath.Base(t.path)+".*")
	if err != nil {
		return 0, err
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	t.written = n
	return int64(buf.Len()), nil
}
