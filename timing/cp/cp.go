// Package cp models a GPU's command processor: the microcontrollers or job
// slots that read the command stream and start the GPU's work. The
// description names a queue for each kind of work (command_processor.*:
// geometry, fragment, compute and low-priority compute queues); a queue
// runs its jobs one after another, each after the jobs it depends on, and
// queues with different names run at the same time. So Mali's job manager
// (a fragment slot beside a vertex/tiler/compute slot) overlaps frame N's
// fragment job with frame N+1's vertex and tiler job, Adreno 6xx's SQE runs
// a frame's binning pass and bins one after another while LPAC runs
// low-priority compute beside them, and Adreno 7xx's BV bins later passes
// while BR renders (at most max_passes_ahead ahead). Before a job starts,
// its queue parses it: command_processor.cycles_per_draw per draw, and its
// command_bytes_per_draw fetched from memory (the command stream and its
// indirect buffers) through L2.
package cp

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Role is the kind of work a job does; the description maps each role to
// a queue.
type Role uint8

const (
	Geometry           Role = iota // vertex shading, tiling, binning
	Fragment                       // tiles, bins
	Compute                        // compute dispatches
	LowPriorityCompute             // compute submitted at low priority (LPAC)
)

func (r Role) String() string {
	return [...]string{"geometry", "fragment", "compute", "low_priority_compute"}[r]
}

// Job is one piece of work for the command processor: a vertex/tiler job,
// a binning pass, a bin, a fragment job, a dispatch.
type Job struct {
	Name string
	Role Role
	// Deps must end before the job starts.
	Deps []*Job
	// Draws are the commands the queue parses before starting the job
	// (draws, or 1 for a dispatch); each costs cycles_per_draw and
	// command_bytes_per_draw of command stream fetched from memory.
	Draws int
	// Run starts the job's GPU work at t; the work calls done when it has
	// finished.
	Run func(t float64, done func(t float64))

	// Filled in as the job runs: when it was submitted, started parsing,
	// started its work and ended.
	Submitted, Parse, Start, End float64
	ended                        bool
	queue                        *queue
	waiting                      []*Job // jobs that wait for this one
	pass                         int    // its queue's count of jobs before it
}

// Ended reports whether the job has finished.
func (j *Job) Ended() bool { return j.ended }

type queue struct {
	name  string
	jobs  []*Job // submitted, not started
	busy  bool   // a job is parsing or running
	free  float64
	count int
	// counters
	parseCycles, busyCycles float64
	started, jobsDone       int
	commandBytes            int64
}

// Processor is the command processor of one GPU, driving one engine.
type Processor struct {
	e      *timing.Engine
	g      *arch.GPU
	mem    *mem.Hierarchy
	queues []*queue
	roles  [4]*queue
	// stream is where the command stream sits in memory.
	stream, streamNext uint64
	req                mem.Request
	addr               [1]uint64
	// ahead is the geometry queue's lead limit over the fragment queue
	// (0: none), when they are separate queues.
	ahead int
	done  []*Job // every job that ended, in order
}

// streamBase is where the command stream is placed in the GPU's address
// space, apart from the executor's buffers and the renderer's data.
const streamBase = 0x7f_0000_0000

// New makes g's command processor over engine e and its memory hierarchy
// m. It fails for a description without queues for the roles.
func New(e *timing.Engine, g *arch.GPU, m *mem.Hierarchy) (*Processor, error) {
	cp := &g.CommandProcessor
	p := &Processor{e: e, g: g, mem: m, stream: streamBase, streamNext: streamBase}
	names := [4]string{cp.GeometryQueue, cp.FragmentQueue, cp.ComputeQueue, cp.LowPriorityComputeQueue}
	if names[3] == "" {
		names[3] = names[2] // no LPAC: low-priority compute is compute
	}
	for r, n := range names {
		if n == "" {
			return nil, fmt.Errorf("%s: command_processor has no %s queue", g.ID, Role(r))
		}
		var q *queue
		for _, x := range p.queues {
			if x.name == n {
				q = x
			}
		}
		if q == nil {
			q = &queue{name: n}
			p.queues = append(p.queues, q)
		}
		p.roles[r] = q
	}
	if p.roles[Geometry] != p.roles[Fragment] {
		p.ahead = cp.MaxPassesAhead
	}
	return p, nil
}

// Submit hands the job to its queue at time t (the host's submission).
func (p *Processor) Submit(j *Job, t float64) {
	q := p.roles[j.Role]
	j.queue, j.Submitted = q, t
	j.pass = q.count
	q.count++
	q.jobs = append(q.jobs, j)
	for _, d := range j.Deps {
		if !d.ended {
			d.waiting = append(d.waiting, j)
		}
	}
	p.e.At(t, func(t float64) { p.tryStart(q, t) })
}

