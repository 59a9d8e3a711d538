package opencl

// Command types of rectangular transfers (cl_command_type).
const (
	CommandReadBufferRect  = 0x1201
	CommandWriteBufferRect = 0x1202
	CommandCopyBufferRect  = 0x1203
)

// Rect is a 3D region in linear memory, as the *Rect calls give it: an
// origin (x in bytes, y in rows, z in slices) with its row and slice
// pitches.
type Rect struct {
	Origin     [3]int
	Row, Slice int
}

// normalize applies the defaults of pitches given as 0 and checks them
// against region (x in bytes), as the 1.2 specification does.
func (r *Rect) normalize(region [3]int, what string) error {
	if r.Row == 0 {
		r.Row = region[0]
	}
	if r.Slice == 0 {
		r.Slice = region[1] * r.Row
	}
	if r.Row < region[0] {
		return errorf(InvalidValue, "%s row pitch %d is less than the region's width %d", what, r.Row, region[0])
	}
	if r.Slice < region[1]*r.Row || r.Slice%r.Row != 0 {
		return errorf(InvalidValue, "%s slice pitch %d is not a multiple of the row pitch %d at least region height times it", what, r.Slice, r.Row)
	}
	for _, o := range r.Origin {
		if o < 0 {
			return errorf(InvalidValue, "%s origin %v is negative", what, r.Origin)
		}
	}
	return nil
}

// offset is the byte offset of the origin.
func (r Rect) offset() int { return r.Origin[2]*r.Slice + r.Origin[1]*r.Row + r.Origin[0] }

// End is one past the last byte the region touches.
func (r Rect) End(region [3]int) int {
	return r.offset() + (region[2]-1)*r.Slice + (region[1]-1)*r.Row + region[0]
}

// HostExtent applies a host rectangle's pitch defaults and returns how many
// bytes of host memory it spans (0 if it is invalid), for callers that
// must size the memory a pointer gives them.
func HostExtent(r Rect, region [3]int) int {
	if checkRegion(region) != nil || r.normalize(region, "host") != nil {
		return 0
	}
	return r.End(region)
}

func checkRegion(region [3]int) error {
	for _, n := range region {
		if n <= 0 {
			return errorf(InvalidValue, "region %v has a zero or negative size", region)
		}
	}
	return nil
}

// copyRect copies region from src (at s) to dst (at d).
func copyRect(dst []byte, d Rect, src []byte, s Rect, region [3]int) {
	for z := 0; z < region[2]; z++ {
		for y := 0; y < region[1]; y++ {
			do := d.offset() + z*d.Slice + y*d.Row
			so := s.offset() + z*s.Slice + y*s.Row
			copy(dst[do:do+region[0]], src[so:so+region[0]])
		}
	}
}

// rectArgs checks a buffer rectangle and a host one and returns them with
// their defaults applied.
func (b *Buffer) rectArgs(br, hr Rect, region [3]int, hostLen int) (Rect, Rect, error) {
	if err := checkRegion(region); err != nil {
		return br, hr, err
	}
	if err := br.normalize(region, "buffer"); err != nil {
		return br, hr, err
	}
	if err := hr.normalize(region, "host"); err != nil {
		return br, hr, err
	}
	if br.End(region) > b.Size {
		return br, hr, errorf(InvalidValue, "the region ends at byte %d of a %d-byte buffer", br.End(region), b.Size)
	}
	if hr.End(region) > hostLen {
		return br, hr, errorf(InvalidValue, "the host region ends at byte %d of %d", hr.End(region), hostLen)
	}
	return br, hr, nil
}

// ReadRect copies a 3D region of the buffer into host memory.
func (q *Queue) ReadRect(b *Buffer, br, hr Rect, region [3]int, dst []byte) (*Event, error) {
	if err := q.transfer(b, 0, 0, false); err != nil {
		return nil, err
	}
	br, hr, err := b.rectArgs(br, hr, region, len(dst))
	if err != nil {
		return nil, err
	}
	n := region[0] * region[1] * region[2]
	return q.run(CommandReadBufferRect, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(b)()
		copyRect(dst, hr, b.bytesNow(), br, region)
		return q.copyNS(sim, rec, n, false), nil
	})
}

// WriteRect copies a 3D region of host memory into the buffer.
func (q *Queue) WriteRect(b *Buffer, br, hr Rect, region [3]int, src []byte) (*Event, error) {
	if err := q.transfer(b, 0, 0, true); err != nil {
		return nil, err
	}
	br, hr, err := b.rectArgs(br, hr, region, len(src))
	if err != nil {
		return nil, err
	}
	n := region[0] * region[1] * region[2]
	return q.run(CommandWriteBufferRect, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(b)()
		copyRect(b.bytesOn(sim), br, src, hr, region)
		return q.copyNS(sim, rec, n, true), nil
	})
}

// CopyRect copies a 3D region between buffers on the device.
func (q *Queue) CopyRect(src, dst *Buffer, sr, dr Rect, region [3]int) (*Event, error) {
	for _, b := range []*Buffer{src, dst} {
		if err := q.sameContext(b); err != nil {
			return nil, err
		}
	}
	if err := checkRegion(region); err != nil {
		return nil, err
	}
	if err := sr.normalize(region, "source"); err != nil {
		return nil, err
	}
	if err := dr.normalize(region, "destination"); err != nil {
		return nil, err
	}
	if sr.End(region) > src.Size || dr.End(region) > dst.Size {
		return nil, errorf(InvalidValue, "the region is outside the source or the destination buffer")
	}
	if src == dst && (sr.Row != dr.Row || sr.Slice != dr.Slice) {
		return nil, errorf(InvalidValue, "a copy within one buffer needs the same pitches on both sides")
	}
	if src.root() == dst.root() && rectsOverlap(src.Offset, sr, dst.Offset, dr, region) {
		return nil, errorf(MemCopyOverlap, "the source and destination regions overlap")
	}
	n := region[0] * region[1] * region[2]
	return q.run(CommandCopyBufferRect, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(src, dst)()
		copyRect(dst.bytesOn(sim), dr, src.bytesOn(sim), sr, region)
		return q.copyNS(sim, rec, 2*n, true), nil
	})
}

// rectsOverlap reports whether two regions of one storage share a byte:
// each is a rising run of row intervals, so one merge pass decides.
func rectsOverlap(aBase int, a Rect, bBase int, b Rect, region [3]int) bool {
	rows := func(base int, r Rect) [][2]int {
		var out [][2]int
		for z := 0; z < region[2]; z++ {
			for y := 0; y < region[1]; y++ {
				o := base + r.offset() + z*r.Slice + y*r.Row
				out = append(out, [2]int{o, o + region[0]})
			}
		}
		return out
	}
	x, y := rows(aBase, a), rows(bBase, b)
	for i, j := 0, 0; i < len(x) && j < len(y); {
		if x[i][0] < y[j][1] && y[j][0] < x[i][1] {
			return true
		}
		if x[i][1] <= y[j][1] {
			i++
		} else {
			j++
		}
	}
	return false
}
