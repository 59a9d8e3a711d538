package main

// A file without exports, so that its preamble may define C: the call of
// a program's destructor callback through its function pointer.

/*
#include "icd.h"

typedef void (CL_CALLBACK *pg_mem_notify)(cl_mem, void *);

static void pg_call_mem_notify(void *fn, cl_mem m, void *user) {
	((pg_mem_notify)fn)(m, user);
}
*/
import "C"

import "unsafe"

// callMemDestructor calls a clSetMemObjectDestructorCallback function.
func callMemDestructor(fn unsafe.Pointer, m C.cl_mem, user unsafe.Pointer) {
	C.pg_call_mem_notify(fn, m, user)
}
