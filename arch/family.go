package arch

import (
	"fmt"
	"sync"
)

// FamilyRules is what the description layer knows of a family beyond its
// parameters: which section of a description holds the family's own
// parameters, the words its vendor counts cores and clusters in, and the
// occupancy rules in which families differ. It is a table, not code: the
// lowering and scheduling a family does live in its package under isa/.
type FamilyRules struct {
	// Name is the family as descriptions write it (family: NAME).
	Name Family
	// Section is the YAML key of the family's own parameter section
	// ("bifrost"); "" for a family with none. A description of the family
	// must have that section and no other family's.
	Section string
	// CoreCount and ClusterCount are the derived figures that give the
	// core and cluster counts in the vendor's words (see Derived);
	// "" for none.
	CoreCount, ClusterCount string
	// PacksWorkgroups: a warp holds several work-groups smaller than it
	// (Rogue packs work-groups into a 32-thread task, seed 003 §Coarse
	// Grain Scheduler).
	PacksWorkgroups bool
}

// The families whose parameter sections this package defines.
var builtinFamilies = []FamilyRules{
	{Name: Midgard, Section: "midgard", CoreCount: "shader_cores"},
	{Name: Bifrost, Section: "bifrost", CoreCount: "shader_cores"},
	{Name: Adreno, Section: "adreno", CoreCount: "usptps", ClusterCount: "sps"},
	{Name: Rogue, Section: "rogue", CoreCount: "uscs", ClusterCount: "usc_pairs", PacksWorkgroups: true},
}

var families = struct {
	sync.RWMutex
	list []FamilyRules
}{list: append([]FamilyRules(nil), builtinFamilies...)}

// RegisterFamily adds a family a package of its own models (isa/families
// calls it for every family it registers). Registering a known family
// again with the same rules does nothing; with other rules, or a section
// this package does not define, it is an error.
func RegisterFamily(r FamilyRules) error {
	if r.Name == "" {
		return fmt.Errorf("arch: a family needs a name")
	}
	if r.Section != "" && sectionOf(r.Section) == nil {
		return fmt.Errorf("arch: family %s: there is no %s: section in the description schema (arch.GPU)", r.Name, r.Section)
	}
	families.Lock()
	defer families.Unlock()
	for _, k := range families.list {
		if k.Name == r.Name {
			if k != r {
				return fmt.Errorf("arch: family %s is already registered with other rules", r.Name)
			}
			return nil
		}
	}
	families.list = append(families.list, r)
	return nil
}

// FamilyList lists the known families in registration order: the built-in
// ones first.
func FamilyList() []FamilyRules {
	families.RLock()
	defer families.RUnlock()
	return append([]FamilyRules(nil), families.list...)
}

// RulesOf returns the rules of family f.
func RulesOf(f Family) (FamilyRules, bool) {
	families.RLock()
	defer families.RUnlock()
	for _, r := range families.list {
		if r.Name == f {
			return r, true
		}
	}
	return FamilyRules{}, false
}

// Rules returns the rules of g's family (the zero rules, named after it,
// for a family nobody registered; Validate refuses such a GPU).
func (g *GPU) Rules() FamilyRules {
	if r, ok := RulesOf(g.Family); ok {
		return r
	}
	return FamilyRules{Name: g.Family}
}

// familySections maps each family section's YAML key to whether g has it.
func (g *GPU) familySections() map[string]bool {
	out := map[string]bool{}
	for key, present := range sectionPresence {
		out[key] = present(g)
	}
	return out
}

// sectionPresence lists the family sections of the schema.
var sectionPresence = map[string]func(g *GPU) bool{
	"midgard": func(g *GPU) bool { return g.Midgard != nil },
	"bifrost": func(g *GPU) bool { return g.Bifrost != nil },
	"adreno":  func(g *GPU) bool { return g.Adreno != nil },
	"rogue":   func(g *GPU) bool { return g.Rogue != nil },
}

// HasSection reports whether g has the family section key ("bifrost").
func (g *GPU) HasSection(key string) bool {
	present := sectionPresence[key]
	return present != nil && present(g)
}

func sectionOf(key string) func(g *GPU) bool { return sectionPresence[key] }
