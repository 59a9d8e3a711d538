package suggest

import (
	"reflect"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"wg-size", "wg-szie", 2}, {"Mali", "Mali", 0}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestNearestAndDidYouMean(t *testing.T) {
	ids := []string{"mali-g52", "mali-g72", "adreno-640", "powervr-gx6250"}
	if got := Nearest("mali-g53", ids, 2); !reflect.DeepEqual(got, []string{"mali-g52", "mali-g72"}) {
		t.Errorf("Nearest = %v", got)
	}
	// A name contained in a candidate is near whatever the lengths.
	if got := Nearest("640", ids, 1); !reflect.DeepEqual(got, []string{"adreno-640"}) {
		t.Errorf("Nearest(640) = %v", got)
	}
	if got := DidYouMean("argz", []string{"args", "gpus", "global"}); got != " (did you mean args?)" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzzzzz", []string{"args", "gpus"}); got != "" {
		t.Errorf("DidYouMean of nothing close = %q", got)
	}
}
