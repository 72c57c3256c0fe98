package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOversizeFileBoundedMemory: a 50 MB file written outside the tools
// costs map and check no more than a small project does: it is a T1004
// finding, indexed without its contents, never read whole (before, map
// took 674 MB at its peak; now about 40 MB). Both a first look (Build)
// and a later one that finds the file new since the cache (the stamps'
// read) are held to the bound.
func TestOversizeFileBoundedMemory(t *testing.T) {
	dir := shop(t)
	peak := func(args ...string) (int64, string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-C", dir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run()
		return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10, out.String()
	}
	before, _ := peak("map") // a cache without the file
	line := "export const x = 1 // " + strings.Repeat("x", 77) + "\n"
	// Written a block at a time: the test's own memory stays small, as
	// the child's peak counts it until the child's exec (vfork).
	f, err := os.Create(filepath.Join(dir, "lib", "huge.ts"))
	if err != nil {
		t.Fatal(err)
	}
	block := bytes.Repeat([]byte(line), 10000)
	for range (50<<20)/len(block) + 1 {
		f.Write(block)
	}
	f.Truncate(50 << 20)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	const bound = 200 << 20 // a 50 MB text read whole, then parsed, is far more
	for _, step := range []struct {
		name  string
		args  []string
		fresh bool
	}{
		{"map, the file new since the cache", []string{"map"}, false},
		{"check", []string{"check"}, false},
		{"map with no cache", []string{"map"}, true},
	} {
		if step.fresh {
			os.RemoveAll(filepath.Join(dir, ".tent"))
		}
		rss, out := peak(step.args...)
		if rss > bound {
			t.Errorf("%s: peak RSS %d MB (%d MB before the file); want under %d MB", step.name, rss>>20, before>>20, bound>>20)
		}
		if step.name == "check" && !strings.Contains(out, "lib/huge.ts:1:1: error T1004: the file is 50.0 MB") {
			t.Errorf("check does not name the file's size:\n%s", out)
		}
		t.Logf("%s: peak RSS %d MB", step.name, rss>>20)
	}
}
