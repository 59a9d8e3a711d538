package opencl

// Sampler addressing and filter modes (cl.h) and the sampler properties
// of clCreateSamplerWithProperties.
const (
	AddressNone           = 0x1130
	AddressClampToEdge    = 0x1131
	AddressClamp          = 0x1132
	AddressRepeat         = 0x1133
	AddressMirroredRepeat = 0x1134
	FilterNearest         = 0x1140
	FilterLinear          = 0x1141

	SamplerNormalizedCoords = 0x1152
	SamplerAddressingMode   = 0x1153
	SamplerFilterMode       = 0x1154
)

// Sampler is a cl_sampler.
type Sampler struct {
	Ctx        *Context
	Normalized bool
	Addressing uint32
	Filter     uint32
}

// NewSampler makes a sampler (clCreateSampler).
func (c *Context) NewSampler(normalized bool, addressing, filter uint32) (*Sampler, error) {
	if addressing < AddressNone || addressing > AddressMirroredRepeat {
		return nil, errorf(InvalidValue, "addressing mode %#x", addressing)
	}
	if filter != FilterNearest && filter != FilterLinear {
		return nil, errorf(InvalidValue, "filter mode %#x", filter)
	}
	return &Sampler{Ctx: c, Normalized: normalized, Addressing: addressing, Filter: filter}, nil
}

// NewSamplerProps makes a sampler from a property list of name, value
// pairs (clCreateSamplerWithProperties); what it leaves out is the
// default: normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
func (c *Context) NewSamplerProps(props [][2]uint64) (*Sampler, error) {
	norm, addr, filter := true, uint32(AddressClamp), uint32(FilterNearest)
	seen := map[uint64]bool{}
	for _, p := range props {
		if seen[p[0]] {
			return nil, errorf(InvalidValue, "sampler property %#x given twice", p[0])
		}
		seen[p[0]] = true
		switch p[0] {
		case SamplerNormalizedCoords:
			norm = p[1] != 0
		case SamplerAddressingMode:
			addr = uint32(p[1])
		case SamplerFilterMode:
			filter = uint32(p[1])
		default:
			return nil, errorf(InvalidValue, "sampler property %#x is not supported", p[0])
		}
	}
	return c.NewSampler(norm, addr, filter)
}

// bits is the sampler as a kernel's sampler_t holds it (CLK_* flags).
func (s *Sampler) bits() uint32 {
	v := (s.Addressing - AddressNone) * 2 // CLK_ADDRESS_* step by 2 from NONE = 0
	if s.Normalized {
		v |= 1
	}
	if s.Filter == FilterLinear {
		return v | 0x20
	}
	return v | 0x10
}
