package gfx

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

// benchFrame renders one 1920×1080 frame of the spheres scene at about
// 100k triangles with the default textured, lit fragment shader.
func benchFrame(b *testing.B, gpu string, mode Mode) {
	g, err := arch.Lookup(gpu)
	if err != nil {
		b.Fatal(err)
	}
	s := scene.Spheres(100_000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := New(g, s, Options{Width: 1920, Height: 1080, Mode: mode})
		if err != nil {
			b.Fatal(err)
		}
		f, err := r.Render()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(f.Stats.PrimitivesIn), "triangles")
		b.ReportMetric(float64(f.Stats.FragmentsShaded), "fragments")
	}
}

func BenchmarkFrame1080pMaliG52(b *testing.B)   { benchFrame(b, "mali-g52", Tiled) }
func BenchmarkFrame1080pAdreno640(b *testing.B) { benchFrame(b, "adreno-640", Tiled) }
func BenchmarkFrame1080pImmediate(b *testing.B) { benchFrame(b, "mali-g52", Immediate) }
