package probe

import (
	"encoding/binary"
	"fmt"
)

// texelBytes is one texel of the chase's image: RGBA, 32-bit unsigned.
const texelBytes = 16

// imageRing is ring as the texture chase reads it: each slot holds the
// texel index of the next slot (ring's word index over four).
func imageRing(buf []byte) []byte {
	out := append([]byte(nil), buf...)
	for o := 0; o+4 <= len(out); o += 4 {
		v := binary.LittleEndian.Uint32(out[o:])
		binary.LittleEndian.PutUint32(out[o:], v*4/texelBytes)
	}
	return out
}

// chaseImage is chase through the texture path: the ring is an
// image1d_buffer followed with read_imageui by one work-item.
func (p *prober) chaseImage(buf []byte, slots int) (float64, error) {
	if len(buf) < texelBytes {
		buf = append(buf, make([]byte, texelBytes-len(buf))...)
	}
	b, err := p.t.b.Buffer(imageRing(buf))
	if err != nil {
		return 0, fmt.Errorf("a %d-byte buffer: %w", len(buf), err)
	}
	img, err := p.t.b.Image1D(b, len(buf)/texelBytes)
	if err != nil {
		return 0, fmt.Errorf("an image1d_buffer of %d texels: %w", len(buf)/texelBytes, err)
	}
	out, err := p.t.b.Buffer(make([]byte, 4))
	if err != nil {
		return 0, err
	}
	k, err := p.t.kernel("chase_image")
	if err != nil {
		return 0, err
	}
	if _, err := p.t.b.Run(k, []Arg{{Buf: img}, {Buf: out}, U32(uint32(slots))}, 1, 1); err != nil {
		return 0, err
	}
	n := p.o.ChaseSteps
	c, err := p.t.diffCycles("chase_image", func(n int) []Arg { return []Arg{{Buf: img}, {Buf: out}, U32(uint32(n))} }, n, 1, 1)
	if err != nil {
		return 0, err
	}
	p.tick()
	return c / float64(n), nil
}

// texture runs the cache sweep through the texture path, over
// TextureMinFootprint to TextureMaxFootprint: its first level is the
// texture cache.
func (p *prober) texture() (*CacheSweep, error) {
	cs, err := p.cachesWith(p.chaseImage, p.o.TextureMinFootprint, p.o.TextureMaxFootprint)
	if err != nil {
		return nil, fmt.Errorf("texture path: %w", err)
	}
	return cs, nil
}
