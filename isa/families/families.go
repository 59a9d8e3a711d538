// Package families is the registry of GPU families: the one place that
// knows every family package, keyed by arch.Family. Callers lower and
// analyze kernels through it so that nothing above isa branches on a
// family. Adding a family is a line in builtin (see docs/architecture.md).
package families

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/adreno"
	"github.com/pocketgpu/pocketgpu/isa/bifrost"
	"github.com/pocketgpu/pocketgpu/isa/midgard"
	"github.com/pocketgpu/pocketgpu/isa/rogue"
)

// builtin lists the families pocketgpu ships, in the order reports show
// their rows.
var builtin = []isa.Family{
	bifrost.Family{},
	midgard.Family{},
	adreno.Family{},
	rogue.Family{},
}

var registry = struct {
	sync.RWMutex
	list []isa.Family
}{}

func init() {
	for _, f := range builtin {
		if err := Register(f); err != nil {
			panic(err) // a programming error in the list above
		}
	}
}

// Register adds a family (and its rules to arch, for a family arch does
// not define). A family registered twice is an error.
func Register(f isa.Family) error {
	r := f.Rules()
	if err := arch.RegisterFamily(r); err != nil {
		return err
	}
	registry.Lock()
	defer registry.Unlock()
	for _, k := range registry.list {
		if k.Rules().Name == r.Name {
			return fmt.Errorf("families: %s is already registered", r.Name)
		}
	}
	registry.list = append(registry.list, f)
	return nil
}

// For returns the family of g.
func For(g *arch.GPU) (isa.Family, error) {
	registry.RLock()
	defer registry.RUnlock()
	var names []string
	for _, f := range registry.list {
		if f.Rules().Name == g.Family {
			return f, nil
		}
		names = append(names, string(f.Rules().Name))
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%s: no code generator for family %q (registered: %s)", g.ID, g.Family, strings.Join(names, ", "))
}

// All lists the registered families in registration order.
func All() []isa.Family {
	registry.RLock()
	defer registry.RUnlock()
	return append([]isa.Family(nil), registry.list...)
}

// Order is a family's position in All (report rows follow it); -1 if it
// is not registered.
func Order(f arch.Family) int {
	for i, k := range All() {
		if k.Rules().Name == f {
			return i
		}
	}
	return -1
}

// Lower lowers p for g with g's family (isa.Lower).
func Lower(p *ir.Program, g *arch.GPU, warpWidth int) (*isa.Program, error) {
	f, err := For(g)
	if err != nil {
		return nil, err
	}
	return isa.Lower(p, g, warpWidth, f)
}

// Analyze is the static report of p on g (isa.Analyze).
func Analyze(p *ir.Program, g *arch.GPU, warpWidth int) (*isa.Report, error) {
	f, err := For(g)
	if err != nil {
		return nil, err
	}
	return isa.Analyze(p, g, warpWidth, f)
}
