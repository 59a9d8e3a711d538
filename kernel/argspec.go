package kernel

// Argument specs: the text a user writes (--arg on the command line, args: in
// a job file) to describe one kernel argument. The grammar is issue 3's:
//
//	buf:TYPE:COUNT[=INIT]               a buffer of COUNT elements
//	TYPE:VALUE                          a scalar (u32:1000, f32:0.5, f32x4:1,2,3,4)
//	local:BYTES                         a __local pointer argument
//	image1d_buffer:CHAN:COUNT[=INIT]    an RGBA image1d_buffer of COUNT texels
//	image2d:CHAN:WxH[=INIT]             an RGBA image2d of W×H texels
//
// TYPE is a scalar type (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64) with an
// optional vector width x2 x3 x4 x8 x16 (f32x4). As in OpenCL C (spec §6.1.5
// "Alignment of Types"), a 3-component vector occupies the memory of a
// 4-component one: a buf:f32x3:N buffer is N×16 bytes, the fourth component
// of each element is padding, always written as zero and never printed.
// CHAN is an image's channel type (i8 u8 i16 u16 i32 u32 f16 f32, no vector
// width); every texel has 4 channels (CL_RGBA), rows are packed without gaps.
//
// INIT fills the initial contents (default zero):
//
//	zero                 all bytes zero
//	fill:V               every element V: one value for every component, or
//	                     one per component (fill:1,2,3,4 for f32x4 or a texel)
//	iota                 component k holds k (counting components in memory
//	                     order, padding excluded; integers wrap modulo 2^bits)
//	random[:SEED]        deterministic random components (see Random below)
//	file:PATH            raw little-endian bytes; the size must match exactly;
//	                     PATH is relative to the job's directory
//	chase:STRIDE[:SEED]  a pointer-chase ring (see Materialize)

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxArgBytes bounds the memory one argument may describe (4 GiB).
const MaxArgBytes = 1 << 32

// ArgKind is the kind of a kernel argument.
type ArgKind int

const (
	BufferArg        ArgKind = iota + 1 // buf:TYPE:COUNT
	ScalarArg                           // TYPE:VALUE
	LocalArg                            // local:BYTES
	Image1DBufferArg                    // image1d_buffer:CHAN:COUNT
	Image2DArg                          // image2d:CHAN:WxH
	BytesArg                            // bytes:HEX, a by-value argument as raw bytes
)

func (k ArgKind) String() string {
	switch k {
	case BufferArg:
		return "buffer"
	case ScalarArg:
		return "scalar"
	case LocalArg:
		return "local"
	case Image1DBufferArg:
		return "image1d_buffer"
	case Image2DArg:
		return "image2d"
	case BytesArg:
		return "bytes"
	}
	return fmt.Sprintf("ArgKind(%d)", int(k))
}

// IsImage reports whether k is an image kind.
func (k ArgKind) IsImage() bool { return k == Image1DBufferArg || k == Image2DArg }

// Base is a scalar component type.
type Base int

const (
	I8 Base = iota + 1
	U8
	I16
	U16
	I32
	U32
	I64
	U64
	F16
	F32
	F64
)