// ready reports whether q's next job may start: its dependencies ended,
// and a geometry job is not too far ahead of the fragment queue.
func (p *Processor) ready(j *Job) bool {
	for _, d := range j.Deps {
		if !d.ended {
			return false
		}
	}
	if p.ahead > 0 && j.Role == Geometry {
		fq := p.roles[Fragment]
		if j.pass-fq.jobsDone >= p.ahead+1 && fq.count > fq.jobsDone {
			return false
		}
	}
	return true
}

// tryStart starts q's next job at t if the queue is free and the job
// ready.
func (p *Processor) tryStart(q *queue, t float64) {
	if q.busy || len(q.jobs) == 0 || !p.ready(q.jobs[0]) {
		return
	}
	j := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.busy = true
	t = max(t, q.free)
	j.Parse = t
	parsed := p.parse(j, t)
	q.parseCycles += parsed - t
	q.started++
	p.e.At(parsed, func(t float64) {
		j.Start = t
		j.Run(t, func(end float64) { p.finish(j, end) })
	})
}

// parse is when the queue has parsed j's commands, starting at t: the
// command bytes come through L2 (a miss goes to DRAM) and each draw costs
// cycles_per_draw.
func (p *Processor) parse(j *Job, t float64) float64 {
	cp := &p.g.CommandProcessor
	n := max(j.Draws, 0) * cp.CommandBytesPerDraw
	done := t
	if n > 0 && p.mem != nil {
		p.addr[0] = p.streamNext
		p.streamNext += uint64(n)
		p.req = mem.Request{Core: mem.FixedFunction, Space: ir.SpaceGlobal, Kind: mem.Load, Addrs: p.addr[:], Bytes: n, Lanes: 1, NoL1: true}
		done = p.mem.Access(t, &p.req).Done
		j.queue.commandBytes += int64(n)
	}
	return max(done, t+float64(j.Draws)*cp.CyclesPerDraw)
}

// finish ends j at t and starts what was waiting for it.
func (p *Processor) finish(j *Job, t float64) {
	q := j.queue
	j.End, j.ended = t, true
	q.busy = false
	q.free = t
	q.busyCycles += t - j.Parse
	q.jobsDone++
	p.done = append(p.done, j)
	if p.e.Tracing() {
		p.e.TraceSlice([]string{"Command processor", q.name}, j.Parse, t, j.Name,
			trace.Float("parse_cycles", j.Start-j.Parse), trace.Uint("draws", uint64(max(j.Draws, 0))))
	}
	p.tryStart(q, t)
	for _, w := range j.waiting {
		p.tryStart(w.queue, t)
	}
	// A geometry queue held back by the lead limit may go now.
	if j.Role == Fragment && p.ahead > 0 {
		p.tryStart(p.roles[Geometry], t)
	}
}

// Jobs lists the jobs that ended, in the order they did.
func (p *Processor) Jobs() []*Job { return p.done }

// The command processor's counters (docs/counters.md).
var cpCounters = counters.Register(&counters.Part{
	Key: "command_processor", Title: "Command processor", Rank: 35, Scope: counters.Frame,
	Defs: []counters.Def{
		counters.New("cp_<queue>_jobs", "jobs", "jobs queue `<queue>` ran (the description's command_processor.*_queue names: js0/js1 on Mali's job manager, sqe and lpac on Adreno 6xx, bv and br on 7xx)"),
		counters.New("cp_<queue>_parse_cycles", "cycles", "cycles queue `<queue>` spent parsing commands: cycles_per_draw per draw, or waiting for their command_bytes_per_draw from memory, whichever is longer"),
		counters.New("cp_<queue>_busy_cycles", "cycles", "cycles queue `<queue>` had a job parsing or running"),
		counters.New("cp_<queue>_command_bytes", "B", "command-stream bytes queue `<queue>` fetched through L2"),
	},
})

// Counters are the queues' counters.
func (p *Processor) Counters() counters.Set {
	var s counters.Set
	for _, q := range p.queues {
		s = append(s,
			cpCounters.Def("cp_<queue>_jobs").With(q.name, float64(q.jobsDone)),
			cpCounters.Def("cp_<queue>_parse_cycles").With(q.name, q.parseCycles),
			cpCounters.Def("cp_<queue>_busy_cycles").With(q.name, q.busyCycles),
			cpCounters.Def("cp_<queue>_command_bytes").With(q.name, float64(q.commandBytes)))
	}
	return s
}

// Span is the time from the first job's parse to the last job's end.
func (p *Processor) Span() float64 {
	if len(p.done) == 0 {
		return 0
	}
	first, last := math.Inf(1), 0.0
	for _, j := range p.done {
		first, last = min(first, j.Parse), max(last, j.End)
	}
	return last - first
}
