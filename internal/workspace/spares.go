package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Spares: a commit writes each new text into a file of .tent/tmp/ and
// puts it in place of its target. Creating that file, and freeing the
// target's old file when a rename replaces it, are the dearest steps of a
// commit on some filesystems (ext4 mounted with discard: about 1 ms of CPU
// a file, where truncating and writing an existing file costs a tenth of
// that). So where the platform can swap two names (exchangeAt: Linux's
// renameat2 with RENAME_EXCHANGE), the new text is swapped with its target
// and the journal name is left holding the old text: that file is kept in
// .tent/tmp/ as a spare, under a name of its own, and a later commit
// writes a new text into it instead of creating a file. No file is
// created and none freed once the pool holds enough spares.
//
// A spare is a regular file with one link, owned as a file the journal
// creates would be, and at most maxSpareSize bytes: a file with another
// link is never kept (writing into it would change the other name's
// text), and a spare found otherwise when taken (a link, a folder, a file
// linked since) is never opened for writing, only its name removed. The
// pool is bounded: at most maxSpares files, so at most
// maxSpares*maxSpareSize bytes; a file beyond the bound is removed.
//
// A spare holds the old text of a file some commit changed, until a commit
// reuses it: the history keeps those texts anyway (docs/pages/history.md).

const (
	// sparePrefix begins a spare's name in .tent/tmp/; a random hex
	// suffix of spareSuffix digits makes it its own.
	sparePrefix = "spare."
	spareSuffix = 16
	// maxSpares bounds the number of spares kept in .tent/tmp/.
	maxSpares = 2048
	// maxSpareSize is the largest file kept as a spare: with maxSpares,
	// the pool holds at most 64 MB.
	maxSpareSize = 32 << 10
)

// isSpareName reports whether name is a spare's name: sparePrefix and
// spareSuffix hex digits.
func isSpareName(name string) bool {
	suffix, ok := strings.CutPrefix(name, sparePrefix)
	if !ok || len(suffix) != spareSuffix {
		return false
	}
	for _, c := range suffix {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// newSpareName returns a new random spare name.
func newSpareName() (string, error) {
	var b [spareSuffix / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	return sparePrefix + hex.EncodeToString(b[:]), nil
}

// errNoExchange is exchangeAt's error where the platform cannot swap two
// names.
var errNoExchange = errors.New("exchanging two names is not supported here")

// exchangeUnsupported reports whether err says the platform or the
// filesystem cannot swap two names (no renameat2, or a filesystem that
// refuses RENAME_EXCHANGE: overlayfs, NFS, ...): the commit renames
// instead, and does not try again in this workspace.
func exchangeUnsupported(err error) bool {
	return errors.Is(err, errNoExchange) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) ||
		errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// sparePool is the spares of .tent/tmp/ (the folder dir) for one commit:
// the spares found there to write new texts into, and the count of files
// the pool holds, which the commit's kept files must not raise past
// maxSpares. Its methods may be called from several goroutines at once.
type sparePool struct {
	dir      *dirHandle
	uid, gid uint32 // the owner a file the journal creates gets
	mu       sync.Mutex
	free     []string // spares not taken yet
	count    int      // spares in the folder: those not taken, and those kept
}

// listSpares reads the spares of .tent/tmp/ (the folder dir); where the
// folder cannot be read, the pool starts empty (and the commit creates
// its files). The caller holds the write lock: no other process takes or
// keeps spares meanwhile.
func listSpares(dir *dirHandle) *sparePool {
	p := &sparePool{dir: dir, uid: uint32(os.Geteuid()), gid: uint32(os.Getegid())}
	var st unix.Stat_t
	if unix.Fstat(dir.fd(), &st) == nil && st.Mode&unix.S_ISGID != 0 {
		p.gid = st.Gid // a new file takes the folder's group
	}
	if _, err := dir.f.Seek(0, io.SeekStart); err != nil {
		return p
	}
	entries, err := dir.f.ReadDir(-1)
	if err != nil {
		return p
	}
	for _, e := range entries {
		if isSpareName(e.Name()) && e.Type().IsRegular() {
			p.free = append(p.free, e.Name())
		}
	}
	p.count = len(p.free)
	return p
}

// fits reports whether st is a file a new text may be written into, or
// that may be kept to be: a regular file with one link, owned as a file
// the journal creates.
func (p *sparePool) fits(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFREG && st.Nlink == 1 && st.Uid == p.uid && st.Gid == p.gid
}

// take returns a spare found in the pool, or "" where none is left; the
// spare leaves the pool (it becomes a journal text, or is removed).
func (p *sparePool) take() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		return ""
	}
	name := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	p.count--
	return name
}

// dropped counts a spare reserved and not kept after all.
func (p *sparePool) dropped() {
	p.mu.Lock()
	p.count--
	p.mu.Unlock()
}

// reserve counts one more spare in the folder, where the bound allows.
func (p *sparePool) reserve() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.count >= maxSpares {
		return false
	}
	p.count++
	return true
}