var baseNames = []string{"", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"}

func (b Base) String() string {
	if b > 0 && int(b) < len(baseNames) {
		return baseNames[b]
	}
	return fmt.Sprintf("Base(%d)", int(b))
}

// ElemType is the type of one buffer element, scalar argument or image
// texel. Bits, Signed and Float describe Base; Vec is the component count.
type ElemType struct {
	Base   Base
	Bits   int  // bits per component: 8, 16, 32 or 64
	Signed bool // a signed integer
	Float  bool // a floating-point type
	Vec    int  // components: 1 (scalar), 2, 3, 4, 8 or 16
}

// MakeElem returns the element type of base with vec components.
func MakeElem(base Base, vec int) ElemType {
	e := ElemType{Base: base, Vec: vec}
	switch base {
	case I8, U8:
		e.Bits = 8
	case I16, U16, F16:
		e.Bits = 16
	case I32, U32, F32:
		e.Bits = 32
	case I64, U64, F64:
		e.Bits = 64
	}
	e.Signed = base == I8 || base == I16 || base == I32 || base == I64
	e.Float = base == F16 || base == F32 || base == F64
	return e
}

// Slots is the number of components an element occupies in memory: Vec,
// except that a 3-vector occupies 4.
func (e ElemType) Slots() int {
	if e.Vec == 3 {
		return 4
	}
	return e.Vec
}

// Size is the size in bytes of one element in memory.
func (e ElemType) Size() int { return e.Slots() * e.Bits / 8 }

func (e ElemType) String() string {
	if e.Vec <= 1 {
		return e.Base.String()
	}
	return fmt.Sprintf("%vx%d", e.Base, e.Vec)
}

// InitKind is how a buffer or image is initialised.
type InitKind int

const (
	InitZero   InitKind = iota // zero (the default)
	InitFill                   // fill:V
	InitIota                   // iota
	InitRandom                 // random[:SEED]
	InitFile                   // file:PATH
	InitChase                  // chase:STRIDE_BYTES[:SEED]
)

// Init is a parsed INIT.
type Init struct {
	Kind   InitKind
	Fill   []byte // InitFill: one element's bytes (Elem.Size())
	Seed   uint64 // InitRandom, InitChase; default 1
	Path   string // InitFile, as written
	Stride int    // InitChase: bytes between slots
}

// Arg is a parsed argument spec.
type Arg struct {
	Kind ArgKind
	// Elem is the buffer's element type, the scalar's type, or for images
	// the channel type with Vec 4 (an RGBA texel).
	Elem ElemType
	// Count is the number of buffer elements or image texels (W×H); 1 for a
	// scalar; 0 for local.
	Count      int
	Init       Init
	Scalar     []byte // a scalar's value, little-endian, Elem.Size() bytes
	LocalBytes int    // local:BYTES
	ImageW     int    // image width in texels (image1d_buffer: COUNT)
	ImageH     int    // image height (1 for image1d_buffer)
	Spec       string // the spec as written
}

// ByteSize is the argument's size in bytes: the buffer or image contents, the
// scalar value, or the local allocation.
func (a *Arg) ByteSize() int {
	switch a.Kind {
	case ScalarArg, BytesArg:
		return len(a.Scalar)
	case LocalArg:
		return a.LocalBytes
	}
	return a.Count * a.Elem.Size()
}

const (
	typeHelp  = "i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64, optionally with a vector width x2 x3 x4 x8 x16, e.g. f32x4"
	chanHelp  = "i8 u8 i16 u16 i32 u32 f16 f32"
	formsHelp = "buf:TYPE:COUNT[=INIT], TYPE:VALUE, bytes:HEX, local:BYTES, image1d_buffer:CHAN:COUNT[=INIT] or image2d:CHAN:WxH[=INIT]"
	initHelp  = "zero, fill:V, iota, random[:SEED], file:PATH or chase:STRIDE_BYTES[:SEED]"
)

// parseHexBytes reads bytes:HEX's hex digits (spaces and underscores
// between bytes allowed).
func parseHexBytes(s string) ([]byte, error) {
	s = strings.NewReplacer(" ", "", "_", "").Replace(s)
	if s == "" {
		return nil, fmt.Errorf("bytes: no bytes given; write bytes:HEX, two hex digits a byte")
	}
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("bytes: %d hex digits is not a whole number of bytes", len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bytes: %q is not hex", s)
	}
	return b, nil
}

// specError formats a parse error that quotes the spec.
func specError(spec, format string, args ...any) error {
	return fmt.Errorf("argument spec %q: %s", spec, fmt.Sprintf(format, args...))
}

// ParseArg parses one argument spec (grammar at the top of this file).
// Errors quote the spec and say what is allowed.
func ParseArg(spec string) (Arg, error) {
	a := Arg{Spec: spec}
	s := strings.TrimSpace(spec)
	if s == "" {
		return a, specError(spec, "empty; expected %s", formsHelp)
	}
	head, init, hasInit := strings.Cut(s, "=")
	kind, rest, ok := strings.Cut(head, ":")
	if !ok {
		return a, specError(spec, "expected %s", formsHelp)
	}
	var err error
	switch strings.ToLower(kind) {
	case "buf", "buffer":
		a.Kind = BufferArg
		err = a.parseBuffer(rest)
	case "local":
		a.Kind = LocalArg
		if hasInit {
			return a, specError(spec, "local memory takes no initial contents (local:BYTES)")
		}
		err = a.parseLocal(rest)
	case "image1d_buffer":
		a.Kind = Image1DBufferArg
		err = a.parseImage(rest)
	case "image2d":
		a.Kind = Image2DArg
		err = a.parseImage(rest)
	case "bytes":
		// A by-value argument of any type and size (a struct), as the
		// little-endian bytes the kernel's layout gives it, in hex.
		a.Kind = BytesArg
		if hasInit {
			return a, specError(spec, "bytes takes no =INIT; write bytes:HEX, e.g. bytes:0100000002000000")
		}
		a.Count = 1
		a.Elem, _ = parseType("u8")
		a.Scalar, err = parseHexBytes(rest)
	default:
		elem, terr := parseType(kind)
		if terr != nil {
			return a, specError(spec, "%q is neither an argument kind nor a type; expected %s (TYPE: %s)", kind, formsHelp, typeHelp)
		}
		if hasInit {
			return a, specError(spec, "a scalar takes no =INIT; write TYPE:VALUE, e.g. u32:1000 or f32x4:1,2,3,4")
		}
		a.Kind = ScalarArg
		a.Elem = elem
		a.Count = 1
		a.Scalar, err = parseValue(rest, elem)
	}
	if err != nil {
		return a, specError(spec, "%v", err)
	}
	if hasInit {
		if err := a.parseInit(init); err != nil {
			return a, specError(spec, "%v", err)
		}
	} else {
		a.Init.Seed = 1
	}
	return a, nil
}

// parseType parses TYPE: a base name with an optional xN vector width.
func parseType(s string) (ElemType, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	name, width, hasVec := strings.Cut(s, "x")
	var base Base
	for i, n := range baseNames {
		if i > 0 && n == name {
			base = Base(i)
		}
	}
	if base == 0 {
		return ElemType{}, fmt.Errorf("unknown type %q (allowed: %s)", s, typeHelp)
	}
	vec := 1
	if hasVec {
		switch width {
		case "2", "3", "4", "8", "16":
			vec, _ = strconv.Atoi(width)
		default:
			return ElemType{}, fmt.Errorf("type %q: vector width %q is not one of 2, 3, 4, 8, 16", s, width)
		}
	}
	return MakeElem(base, vec), nil
}

// parseCount parses a positive decimal count.
func parseCount(what, s string) (int, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%s %q is not a positive whole number", what, s)
	}
	if n > MaxArgBytes {
		return 0, fmt.Errorf("%s %s is larger than the %d-byte limit of one argument", what, s, uint64(MaxArgBytes))
	}
	return int(n), nil
}

