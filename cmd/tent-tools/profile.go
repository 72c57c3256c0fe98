package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileEnv names the file a command writes its CPU profile to, and
// memProfileEnv the file of its heap profile (taken as the command ends),
// where set: go tool pprof reads them (docs/pages/performance.md).
const (
	profileEnv    = "TENT_CPUPROFILE"
	memProfileEnv = "TENT_MEMPROFILE"
)

// startProfiles starts the profiles the environment asks for and returns
// what stops and writes them; a profile that cannot be written is said on
// stderr and left out, never a failure of the command.
func startProfiles(stderr io.Writer) (stop func()) {
	var stops []func()
	if name := os.Getenv(profileEnv); name != "" {
		f, err := os.Create(name)
		if err == nil {
			err = pprof.StartCPUProfile(f)
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "tent-tools: %s: %v\n", profileEnv, err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if name := os.Getenv(memProfileEnv); name != "" {
		stops = append(stops, func() {
			f, err := os.Create(name)
			if err == nil {
				runtime.GC() // the heap as of the last collection: make it now
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "tent-tools: %s: %v\n", memProfileEnv, err)
			}
		})
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}
