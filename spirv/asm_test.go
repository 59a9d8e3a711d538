package spirv

import (
	"encoding/binary"
	"fmt"
	"reflect"
)

// asm builds small SPIR-V binaries word by word for the tests.
type asm struct{ words []uint32 }

// newAsm starts a SPIR-V 1.0 module with the given id bound.
func newAsm(bound uint32) *asm {
	return &asm{words: []uint32{Magic, 0x00010000, 0, bound, 0}}
}

// flat flattens operands: integers and enum constants are one word each,
// []uint32 is copied, a string is a literal string.
func flat(parts ...any) []uint32 {
	var w []uint32
	for _, p := range parts {
		switch v := p.(type) {
		case uint32:
			w = append(w, v)
		case int:
			w = append(w, uint32(v))
		case []uint32:
			w = append(w, v...)
		case string:
			w = append(w, strWords(v)...)
		default:
			// The generated enum types (Capability, StorageClass, ...).
			rv := reflect.ValueOf(p)
			switch rv.Kind() {
			case reflect.Uint8, reflect.Uint16, reflect.Uint32:
				w = append(w, uint32(rv.Uint()))
			default:
				panic(fmt.Sprintf("flat: unsupported operand %T", p))
			}
		}
	}
	return w
}

// strWords encodes a literal string: nul-terminated, padded to whole words,
// the first byte in the low-order bits.
func strWords(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// inst appends an instruction with its word count computed.
func (a *asm) inst(op Op, operands ...any) *asm {
	w := flat(operands...)
	a.words = append(a.words, uint32(len(w)+1)<<16|uint32(op))
	a.words = append(a.words, w...)
	return a
}

// raw appends words as they are (for malformed instructions).
func (a *asm) raw(words ...uint32) *asm {
	a.words = append(a.words, words...)
	return a
}

// set overwrites word i (for malformed headers).
func (a *asm) set(i int, v uint32) *asm {
	a.words[i] = v
	return a
}

// offset is the word offset the next instruction will have.
func (a *asm) offset() int { return len(a.words) }

func (a *asm) bytes() []byte { return wordsToBytes(a.words, binary.LittleEndian) }

func wordsToBytes(words []uint32, order binary.ByteOrder) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		order.PutUint32(b[4*i:], w)
	}
	return b
}

// kernelPrologue adds the usual OpenCL module prologue:
// %1 = OpTypeVoid, %2 = OpTypeInt 32 0, %3 = OpTypeFloat 32,
// %4 = OpTypeFunction %1, %5 = OpExtInstImport "OpenCL.std".
func (a *asm) kernelPrologue() *asm {
	return a.inst(OpCapability, CapabilityKernel).
		inst(OpCapability, CapabilityAddresses).
		inst(OpExtInstImport, 5, "OpenCL.std").
		inst(OpMemoryModel, AddressingModelPhysical64, MemoryModelOpenCL).
		inst(OpTypeVoid, 1).
		inst(OpTypeInt, 2, 32, 0).
		inst(OpTypeFloat, 3, 32).
		inst(OpTypeFunction, 4, 1)
}