// checkBytes checks that count elements of elemSize bytes fit the limit.
func checkBytes(count, elemSize int) error {
	if uint64(count)*uint64(elemSize) > MaxArgBytes {
		return fmt.Errorf("%d × %d bytes is more than the %d-byte (4 GiB) limit of one argument", count, elemSize, uint64(MaxArgBytes))
	}
	return nil
}

func (a *Arg) parseBuffer(rest string) error {
	typ, count, ok := strings.Cut(rest, ":")
	if !ok {
		return fmt.Errorf("a buffer is buf:TYPE:COUNT[=INIT], e.g. buf:f32:1024=random")
	}
	e, err := parseType(typ)
	if err != nil {
		return err
	}
	n, err := parseCount("COUNT", count)
	if err != nil {
		return err
	}
	if err := checkBytes(n, e.Size()); err != nil {
		return err
	}
	a.Elem, a.Count = e, n
	return nil
}

func (a *Arg) parseLocal(rest string) error {
	n, err := parseCount("BYTES", rest)
	if err != nil {
		return fmt.Errorf("%v; local memory is local:BYTES, e.g. local:1024", err)
	}
	a.LocalBytes = n
	return nil
}

func (a *Arg) parseImage(rest string) error {
	form := "image1d_buffer:CHAN:COUNT[=INIT]"
	if a.Kind == Image2DArg {
		form = "image2d:CHAN:WxH[=INIT]"
	}
	ch, size, ok := strings.Cut(rest, ":")
	if !ok {
		return fmt.Errorf("an image is %s", form)
	}
	e, err := parseType(ch)
	if err != nil || e.Vec != 1 || e.Base == I64 || e.Base == U64 || e.Base == F64 {
		return fmt.Errorf("image channel type %q is not one of %s (texels are always RGBA)", ch, chanHelp)
	}
	e.Vec = 4
	w, h := 0, 1
	if a.Kind == Image1DBufferArg {
		if w, err = parseCount("COUNT", size); err != nil {
			return err
		}
	} else {
		ws, hs, ok := strings.Cut(strings.ToLower(size), "x")
		if !ok {
			return fmt.Errorf("image2d size %q is not WxH, e.g. 64x32", size)
		}
		if w, err = parseCount("width", ws); err != nil {
			return err
		}
		if h, err = parseCount("height", hs); err != nil {
			return err
		}
		if uint64(w)*uint64(h) > MaxArgBytes {
			return fmt.Errorf("%dx%d texels is more than the 4 GiB limit of one argument", w, h)
		}
	}
	if err := checkBytes(w*h, e.Size()); err != nil {
		return err
	}
	a.Elem, a.Count, a.ImageW, a.ImageH = e, w*h, w, h
	return nil
}

