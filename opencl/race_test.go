package opencl

import (
	"encoding/binary"
	"sync"
	"testing"
)

// The specification's thread-safety rules: every API call but
// clSetKernelArg on a shared kernel may come from any host thread. Here
// goroutines share one context and one input buffer, each with its own
// queue, program and output, and wait on a user event another goroutine
// sets. Run under -race.
func TestCtxConcurrentHosts(t *testing.T) {
	needCompilers(t)
	ctx, _ := testQueue(t, 0)
	const n = 64
	in := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
	}
	shared, err := ctx.NewBuffer(MemReadOnly|MemCopyHostPtr, len(in), in)
	if err != nil {
		t.Fatal(err)
	}
	gate := ctx.NewUserEvent()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			q, err := ctx.NewQueue(ctx.Devices[0], QueueProfiling)
			if err != nil {
				errs <- err
				return
			}
			p, _ := ctx.NewProgram("__kernel void add(__global const uint *a, __global uint *b, uint k) { size_t i = get_global_id(0); b[i] = a[i] + k; }")
			if err := p.Build(nil, "-cl-mad-enable"); err != nil {
				errs <- err
				return
			}
			k, err := p.NewKernel("add")
			if err != nil {
				errs <- err
				return
			}
			out, _ := ctx.NewBuffer(MemReadWrite, len(in), nil)
			k.SetArg(0, 8, nil, shared)
			k.SetArg(1, 8, nil, out)
			k.SetArg(2, 4, binary.LittleEndian.AppendUint32(nil, uint32(1000*g)), nil)
			qa, _ := q.After([]*Event{gate})
			if _, err := qa.NDRange(k, 1, []int{n}, nil, nil); err != nil {
				errs <- err
				return
			}
			got := make([]byte, len(in))
			r, err := q.Read(out, 0, got)
			if err != nil {
				errs <- err
				return
			}
			r.Wait()
			for i := 0; i < n; i++ {
				if v := binary.LittleEndian.Uint32(got[4*i:]); v != uint32(i+1000*g) {
					t.Errorf("goroutine %d: b[%d] = %d", g, i, v)
					return
				}
			}
			q.Finish()
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := gate.SetUserStatus(StatusComplete); err != nil {
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
