package timing

import (
	"math"
	"reflect"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// memTest is a memory unit over a fresh hierarchy of a preset, with a
// warp of width 8 of a kernel whose code is given, on core 1, in work-group
// slot 1 of two, and a second fresh hierarchy to replay the requests the
// unit should have sent (ref).
type memTest struct {
	g   *arch.GPU
	m   *memUnit
	w   *warpState
	ref *mem.Hierarchy
}

func newMemTest(t *testing.T, gpu string, ip *ir.Program) *memTest {
	t.Helper()
	g, err := arch.Lookup(gpu)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kernel{prog: &isa.Program{IR: ip, WarpWidth: 8, SpillBytes: 16}}
	k.win = windows{slots: 2, local: 1024, private: 2048}
	w := &warpState{k: k, wg: &wgState{core: &core{id: 1}, slot: 1}, slots: make([]slotReady, ip.Regs)}
	w.eng = &engine{}
	return &memTest{g: g, m: &memUnit{h: mem.New(g)}, w: w, ref: mem.New(g)}
}

// want is the time the reference hierarchy finishes the request r sent at
// t, with the warp's core, group and window. When last, r must be the last
// request the unit sent.
func (mt *memTest) want(t *testing.T, at float64, r mem.Request, last bool) float64 {
	t.Helper()
	r.Core, r.Group = 1, 1
	r.Window = mt.w.k.window(r.Space, 1, 1)
	if r.Stream == 0 {
		r.Stream = mem.StreamData
	}
	if last && !reflect.DeepEqual(mt.m.req, r) {
		t.Errorf("sent %+v\nwant %+v", mt.m.req, r)
	}
	return mt.ref.Access(at, &r).Done
}

// same checks that the unit's hierarchy saw what the reference did.
func (mt *memTest) same(t *testing.T) {
	t.Helper()
	if a, b := mt.m.h.Counters(), mt.ref.Counters(); !reflect.DeepEqual(a, b) {
		t.Errorf("the hierarchy's counters differ from the reference's:\n%+v\n%+v", a, b)
	}
}

func lanes(addrs ...uint64) []uint64 { return addrs }

func seq(base, stride uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = base + uint64(i)*stride
	}
	return out
}

// A load's destination slots (all its components) can be read when the
// hierarchy returns its data; a store leaves them alone and must complete
// before the warp ends; a private access is a register move and sends
// nothing.
func TestMemUnitLoadStore(t *testing.T) {
	ip := &ir.Program{Regs: 8, Code: []ir.Inst{
		{Op: ir.OpLoadGlobal32, Dst: 2, N: 2},
		{Op: ir.OpStoreGlobal32, Dst: -1},
		{Op: ir.OpLoadGlobal32, Dst: 5, N: 1},
	}}
	mt := newMemTest(t, "mali-g52", ip)
	load, store := seq(0x10000, 8, 8), seq(0x20000, 4, 8)
	mt.w.trace = emu.Trace{
		Accesses: []emu.Access{
			{PC: 0, Space: ir.SpaceGlobal, Kind: emu.AccessLoad, Bytes: 8, Start: 0, N: 8},
			{PC: 1, Space: ir.SpaceGlobal, Kind: emu.AccessStore, Bytes: 4, Start: 8, N: 8},
			{PC: 2, Space: ir.SpacePrivate, Kind: emu.AccessLoad, Bytes: 4, Start: 16, N: 8},
		},
		Addrs: append(append(append([]uint64(nil), load...), store...), seq(0, 4, 8)...),
	}
	w := mt.w
	if c := mt.m.op(w, 0, 10); c != nil {
		t.Fatal("a load is no item copy")
	}
	ld := mt.want(t, 10, mem.Request{Space: ir.SpaceGlobal, Kind: mem.Load, Addrs: load, Bytes: 8, Lanes: 8}, true)
	if w.slots[2] != (slotReady{ld, StallMemory}) || w.slots[3] != w.slots[2] || w.slots[4].at != 0 {
		t.Errorf("load slots %v; want 2 and 3 ready at %v (memory)", w.slots, ld)
	}
	mt.m.op(w, 1, 12)
	st := mt.want(t, 12, mem.Request{Space: ir.SpaceGlobal, Kind: mem.Store, Addrs: store, Bytes: 4, Lanes: 8}, true)
	if w.outstanding != st {
		t.Errorf("store outstanding to %v, want %v", w.outstanding, st)
	}
	mt.m.op(w, 2, 14)
	if w.slots[5] != (slotReady{14, StallMemory}) {
		t.Errorf("private load: slot 5 %v, want ready at issue", w.slots[5])
	}
	if c := mt.m.h.Counters(); c.Loads != 1 || c.Stores != 1 {
		t.Errorf("the hierarchy saw %d loads and %d stores, want 1 and 1", c.Loads, c.Stores)
	}
	mt.same(t)
}

