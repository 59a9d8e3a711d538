package opencl

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Every command goes on its queue's track, under its device's group, in
// device order whatever order the devices ran in, and writing twice gives
// the same bytes. (Kernels' engine tracks: cmd/pocketgpu's TestExecTrace.)
func TestPlatformTrace(t *testing.T) {
	p, err := NewPlatform([]string{"mali-g52", "adreno-640", "mali-g52"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.pftrace")
	if err := p.EnableTrace(path, 0, "test"); err != nil {
		t.Fatal(err)
	}
	ctx, err := p.NewContext(p.Devices)
	if err != nil {
		t.Fatal(err)
	}
	// The last device first, and two queues on the first.
	var qs []*Queue
	for _, d := range []*Device{p.Devices[2], p.Devices[0], p.Devices[0], p.Devices[1]} {
		q, err := ctx.NewQueue(d, 0)
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	b, err := ctx.NewBuffer(0, 4096, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		for j := 0; j <= i; j++ {
			if _, err := q.Write(b, 0, make([]byte, 4096)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := q.Marker(); err != nil {
			t.Fatal(err)
		}
		q.Finish()
	}
	n, err := p.WriteTrace()
	if err != nil || n == 0 {
		t.Fatalf("WriteTrace: %d bytes, %v", n, err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, slices, err := trace.DecodeSlices(first)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	var order []string
	for _, s := range slices {
		path := d.Path(s.Track)
		if got[path] == nil {
			order = append(order, path)
		}
		got[path] = append(got[path], s.Name)
		if s.Name == "write buffer" && (s.End <= s.Start || s.Args["bytes"] != uint64(4096)) {
			t.Errorf("%s: %+v", path, s)
		}
	}
	want := map[string]int{ // writes per track
		"Mali-G52 MP2/OpenCL commands":            2,
		"Mali-G52 MP2/OpenCL commands, queue 2":   3,
		"QUALCOMM Adreno(TM) 640/OpenCL commands": 4,
		"Mali-G52 MP2 (device 2)/OpenCL commands": 1,
	}
	for path, w := range want {
		if len(got[path]) != w+1 || got[path][w] != "marker" {
			t.Errorf("%s: %q, want %d writes and a marker", path, got[path], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("tracks %q", order)
	}
	for i, tr := range d.Tracks {
		if tr.Name == "Mali-G52 MP2 (device 2)" && i < len(d.Tracks)-2 {
			t.Errorf("the third device's group is not last: %+v", d.Tracks)
		}
	}
	// Nothing new: no write. Something new: the same trace and more.
	if n, err := p.WriteTrace(); n != 0 || err != nil {
		t.Errorf("a second WriteTrace wrote %d bytes, %v", n, err)
	}
	if _, err := qs[0].Marker(); err != nil {
		t.Fatal(err)
	}
	if n, err := p.WriteTrace(); n <= int64(len(first)) || err != nil {
		t.Errorf("WriteTrace after a marker: %d bytes, %v", n, err)
	}
}

// A bad trace path is an error before anything runs.
func TestPlatformTraceBadPath(t *testing.T) {
	p, err := NewPlatform([]string{"mali-g52"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.EnableTrace("/no/such/dir/t.pftrace", 0, "x"); err == nil {
		t.Error("no error")
	}
}
