package oclref

import (
	"syscall"
	"unsafe"
)

// hugeAlign is a transparent huge page. assumed: 2 MiB, the PMD size of
// x86-64 and of arm64 with 4 KiB pages (Linux
// Documentation/admin-guide/mm/transhuge.rst); elsewhere the advice is
// harmless and the buffer is merely aligned.
const hugeAlign = 2 << 20

// hostMemory returns n bytes aligned to a huge page and advised to be
// backed by huge pages, and a function that frees them. A cache indexed by
// physical address sees a virtually contiguous buffer as contiguous only
// within a page: with huge pages a probe's footprint fills a CPU's L2 set
// by set instead of by the random colours of 4 KiB pages.
func hostMemory(n int) ([]byte, func(), error) {
	m, err := syscall.Mmap(-1, 0, n+hugeAlign, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	off := 0
	if r := int(uintptrOf(m) % hugeAlign); r != 0 {
		off = hugeAlign - r
	}
	b := m[off : off+n : off+n]
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; where it is refused the pages stay small
	return b, func() { _ = syscall.Munmap(m) }, nil
}

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