// open gives the journal name name (a name not in the folder) to a spare
// and opens it for writing: the spare is renamed to name, opened without
// following a link and without waiting (a fifo planted there must not
// block), and checked on the open file (fits, and no extended attribute
// but a security label, which a new file would not have). A spare that
// does not serve loses its name; the next is tried. It returns nil where
// no spare serves: the caller creates name.
//
// The file keeps its old text: the caller writes the new one over it from
// the start and then cuts it to its length (Truncate), which frees no
// block the new text fills again (where emptying it first freed them all
// and the write allocated them again: on a filesystem mounted with
// discard, as dear as creating the file).
func (p *sparePool) open(name string) *os.File {
	for {
		spare := p.take()
		if spare == "" {
			return nil
		}
		if err := unix.Renameat(p.dir.fd(), spare, p.dir.fd(), name); err != nil {
			continue // gone since the listing; no matter
		}
		if f := p.reuse(name); f != nil {
			return f
		}
		if err := unix.Unlinkat(p.dir.fd(), name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return nil // a folder there, planted: the create fails and says so
		}
	}
}

// reuse opens the file name of the pool's folder for writing, where it
// serves as a spare; else nil.
func (p *sparePool) reuse(name string) *os.File {
	fd, err := openat(p.dir.fd(), name, unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || !p.fits(&st) || hasAttrs(fd) {
		unix.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), p.dir.rel+"/"+name)
}

// splitAttrs splits a list of extended attributes' names.
func splitAttrs(list []byte) []string {
	var names []string
	for _, name := range strings.Split(string(list), "\x00") {
		if name != "" {
			names = append(names, name)
		}
	}
	return names
}

// keep keeps the file name of the pool's folder (a journal name that
// holds a replaced file's old text) as a spare, where it fits, is small
// enough and the bound allows; else removes the name.
func (p *sparePool) keep(name string) {
	var st unix.Stat_t
	if unix.Fstatat(p.dir.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && p.fits(&st) && st.Size <= maxSpareSize && p.reserve() {
		if spare, err := newSpareName(); err == nil && renameNoReplace(p.dir, name, spare) == nil {
			return
		}
		p.dropped()
	}
	p.dir.remove(name)
}

// clearSpares keeps the spares among the entries of .tent/tmp/ (the folder
// dir), up to maxSpares, and says which names are to be removed: every
// file that is not a spare (a text of a change that never recorded its
// point, a journal name a crash left after its point was done) and the
// spares beyond the bound. A link is never a spare, whatever its name.
func clearSpares(entries []os.DirEntry) (remove []string) {
	spares := 0
	for _, e := range entries {
		if isSpareName(e.Name()) && e.Type().IsRegular() && spares < maxSpares {
			spares++
			continue
		}
		remove = append(remove, e.Name())
	}
	return remove
}

// exchange swaps two files (exchangeAt); a test makes it fail as a
// filesystem that refuses would.
var exchange = exchangeAt
