package bench

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Job is one test on one GPU.
type Job struct {
	Test *Test
	GPU  *arch.GPU
}

// Plan lists the jobs for tests on gpus, in suite order, GPU by GPU,
// leaving out tests that do not apply to a GPU. With no tests, the whole
// suite. A test named explicitly that applies to none of the GPUs is an
// error.
func Plan(gpus []*arch.GPU, tests []*Test) ([]Job, error) {
	explicit := len(tests) > 0
	if !explicit {
		tests = suite
	}
	var jobs []Job
	for _, t := range tests {
		ran := false
		for _, g := range gpus {
			if t.AppliesTo(g) {
				jobs = append(jobs, Job{Test: t, GPU: g})
				ran = true
			}
		}
		if explicit && !ran {
			return nil, fmt.Errorf("test %s does not apply to %s: %s", t.Name, gpuIDs(gpus), t.Doc)
		}
	}
	return jobs, nil
}

func gpuIDs(gpus []*arch.GPU) string {
	s := ""
	for i, g := range gpus {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s (%s)", g.ID, g.Family)
	}
	return s
}

// Points is how many measurements the jobs make (for a progress bar).
func Points(jobs []Job, o Options) int {
	n := 0
	for _, j := range jobs {
		n += j.Test.Points(j.GPU, o)
	}
	return n
}

// RunJobs runs jobs on up to `workers` goroutines (each job has its own
// device, so they do not share state) and returns the results in job
// order. o.Tick may be called from several goroutines, one call at a time.
func RunJobs(jobs []Job, o Options, workers int) ([]*Result, error) {
	workers = max(1, min(workers, len(jobs)))
	if tick := o.Tick; tick != nil {
		var mu sync.Mutex
		o.Tick = func() {
			mu.Lock()
			defer mu.Unlock()
			tick()
		}
	}
	// Each job records on a part of the trace of its own, made here in
	// job order so the file does not depend on which worker ran what.
	subs := make([]*trace.Trace, len(jobs))
	if o.Trace != nil {
		for i, j := range jobs {
			subs[i] = o.Trace.Sub(j.Test.Name + " on " + j.GPU.ID)
		}
	}
	results := make([]*Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if o.Context != nil && o.Context.Err() != nil {
					errs[i] = context.Cause(o.Context)
					continue
				}
				jo := o
				jo.Trace = subs[i]
				results[i], errs[i] = jobs[i].Test.Run(jobs[i].GPU, jo)
			}
		}()
	}
	// The jobs with the most points start first, so that a long sweep
	// does not start last and run alone (results keep job order).
	order := make([]int, len(jobs))
	points := make([]int, len(jobs))
	for i, j := range jobs {
		order[i], points[i] = i, j.Test.Points(j.GPU, o)
	}
	sort.SliceStable(order, func(a, b int) bool { return points[order[a]] > points[order[b]] })
	for _, i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