func (a *Arg) parseInit(s string) error {
	kind, rest, hasRest := strings.Cut(s, ":")
	a.Init.Seed = 1
	switch strings.ToLower(kind) {
	case "zero":
		if hasRest {
			return fmt.Errorf("zero takes no parameter")
		}
		a.Init.Kind = InitZero
	case "iota":
		if hasRest {
			return fmt.Errorf("iota takes no parameter")
		}
		a.Init.Kind = InitIota
	case "fill":
		if !hasRest {
			return fmt.Errorf("fill needs a value: fill:V")
		}
		v, err := parseValue(rest, a.Elem)
		if err != nil {
			return fmt.Errorf("fill: %v", err)
		}
		a.Init.Kind, a.Init.Fill = InitFill, v
	case "random":
		a.Init.Kind = InitRandom
		if hasRest {
			seed, err := parseSeed(rest)
			if err != nil {
				return err
			}
			a.Init.Seed = seed
		}
	case "file":
		if !hasRest || rest == "" {
			return fmt.Errorf("file needs a path: file:PATH")
		}
		a.Init.Kind, a.Init.Path = InitFile, rest
	case "chase":
		return a.parseChase(rest, hasRest)
	default:
		return fmt.Errorf("unknown INIT %q (allowed: %s)", kind, initHelp)
	}
	return nil
}

func parseSeed(s string) (uint64, error) {
	seed, err := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("SEED %q is not a whole number from 0 to 2^64-1", s)
	}
	return seed, nil
}

func (a *Arg) parseChase(rest string, hasRest bool) error {
	if a.Elem.Base != U32 || (a.Kind == BufferArg && a.Elem.Vec != 1) {
		return fmt.Errorf("chase needs u32 elements (element indices are u32), e.g. buf:u32:4096=chase:64, not %v", a.Elem)
	}
	if !hasRest {
		return fmt.Errorf("chase needs a stride: chase:STRIDE_BYTES[:SEED]")
	}
	st, seedStr, hasSeed := strings.Cut(rest, ":")
	stride, err := parseCount("STRIDE_BYTES", st)
	if err != nil {
		return err
	}
	size := a.Elem.Size()
	if stride%size != 0 {
		return fmt.Errorf("chase stride %d bytes is not a multiple of the %d-byte element", stride, size)
	}
	a.Init.Kind, a.Init.Stride = InitChase, stride
	if hasSeed {
		seed, err := parseSeed(seedStr)
		if err != nil {
			return err
		}
		a.Init.Seed = seed
	}
	return nil
}

// parseValue parses a value of type e: one number for every component, or a
// comma-separated list of Vec numbers. It returns Elem.Size() bytes; a
// 3-vector's padding component is zero.
func parseValue(s string, e ElemType) ([]byte, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != e.Vec {
		return nil, fmt.Errorf("%d values for %v; give 1 (for every component) or %d", len(parts), e, e.Vec)
	}
	out := make([]byte, e.Size())
	var first []byte
	for i := 0; i < e.Vec; i++ {
		p := parts[0]
		if len(parts) > 1 {
			p = parts[i]
		}
		if i == 0 || len(parts) > 1 {
			v, err := parseComponent(strings.TrimSpace(p), e)
			if err != nil {
				return nil, err
			}
			first = v
		}
		copy(out[i*e.Bits/8:], first)
	}
	return out, nil
}

// parseComponent parses one number as a component of type e.Base.
func parseComponent(s string, e ElemType) ([]byte, error) {
	b := make([]byte, e.Bits/8)
	if s == "" {
		return nil, fmt.Errorf("missing value for %v", e.Base)
	}
	switch {
	case e.Float:
		var f float64
		var err error
		if e.Base == F32 {
			f, err = strconv.ParseFloat(s, 32)
		} else {
			f, err = strconv.ParseFloat(s, 64)
		}
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, fmt.Errorf("value %q is out of range for %v", s, e.Base)
			}
			return nil, fmt.Errorf("value %q is not a number (%v takes decimals like 0.5, -3, 1e-3, inf, nan)", s, e.Base)
		}
		switch e.Base {
		case F16:
			h := HalfFromFloat64(f)
			if h&0x7c00 == 0x7c00 && h&0x3ff == 0 && !math.IsInf(f, 0) {
				return nil, fmt.Errorf("value %q is out of range for f16 (largest finite is 65504)", s)
			}
			binary.LittleEndian.PutUint16(b, h)
		case F32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
		default:
			binary.LittleEndian.PutUint64(b, math.Float64bits(f))
		}
	case e.Signed:
		v, err := strconv.ParseInt(s, 0, e.Bits)
		if err != nil {
			lo, hi := int64(-1)<<(e.Bits-1), int64(uint64(1)<<(e.Bits-1)-1)
			return nil, fmt.Errorf("value %q is not an %v (whole number from %d to %d)", s, e.Base, lo, hi)
		}
		putUint(b, uint64(v))
	default:
		v, err := strconv.ParseUint(s, 0, e.Bits)
		if err != nil {
			hi := uint64(math.MaxUint64) >> (64 - e.Bits)
			return nil, fmt.Errorf("value %q is not a %v (whole number from 0 to %d)", s, e.Base, hi)
		}
		putUint(b, v)
	}
	return b, nil
}

// putUint stores the low len(b) bytes of v little-endian.
func putUint(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

// getUint loads len(b) little-endian bytes.
func getUint(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
