//go:build armbe || arm64be || m68k || mips || mips64 || mips64p32 || ppc || ppc64 || s390 || s390x || shbe || sparc || sparc64

package emu

// lo32 is the index of a 64-bit word's low 32 bits among its two halves on
// a big-endian host.
const lo32 = 1
