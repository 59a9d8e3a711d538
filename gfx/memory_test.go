package gfx

import "testing"

func TestCacheLRU(t *testing.T) {
	c := newCache(4*64, 64, 2) // 2 sets of 2 ways
	seq := []struct {
		line uint64
		hit  bool
	}{{0, false}, {2, false}, {0, true}, {4, false}, {2, false}, {0, false}, {1, false}, {1, true}}
	// Set 0 holds lines 0, 2, 4 ...: 4 evicts 2 (least recently used), then
	// 2 evicts 0, and 0 evicts 4.
	for i, s := range seq {
		if hit, _, _, _ := c.access(s.line, false, StreamTexture); hit != s.hit {
			t.Fatalf("access %d (line %d): hit %v, want %v", i, s.line, hit, s.hit)
		}
	}
	if c.hits != 2 || c.misses != 6 {
		t.Errorf("hits %d, misses %d", c.hits, c.misses)
	}
}

func TestMemSystemStreams(t *testing.T) {
	ms := &memSystem{l2: newCache(2*64, 64, 2)} // one set of two lines
	ms.Read(0, 4, StreamTexture)                // miss: 64 bytes read
	ms.Read(8, 4, StreamTexture)                // hit
	ms.Write(64, 128, StreamFramebuffer)        // two lines allocated without reads, evicting line 0 (clean)
	ms.Read(256, 64, StreamGeometry)            // miss: evicts dirty line 1 (write-back)
	if ms.read[StreamTexture] != 64 || ms.read[StreamGeometry] != 64 || ms.read[StreamFramebuffer] != 0 {
		t.Errorf("reads %v", ms.read)
	}
	if ms.write[StreamFramebuffer] != 64 {
		t.Errorf("write-backs before the flush: %v", ms.write)
	}
	ms.Flush()
	if ms.write[StreamFramebuffer] != 128 {
		t.Errorf("write-backs after the flush: %v", ms.write)
	}
	ms.Flush()
	if ms.write[StreamFramebuffer] != 128 {
		t.Errorf("a second flush wrote again: %v", ms.write)
	}
}
