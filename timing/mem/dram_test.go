package mem

import "testing"

// DRAM is one server at the achieved bandwidth (4 B/cycle in unitYAML)
// plus its latency (100 cycles): a 64-byte read occupies it 16 cycles, the
// first of which counts as part of the latency, and a second read waits for
// the first.
func TestDRAMReadBandwidthAndLatency(t *testing.T) {
	h := unitHierarchy(t)
	if h.p.dramBPC != 4 || h.p.dramLat != 100 {
		t.Fatalf("DRAM %.3g B/cycle, %.3g cycles; want 4 and 100 from the config", h.p.dramBPC, h.p.dramLat)
	}
	for i, c := range []struct {
		t, upstream, want float64
	}{
		{0, 0, 15 + 100},      // 16 cycles from 0
		{0, 0, 31 + 100},      // queued behind the first: 16..31
		{500, 0, 515 + 100},   // server idle again
		{500, 700, 700 + 100}, // the level above passes the data on later
	} {
		if got := h.readDRAM(64, c.t, c.upstream); got != c.want {
			t.Errorf("read %d: done at %.1f, want %.1f", i, got, c.want)
		}
	}
	if got := h.c.DRAMReadBytes; got != 4*64 {
		t.Errorf("DRAM read bytes %d, want 256", got)
	}
	if got := h.c.DRAMReadByStream[StreamData]; got != 4*64 {
		t.Errorf("data-stream DRAM bytes %d, want 256", got)
	}
}

// A write-back without an SLC goes straight to DRAM, is taken when its 16
// cycles of service end, and is charged to the stream that dirtied it.
func TestDRAMWriteBack(t *testing.T) {
	h := unitHierarchy(t)
	if got := h.writeBelow(0, 64, 10, StreamFramebuffer); got != 26 {
		t.Errorf("write-back taken at %.1f, want 26 (10 + 64/4)", got)
	}
	if got := h.writeBelow(64, 64, 10, StreamFramebuffer); got != 42 {
		t.Errorf("second write-back taken at %.1f, want 42 (queued)", got)
	}
	if h.c.DRAMWriteBytes != 128 || h.c.DRAMWriteByStream[StreamFramebuffer] != 128 || h.c.DRAMWriteByStream[StreamData] != 0 {
		t.Errorf("DRAM write bytes %d, by stream %v; want 128, all framebuffer", h.c.DRAMWriteBytes, h.c.DRAMWriteByStream)
	}
}

// Copies run at half the achieved DRAM bandwidth (2 GB/s: 2 B/cycle at
// 1000 MHz) times the direction's factor (1 to the GPU, 0.5 from it).
func TestDRAMCopyTime(t *testing.T) {
	h := unitHierarchy(t)
	if got := h.CopyTime(4000, true); got != 2000 {
		t.Errorf("4000 bytes to the GPU: %.1f cycles, want 2000", got)
	}
	if got := h.CopyTime(4000, false); got != 4000 {
		t.Errorf("4000 bytes from the GPU: %.1f cycles, want 4000", got)
	}
	if got := h.CopyTime(0, true); got != 0 {
		t.Errorf("empty copy: %.1f cycles, want 0", got)
	}
}
