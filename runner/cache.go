package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/runner/jslib"
)

// cacheVersion changes when the shape of a cached bundle or the way it is
// built changes; with the shipped JavaScript's hash it keys the disk cache.
const cacheVersion = "1"

// compiled is a bundle with its program, compiled once and shared by every
// run (a goja.Program is bound to no runtime).
type compiled struct {
	bundle *bundle
	prog   *goja.Program
	// checked is the snapshot it was last found fresh in (an index, or
	// the host's number for one, in a worker): where every input is a file
	// that snapshot holds, or a shipped module, its inputs cannot have
	// changed and need no hashing again.
	checked any
}

// snapshotSource is a Source that reads an immutable snapshot of the
// project's files: within one snapshot, a bundle found fresh stays fresh.
type snapshotSource interface {
	Source
	// snapshot is the snapshot's identity, nil where the source reads the
	// folder as it is now.
	snapshot() any
	// holds reports whether the snapshot holds the project file p.
	holds(p string) bool
}

// bundleCache keeps bundled and compiled entry files in memory, and the
// bundles on disk under .tent/cache/, so that neither a second run in the
// same process nor a run in a new process of an unchanged project
// transpiles anything. An entry is used only while every input it was
// built from still has the same content hash.
type bundleCache struct {
	dir string // "" keeps nothing on disk
	// held, where set, opens the .tent folder that dir is in, held open
	// (Config.StateDir): the cache is then read and written through it.
	held func() (*os.File, error)

	mu  sync.Mutex
	mem map[string]*compiled

	// builds counts esbuild runs, so tests can see that a warm cache built nothing.
	builds atomic.Int64
}

func newBundleCache(dir string) *bundleCache {
	return &bundleCache{dir: dir, mem: map[string]*compiled{}}
}

// get answers the compiled bundle of entry as src has it now; where src
// reads a snapshot, a bundle checked in that snapshot skips the check.
func (c *bundleCache) get(src Source, entry string) (*compiled, error) {
	var snap any
	ss, _ := src.(snapshotSource)
	if ss != nil {
		snap = ss.snapshot()
	}
	c.mu.Lock()
	hit := c.mem[entry]
	checked := hit != nil && snap != nil && hit.checked == snap
	c.mu.Unlock()
	if checked {
		return hit, nil
	}
	if hit != nil && hit.bundle.fresh(src) {
		if snap != nil && hit.bundle.heldBy(ss) {
			c.mu.Lock()
			hit.checked = snap
			c.mu.Unlock()
		}
		return hit, nil
	}
	b := c.load(entry)
	if b == nil || !b.fresh(src) {
		c.builds.Add(1)
		var err error
		if b, err = buildBundle(src, entry); err != nil {
			return nil, err
		}
		c.store(b)
	}
	prog, err := goja.Compile("/bundle.js", b.Code, false)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", entry, err)
	}
	out := &compiled{bundle: b, prog: prog}
	c.mu.Lock()
	c.mem[entry] = out
	c.mu.Unlock()
	return out, nil
}

// diskEntry is a bundle as the disk cache keeps it.
type diskEntry struct {
	Version string  `json:"version"`
	Bundle  *bundle `json:"bundle"`
}

// file is where the disk cache keeps the bundle of entry.
func (c *bundleCache) file(entry string) string {
	return filepath.Join(c.dir, "bundle-"+hashBytes([]byte(entry))+".json")
}

func (c *bundleCache) version() string { return cacheVersion + "-" + jslib.Hash }

// load reads entry's bundle from disk; nil where there is none, or it is
// of another version.
func (c *bundleCache) load(entry string) *bundle {
	if c.dir == "" {
		return nil
	}
	data, err := c.read(filepath.Base(c.file(entry)))
	if err != nil {
		return nil
	}
	var d diskEntry
	if json.Unmarshal(data, &d) != nil || d.Version != c.version() || d.Bundle == nil || d.Bundle.Entry != entry {
		return nil
	}
	return d.Bundle
}

// store writes b to the disk cache, atomically. The cache only saves time,
// so a failure to write it is no failure of the run.
func (c *bundleCache) store(b *bundle) {
	if c.dir == "" {
		return
	}
	data, err := json.Marshal(diskEntry{Version: c.version(), Bundle: b})
	if err != nil {
		return
	}
	c.write(filepath.Base(c.file(b.Entry)), data)
}
