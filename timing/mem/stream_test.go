package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// DRAM bytes are charged to the stream that needed them: fills to the
// request's stream, write-backs to the stream that dirtied the line, even
// when another stream's miss evicts it.
func TestStreamAttribution(t *testing.T) {
	for _, id := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g, err := arch.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		h := New(g)
		line := uint64(g.L2.LineBytes)
		req := func(kind Kind, s Stream, addr uint64) {
			h.Access(0, &Request{Space: ir.SpaceGlobal, Kind: kind, Addrs: []uint64{addr}, Bytes: int(line), Lanes: 1, Stream: s})
		}
		// Dirty 64 lines of framebuffer, then stream enough texture reads
		// to evict every one of them.
		const fb, tex = 0x10_0000_0000, 0x20_0000_0000
		for i := uint64(0); i < 64; i++ {
			req(Store, StreamFramebuffer, fb+i*line)
		}
		n := uint64(4 * (g.L2.SizeKiB*1024 + 2048*1024) / int(line)) // past L1, L2 and any SLC
		for i := uint64(0); i < n; i++ {
			req(Load, StreamTexture, tex+i*line)
		}
		h.Flush(0)
		c := h.Counters()
		if got, want := c.DRAMWriteByStream[StreamFramebuffer], int64(64*line); got != want {
			t.Errorf("%s: framebuffer write-backs %d bytes, want %d", id, got, want)
		}
		if c.DRAMWriteByStream[StreamTexture] != 0 {
			t.Errorf("%s: texture reads wrote %d bytes back", id, c.DRAMWriteByStream[StreamTexture])
		}
		if got, want := c.DRAMReadByStream[StreamTexture], int64(n*line); got != want {
			t.Errorf("%s: texture fills %d bytes, want %d", id, got, want)
		}
		var reads, writes int64
		for s := Stream(0); s < NumStreams; s++ {
			reads += c.DRAMReadByStream[s]
			writes += c.DRAMWriteByStream[s]
		}
		if reads != c.DRAMReadBytes || writes != c.DRAMWriteBytes {
			t.Errorf("%s: streams sum to %d/%d bytes, totals are %d/%d", id, reads, writes, c.DRAMReadBytes, c.DRAMWriteBytes)
		}
	}
}
