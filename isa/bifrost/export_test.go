package bifrost

import "fmt"

// WatchClauses makes the scheduler show each clause it builds to f (nil:
// stop): per tuple, the instruction in each pipe's slot ("-" empty, "b"
// the branch, "i<N>" IR instruction N).
func WatchClauses(f func(clause [][]string)) {
	if f == nil {
		debugBifrost = nil
		return
	}
	debugBifrost = func(s *bifrostSched, T int) {
		var cl [][]string
		for tt := 0; tt < T; tt++ {
			row := make([]string, s.npipes)
			for k := range row {
				row[k] = "-"
			}
			for _, m := range s.members {
				if int(s.first[m]) <= tt && int(s.last[m]) >= tt {
					name := "b"
					if in := s.ops[m].Inst; in >= 0 {
						name = fmt.Sprintf("i%d", in)
					}
					row[s.slot[m]] = name
				}
			}
			cl = append(cl, row)
		}
		f(cl)
	}
}
