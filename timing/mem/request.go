package mem

// This file holds what a request to the hierarchy is and what it answers:
// its kind, the stream its data belongs to, the cause that dominated its
// time and its result.

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Kind is what a request does.
type Kind uint8

// Request kinds.
const (
	Load    Kind = iota // read data
	Store               // write data
	Atomic              // read-modify-write at L2 (global) or in local memory
	Texture             // texel fetches through a texture unit
)

func (k Kind) String() string {
	switch k {
	case Load:
		return "load"
	case Store:
		return "store"
	case Atomic:
		return "atomic"
	case Texture:
		return "texture"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// FixedFunction is the Core of a request from a fixed-function unit (with
// NoL1): it takes no core's path to L2 and counts against no core.
const FixedFunction = -1

// Request is one warp instruction's memory access.
type Request struct {
	Core  int      // the issuing core (Mali shader core, Adreno uSPTP, Rogue USC)
	Space ir.Space // ir.SpaceGlobal or ir.SpaceLocal
	Kind  Kind
	Addrs []uint64 // one address per active lane, lane order (texture: the texel addresses, up to 4 per lane)
	Bytes int      // bytes per lane (texture: bytes per texel)
	Lanes int      // active lanes (texture: samples)
	Group int      // work-group slot on the core
	// Window is where the work-group slot's area of local memory kept in
	// ordinary memory (Mali), or of spill scratch (private), starts in its
	// space's region: Addrs of those spaces are offsets into the area.
	Window uint64
	// Stream says what the data is for (0, StreamData, for kernels; the
	// renderer tags geometry, binning, texture and framebuffer traffic) so
	// that DRAM bytes can be split by stream.
	Stream Stream
	// NoL1 sends the request straight to L2: traffic of fixed-function
	// units (a tiler, a tile write-back, vertex fetch), not of shader cores.
	// With Core FixedFunction it comes from no core: it reaches L2 over
	// the units' own port, not a core's path.
	NoL1 bool
	// Burst marks a bulk transfer (async_work_group_copy on a path that
	// moves it in bursts): its addresses are merged into lines even where a
	// task's accesses are otherwise resolved one by one (seed 003 §System
	// Memory Access: the common-store burst path of up to 4096 bytes).
	Burst bool
}

// Stream is what a request's data is for; DRAM traffic is counted per
// stream.
type Stream uint8

// Streams.
const (
	StreamData        Stream = iota // kernel data (compute)
	StreamGeometry                  // vertex attributes, indices, post-transform vertices
	StreamBinning                   // polygon lists, visibility streams, tile headers
	StreamTexture                   // texels
	StreamFramebuffer               // colour and depth, resolves, CRCs
	NumStreams
)

var streamNames = [NumStreams]string{"data", "geometry", "binning", "texture", "framebuffer"}

func (s Stream) String() string {
	if s < NumStreams {
		return streamNames[s]
	}
	return fmt.Sprintf("stream(%d)", uint8(s))
}

// Cause is what dominated a request's time.
type Cause uint8

// Causes, from the nearest level out. TextureUnit is the texture path when
// its cache held every texel (the unit's samples per clock and the texture
// cache latency); a texture request that missed reports the level it went to.
const (
	L1Hit Cause = iota
	L2Hit
	SLCHit
	DRAM
	LocalMemory
	BankConflict
	TLBMiss
	TextureUnit
)

var causeNames = [...]string{"l1_hit", "l2_hit", "slc_hit", "dram", "local_memory", "bank_conflict", "tlb_miss", "texture"}

func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return fmt.Sprintf("cause(%d)", uint8(c))
}

// depth orders the causes of the cache levels: a request that touched
// several levels reports the deepest.
func depth(c Cause) int {
	switch c {
	case L1Hit, TextureUnit:
		return 0
	case L2Hit:
		return 1
	case SLCHit:
		return 2
	case DRAM:
		return 3
	case TLBMiss:
		return 4
	}
	return 0
}

func deeper(a, b Cause) Cause {
	if depth(b) > depth(a) {
		return b
	}
	return a
}

// Result is when a request completes and why.
type Result struct {
	Done      float64 // cycle the last byte returns (loads, atomics) or the access is accepted (stores)
	Cause     Cause   // what dominated
	Conflicts int     // extra cycles from bank conflicts (local memory)
}
