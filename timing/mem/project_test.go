package mem

import (
	"math"
	"reflect"
	"testing"
)

// TestProject checks c + k(b − a) for every count Counters holds, found by
// reflection, so that a count added later and forgotten by Project fails
// here. ClockMHz and Cores are settings, not counts: they stay c's.
func TestProject(t *testing.T) {
	fill := func(seed int64) Counters {
		var c Counters
		n := seed
		var walk func(v reflect.Value)
		walk = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.Int64, reflect.Int:
				n += 7
				v.SetInt(n)
			case reflect.Float64:
				n += 7
				v.SetFloat(float64(n) + 0.25)
			case reflect.Struct:
				for i := range v.NumField() {
					walk(v.Field(i))
				}
			case reflect.Slice:
				v.Set(reflect.MakeSlice(v.Type(), 2, 2))
				for i := range 2 {
					walk(v.Index(i))
				}
			case reflect.Array:
				for i := range v.Len() {
					walk(v.Index(i))
				}
			case reflect.Pointer:
				v.Set(reflect.New(v.Type().Elem()))
				walk(v.Elem())
			}
		}
		walk(reflect.ValueOf(&c).Elem())
		return c
	}
	a, b, c := fill(1), fill(1000), fill(50)
	const k = 2.5
	got := c.Project(a, b, k)
	var check func(path string, g, cv, av, bv reflect.Value)
	check = func(path string, g, cv, av, bv reflect.Value) {
		switch g.Kind() {
		case reflect.Int64, reflect.Int:
			want := cv.Int() + int64(math.Round(k*float64(bv.Int()-av.Int())))
			if path == ".Cores" {
				want = cv.Int()
			}
			if g.Int() != want {
				t.Errorf("%s = %d, want %d", path, g.Int(), want)
			}
		case reflect.Float64:
			want := cv.Float() + k*(bv.Float()-av.Float())
			if path == ".ClockMHz" {
				want = cv.Float()
			}
			if g.Float() != want {
				t.Errorf("%s = %v, want %v", path, g.Float(), want)
			}
		case reflect.Struct:
			for i := range g.NumField() {
				check(path+"."+g.Type().Field(i).Name, g.Field(i), cv.Field(i), av.Field(i), bv.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range g.Len() {
				check(path+"["+string(rune('0'+i))+"]", g.Index(i), cv.Index(i), av.Index(i), bv.Index(i))
			}
		case reflect.Pointer:
			check(path, g.Elem(), cv.Elem(), av.Elem(), bv.Elem())
		}
	}
	check("", reflect.ValueOf(got), reflect.ValueOf(c), reflect.ValueOf(a), reflect.ValueOf(b))
	if z := c.Project(a, b, 0); !reflect.DeepEqual(z, c) {
		t.Error("a projection by 0 changed the counts")
	}
	before := c.L1[0]
	got.L1[0].Hits++
	if c.L1[0] != before {
		t.Error("the projection writes into c's slices")
	}
}
