package mem

// This file models request coalescing: a warp instruction's lane addresses
// merged into the unique cache lines they touch, as every level's path does.

// span is one cache line a request touches and how many of its bytes.
type span struct {
	line  uint64
	bytes int
}

// gather fills h.lines with the unique lines (of lineBytes) the addresses
// touch, in order of first touch, with the bytes touched in each (lanes
// reading the same address as the lane before count once). It returns the
// total bytes touched. shift is log2 of lineBytes.
func (h *Hierarchy) gather(addrs []uint64, bytes, lineBytes int, shift uint) int {
	h.lines = h.lines[:0]
	lb := uint64(lineBytes)
	if contiguous(addrs, bytes) {
		// The usual coalesced access: lanes reading consecutive elements.
		a, end := addrs[0], addrs[0]+uint64(len(addrs)*bytes)
		for a < end {
			next := min((a>>shift+1)<<shift, end)
			h.lines = append(h.lines, span{a >> shift, int(next - a)})
			a = next
		}
		return len(addrs) * bytes
	}
	h.set.reset(len(addrs) * (bytes/lineBytes + 2)) // the most lines they can touch
	total := 0
	prev := ^uint64(0)
	ub := uint64(bytes)
	for _, a := range addrs {
		if a == prev {
			continue
		}
		prev = a
		total += bytes
		first := a >> shift
		if (a+ub-1)>>shift == first {
			if n := len(h.lines); n > 0 && h.lines[n-1].line == first {
				h.lines[n-1].bytes += bytes
			} else {
				h.addSpan(first, bytes)
			}
			continue
		}
		for off, n := a, bytes; n > 0; {
			chunk := int(min(uint64(n), lb-off&(lb-1)))
			h.addSpan(off>>shift, chunk)
			off += uint64(chunk)
			n -= chunk
		}
	}
	for i := range h.lines {
		h.lines[i].bytes = min(h.lines[i].bytes, lineBytes)
	}
	return total
}

// contiguous reports whether lane i reads addrs[0] + i × bytes.
func contiguous(addrs []uint64, bytes int) bool {
	a, b := addrs[0], uint64(bytes)
	for _, x := range addrs[1:] {
		a += b
		if x != a {
			return false
		}
	}
	return true
}

func (h *Hierarchy) addSpan(line uint64, n int) {
	if i, ok := h.set.find(line, h.lines); ok {
		h.lines[i].bytes += n
		return
	}
	h.set.add(line, h.lines)
	h.lines = append(h.lines, span{line, n})
}
