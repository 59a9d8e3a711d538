package timing

// Stall causes: what the earliest-ready warp of an idle engine was waiting
// for.
type Cause uint8

const (
	StallNone         Cause = iota
	StallMemory             // a load's data
	StallTexture            // a texture sample
	StallDependency         // an ALU result (pipeline latency)
	StallPipe               // the pipe its instruction needs is busy
	StallBarrier            // the work-group barrier
	StallBankConflict       // local-memory bank conflicts
	StallNoWarp             // no resident warp
	StallFetch              // instruction fetch (cache miss)
	numCauses
)

var causeNames = [...]string{"none", "memory", "texture", "dependency", "pipe", "barrier", "bank_conflict", "no_warp", "instruction_fetch"}

func (c Cause) String() string { return causeNames[c] }
