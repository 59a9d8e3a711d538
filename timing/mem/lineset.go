package mem

// lineSet finds a line among a request's lines. A few lines are searched
// from the newest back; past that an open-addressing table (cleared by
// bumping a generation, not by zeroing) keeps a scattered gather linear.
type lineSet struct {
	slots []slot
	mask  uint64
	gen   uint32
	big   bool
}

type slot struct {
	line uint64
	idx  int32
	gen  uint32
}

const linearLines = 16

// reset prepares for a request of up to n lines.
func (s *lineSet) reset(n int) {
	s.big = false
	want := 64
	for want < 4*n {
		want *= 2
	}
	if len(s.slots) < want {
		s.slots = make([]slot, want)
		s.mask = uint64(want - 1)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 { // wrapped: stale generations could match
		clear(s.slots)
		s.gen = 1
	}
}

func hashLine(line uint64) uint64 { return (line * 0x9E3779B97F4A7C15) >> 20 }

func (s *lineSet) find(line uint64, lines []span) (int, bool) {
	if !s.big {
		for i := len(lines) - 1; i >= 0; i-- {
			if lines[i].line == line {
				return i, true
			}
		}
		return 0, false
	}
	for k := hashLine(line) & s.mask; ; k = (k + 1) & s.mask {
		sl := &s.slots[k]
		if sl.gen != s.gen {
			return 0, false
		}
		if sl.line == line {
			return int(sl.idx), true
		}
	}
}

// add records that line is about to become lines[len(lines)]; once there
// are linearLines lines it indexes them all.
func (s *lineSet) add(line uint64, lines []span) {
	if !s.big {
		if len(lines)+1 < linearLines {
			return
		}
		s.big = true
		for i, l := range lines {
			s.put(l.line, i)
		}
	}
	s.put(line, len(lines))
}

func (s *lineSet) put(line uint64, idx int) {
	k := hashLine(line) & s.mask
	for s.slots[k].gen == s.gen {
		k = (k + 1) & s.mask
	}
	s.slots[k] = slot{line: line, idx: int32(idx), gen: s.gen}
}
