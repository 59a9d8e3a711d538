package gfx

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// The renderer's traffic goes through the memory model and comes back split
// by stream: fills charged to the reader, write-backs to the writer.
func TestMemSystemStreams(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	ms := newMemSystem(g)
	line := g.L2.LineBytes
	ms.Read(0x100000, 4, StreamTexture)           // a miss: one line filled
	ms.Read(0x100008, 4, StreamTexture)           // a hit
	ms.Write(0x200000, 2*line, StreamFramebuffer) // two lines dirtied, nothing read
	ms.Read(0x300000, line, StreamGeometry)       // a miss
	read, write := ms.dram()
	if read.Texture != uint64(line) || read.Geometry != uint64(line) || read.Framebuffer != 0 {
		t.Errorf("reads %+v", read)
	}
	if write.Total() != 0 {
		t.Errorf("write-backs before the flush: %+v", write)
	}
	ms.Flush()
	if _, write = ms.dram(); write.Framebuffer != uint64(2*line) || write.Total() != uint64(2*line) {
		t.Errorf("write-backs after the flush: %+v", write)
	}
	ms.Flush()
	if _, write = ms.dram(); write.Framebuffer != uint64(2*line) {
		t.Errorf("a second flush wrote again: %+v", write)
	}
}