// An atomic's one result slot comes from the atomics table and it counts
// as outstanding until done; a sample's components from the image table,
// waiting on texture, with a sample per active lane.
func TestMemUnitAtomicTexture(t *testing.T) {
	ip := &ir.Program{Regs: 8,
		Code:    []ir.Inst{{Op: ir.OpAtomic, Aux: 0, Dst: -1}, {Op: ir.OpImage, Aux: 0, Dst: 4, N: 1}},
		Atomics: []ir.AtomicInfo{{Dst: 3}},
		Images:  []ir.ImageOp{{Dst: 4, N: 2}},
	}
	mt := newMemTest(t, "mali-g52", ip)
	var active emu.Mask
	for _, l := range []int{0, 3, 6} {
		active.Set(l)
	}
	texels := seq(0x40000, 4, 12) // four per sampling lane
	mt.w.trace = emu.Trace{Active: active,
		Accesses: []emu.Access{
			{PC: 0, Space: ir.SpaceGlobal, Kind: emu.AccessAtomic, Bytes: 4, Start: 0, N: 3},
			{PC: 1, Space: ir.SpaceGlobal, Kind: emu.AccessTexture, Bytes: 4, Start: 3, N: 12},
		},
		Addrs: append(lanes(0x30000, 0x30004, 0x30008), texels...),
	}
	w := mt.w
	mt.m.op(w, 0, 20)
	at := mt.want(t, 20, mem.Request{Space: ir.SpaceGlobal, Kind: mem.Atomic, Addrs: lanes(0x30000, 0x30004, 0x30008), Bytes: 4, Lanes: 3}, true)
	if w.slots[3] != (slotReady{at, StallMemory}) || w.outstanding != at {
		t.Errorf("atomic: slot 3 %v, outstanding %v; want both %v", w.slots[3], w.outstanding, at)
	}
	mt.m.op(w, 1, 30)
	tx := mt.want(t, 30, mem.Request{Space: ir.SpaceGlobal, Kind: mem.Texture, Addrs: texels, Bytes: 4, Lanes: 3, Stream: mem.StreamTexture}, true)
	if w.slots[4] != (slotReady{tx, StallTexture}) || w.slots[5] != w.slots[4] || w.slots[6].at != 0 {
		t.Errorf("sample: slots %v; want 4 and 5 ready at %v (texture)", w.slots, tx)
	}
	mt.same(t)
}

// A spill message's addresses are the active lanes' places in the warp's
// scratch area (after those of the work-group's earlier warps) in its
// slot's private window; a store is outstanding, a reload's slots wait for
// it; both are counted, and a message with no active lane sends nothing.
func TestMemUnitSpill(t *testing.T) {
	mt := newMemTest(t, "mali-g52", &ir.Program{Regs: 8})
	w := mt.w
	w.scratch = 1 // the work-group's second warp: 16 B × 8 lanes in
	for _, l := range []int{0, 2, 5} {
		w.trace.Active.Set(l)
	}
	store := &isa.SpillMsg{Store: true, Run: 2, Stride: 8, Sub: 4, Bytes: 4}
	mt.m.spill(w, store, 40)
	// base 128, run 2 × 8 lanes, lane × stride, sub 4.
	addrs := lanes(128+16+0+4, 128+16+16+4, 128+16+40+4)
	st := mt.want(t, 40, mem.Request{Space: ir.SpacePrivate, Kind: mem.Store, Addrs: addrs, Bytes: 4, Lanes: 3}, true)
	if w.outstanding != st {
		t.Errorf("spill store outstanding to %v, want %v", w.outstanding, st)
	}
	reload := &isa.SpillMsg{Run: 2, Stride: 8, Sub: 4, Bytes: 4, Slots: []int32{6, 9}}
	mt.m.spill(w, reload, 50)
	ld := mt.want(t, 50, mem.Request{Space: ir.SpacePrivate, Kind: mem.Load, Addrs: addrs, Bytes: 4, Lanes: 3}, true)
	if w.slots[6] != (slotReady{ld, StallMemory}) {
		t.Errorf("reloaded slot %v, want ready at %v", w.slots[6], ld)
	}
	w.trace.Active = emu.Mask{}
	mt.m.spill(w, reload, 60)
	if want := (SpillCounts{Loads: 1, Stores: 1, LoadBytes: 12, StoreBytes: 12}); mt.m.counts != want {
		t.Errorf("counts %+v, want %+v", mt.m.counts, want)
	}
	mt.same(t)
}

