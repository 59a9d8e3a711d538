package mem

import "testing"

// gather merges lanes into the unique lines they touch, in order of first
// touch, with the bytes touched in each.
func TestCoalesceGather(t *testing.T) {
	h := unitHierarchy(t)
	tests := []struct {
		name  string
		addrs []uint64
		bytes int
		total int
		lines []span
	}{
		{"consecutive floats", lanes(8, func(i int) uint64 { return uint64(4 * i) }), 4, 32, []span{{0, 32}}},
		{"across a line", lanes(8, func(i int) uint64 { return 48 + uint64(4*i) }), 4, 32, []span{{0, 16}, {1, 16}}},
		{"one line each", lanes(3, func(i int) uint64 { return uint64(64 * i) }), 4, 12, []span{{0, 4}, {1, 4}, {2, 4}}},
		{"same address", lanes(4, func(int) uint64 { return 8 }), 4, 4, []span{{0, 4}}},
		{"straddling element", []uint64{62, 200}, 4, 8, []span{{0, 2}, {1, 2}, {3, 4}}},
		{"revisited line", []uint64{0, 128, 4}, 4, 12, []span{{0, 8}, {2, 4}}},
	}
	for _, tt := range tests {
		total := h.gather(tt.addrs, tt.bytes, 64, 6)
		if total != tt.total || len(h.lines) != len(tt.lines) {
			t.Errorf("%s: %d bytes in %v, want %d in %v", tt.name, total, h.lines, tt.total, tt.lines)
			continue
		}
		for i := range tt.lines {
			if h.lines[i] != tt.lines[i] {
				t.Errorf("%s: lines %v, want %v", tt.name, h.lines, tt.lines)
				break
			}
		}
	}
}
