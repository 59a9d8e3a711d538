package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Output paths are checked before any simulation starts, so that a typo in
// --out or --dump does not cost the run it was meant to keep.

// checkOutputDir makes sure dir exists (creating it, as the command would)
// and that a file can be written in it.
func checkOutputDir(flag, dir string) error {
	what := flag + " " + dir
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return badInputf("%s: a file is in the way, want a directory", what)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return badInputf("%s: cannot create the directory: %v", what, pathReason(err))
	}
	return probeWrite(what, dir)
}

// checkOutputFile makes sure file can be written: its directory exists and
// takes new files, and the name is not a directory. what is the flag as the
// user gave it ("--dump 2=out.bin"), for the message.
func checkOutputFile(what, file string) error {
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		return badInputf("%s: %s is a directory, want a file name", what, file)
	}
	dir := filepath.Dir(file)
	st, err := os.Stat(dir)
	if err != nil {
		return badInputf("%s: the directory %s does not exist", what, dir)
	}
	if !st.IsDir() {
		return badInputf("%s: %s is not a directory", what, dir)
	}
	return probeWrite(what, dir)
}

// probeWrite creates and removes a file in dir: permission bits do not tell
// the whole story (read-only mounts, ACLs).
func probeWrite(what, dir string) error {
	f, err := os.CreateTemp(dir, ".pocketgpu-probe-*")
	if err != nil {
		return badInputf("%s: cannot write in %s: %v", what, dir, pathReason(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// pathReason drops the path os already repeats from a *PathError.
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