// An item copy loads its elements in rounds of one per work-item (the
// copy's own group issued the first round's instruction, the port the
// others), holds the warp, and once the data is in stores it in as many
// rounds from then, the warp waiting for the last.
func TestMemUnitItemCopy(t *testing.T) {
	ip := &ir.Program{Regs: 4, Code: []ir.Inst{{Op: ir.OpCopyMemory, Dst: -1}}}
	mt := newMemTest(t, "powervr-gx6250", ip)
	w := mt.w
	k := w.k
	// Rounds 100 cycles apart, so each round's time shows.
	k.itemCopy, k.copyChunk, k.instIssue = true, 4, 100
	src, dst := seq(0x50000, 256, 10), seq(0, 4, 10) // each element its own line
	w.trace = emu.Trace{
		Accesses: []emu.Access{
			{PC: 0, Space: ir.SpaceGlobal, Kind: emu.AccessLoad, Bytes: 4, Start: 0, N: 10, Bulk: true},
			{PC: 0, Space: ir.SpaceLocal, Kind: emu.AccessStore, Bytes: 4, Start: 10, N: 10, Bulk: true},
		},
		Addrs: append(append([]uint64(nil), src...), dst...),
	}
	w.eng.issuer.portFree = 5 // the copy's group issued at 4
	c := mt.m.op(w, 0, 4)
	if c == nil {
		t.Fatal("no item copy")
	}
	if c.rounds != 3 || w.eng.issuer.portFree != 205 || w.eng.issuer.counts.IssueCycles != 200 {
		t.Errorf("%d rounds, port free at %v after %v cycles; want 3 rounds, the port to 205 (two more of 100)", c.rounds, w.eng.issuer.portFree, w.eng.issuer.counts.IssueCycles)
	}
	loaded := 4.0
	for r, at := range []float64{4, 104, 204} {
		hi := min(4*r+4, 10)
		loaded = max(loaded, mt.want(t, at, mem.Request{Space: ir.SpaceGlobal, Kind: mem.Load, Addrs: src[4*r : hi], Bytes: 4, Lanes: hi - 4*r}, r == 2))
	}
	if c.loaded != loaded || !math.IsInf(w.readyAt, 1) || !w.copying {
		t.Errorf("loaded at %v (want %v); warp ready at %v, copying %v", c.loaded, loaded, w.readyAt, w.copying)
	}
	// The data is in at 1000; the port is free then.
	done := mt.m.storeCopy(c, 1000)
	want := 1300.0 // the port's three rounds
	for r, at := range []float64{1000, 1100, 1200} {
		hi := min(4*r+4, 10)
		want = max(want, mt.want(t, at, mem.Request{Space: ir.SpaceLocal, Kind: mem.Store, Addrs: dst[4*r : hi], Bytes: 4, Lanes: hi - 4*r}, r == 2))
	}
	if done != want || w.outstanding != want || w.eng.issuer.portFree != 1300 {
		t.Errorf("stores done at %v (outstanding %v, port %v); want %v, %v, 1300", done, w.outstanding, w.eng.issuer.portFree, want, want)
	}
	// A copy recorded without its stores is not one to time.
	w.acc = 0
	w.trace.Accesses = w.trace.Accesses[:1]
	if c := mt.m.op(w, 0, 200); c != nil {
		t.Errorf("a copy with loads only: %+v", c)
	}
}
