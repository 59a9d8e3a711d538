package mem

// bankModel is banked on-chip local memory: n banks, each width bytes wide,
// laid out so that consecutive width-byte words go to consecutive banks (a
// row is one word in every bank). Per cycle a bank serves one word to any
// number of lanes. The lanes that execute together (group: the 16 pipes of a
// Rogue USC, seed 003 §Unified Shading Cluster) are served together; a
// task's halves one after the other.
//
// Seed 003 §Common Store: four 128-bit banks; a row is read in one cycle or
// written in four (rowWrite); registers in the same bank cannot be read in
// the same cycle.
type bankModel struct {
	n, width, rowWrite, group int
	shift                     uint   // log2 width (bank_bytes is a power of two)
	mask                      uint64 // n-1 when n is a power of two, else 0

	words []uint64 // scratch: distinct words of one group
	count []int    // scratch: distinct words per bank
}

func newBankModel(n, width, rowWrite, group int) bankModel {
	b := bankModel{n: n, width: width, rowWrite: rowWrite, group: max(group, 1), shift: shiftOf(width), count: make([]int, n)}
	if n&(n-1) == 0 {
		b.mask = uint64(n - 1)
	}
	return b
}

// commonStoreCycles is the cycles a read of bytes per lane at addrs takes in
// the common store: per group of lanes, the most distinct words any one bank
// must deliver. Seed 003: stride 1 float over 16 threads, 1 cycle (16
// values a cycle); stride 16 floats, 16 cycles (a 16-way clash); a float4
// per thread, 4 cycles.
func (b *bankModel) commonStoreCycles(addrs []uint64, bytes int) int {
	c, _ := b.cycles(addrs, bytes, false)
	return c
}

// commonStoreWriteCycles is the same for a write: a bank still takes one
// word per cycle, and a full row takes rowWrite cycles.
func (b *bankModel) commonStoreWriteCycles(addrs []uint64, bytes int) int {
	c, _ := b.cycles(addrs, bytes, true)
	return c
}

// cycles returns the cycles an access takes and the cycles it would take
// with no conflicts: its bytes at the full row width per cycle (per
// rowWrite cycles for writes). Their difference is the bank-conflict cost.
func (b *bankModel) cycles(addrs []uint64, bytes int, write bool) (cycles, ideal int) {
	row := b.n * b.width
	span := uint64(max(bytes, 1)) - 1
	for lo := 0; lo < len(addrs); lo += b.group {
		grp := addrs[lo:min(lo+b.group, len(addrs))]
		b.words = b.words[:0]
		prev := ^uint64(0)
		for _, a := range grp {
			word, last := a>>b.shift, (a+span)>>b.shift
			if word == last && word == prev {
				continue // the lane before read the same word
			}
			for ; word <= last; word++ {
				if !contains(b.words, word) {
					b.words = append(b.words, word)
				}
			}
			prev = last
		}
		clear(b.count)
		most := 0
		for _, word := range b.words {
			var k int
			if b.mask != 0 || b.n == 1 {
				k = int(word & b.mask)
			} else {
				k = int(word % uint64(b.n))
			}
			b.count[k]++
			most = max(most, b.count[k])
		}
		need := (len(grp)*bytes + row - 1) / row
		if write {
			most = max(most, (len(b.words)*b.rowWrite+b.n-1)/b.n)
			need *= b.rowWrite
		}
		cycles += most
		ideal += min(need, most)
	}
	return cycles, ideal
}

func contains(s []uint64, x uint64) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == x {
			return true
		}
	}
	return false
}
