package definitions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/parser"
)

// Build indexes the project at root: walks it (skipping .tent/, .git/,
// node_modules/, dist/, what .gitignore names, and tent.d.ts,
// tent.clash.ts, mcp.lock.json), and reads, parses and indexes the .ts and
// .tsx files and testdata/*.json in parallel. Unreadable files become
// findings, never errors. The error is a *diag.ToolError (T9103) for a
// root that is not a folder, or the context's error when it is done.
//
// Files are read through an os.Root, so a link that leads out of the
// project is never followed. The index keeps every syntax tree (see
// Options and BuildWith).
func Build(ctx context.Context, root string) (*Index, error) {
	return BuildWith(ctx, root, Options{})
}

// Options say how Build and FromFiles index.
type Options struct {
	// DropTrees frees each file's syntax tree as soon as the file is
	// read: File.Tree is nil. On a large project the trees are most of
	// the index's memory (300 MB and more on 1,000 tables), and growing
	// the C heap for them a quarter of a build's CPU time. What walks a
	// tree (rename, remove) parses the few files it needs
	// (File.SyntaxTree), and an Update of such a file parses it whole
	// and keeps its new tree, so that only the files that change one at
	// a time (an editor's buffers) keep trees for incremental parsing.
	// A file read again from a File that kept its tree keeps the new
	// one. UpdateFiles of many files drops the new trees so: a rename's
	// plan or a checkout of thousands of files would otherwise keep a
	// tree of each (400 MB of C memory after a few plans of the hub
	// table's rename on 5,000 tables, which Go's collector does not
	// see). A file over 256 KB keeps none either way (maxTreeKept).
	DropTrees bool
	// CacheRecords has each file's index cache record (SaveCache)
	// encoded by the worker that read the file, as soon as it is read,
	// so that a save after the build copies the records instead of
	// encoding every file after the build on one goroutine (on 1,000
	// tables that encoding was most of what a check with no .tent/
	// waited for at its end). The index keeps each record (about twice
	// the file's text) as it keeps those of a loaded cache.
	CacheRecords bool
	// ReadBack, with CacheRecords, keeps each file as read back from the
	// record just made of it, as LoadCache reads a record: its names and
	// texts point into the record and its field trees come from slabs,
	// so the parse's own allocations are garbage at once. It is for a
	// process that keeps the index for long (the language server): on
	// 5,000 tables the live heap after the open is 271 MB instead of
	// 302 MB, for 6-8% more build CPU, which a one-shot command does not
	// pay (it is off there).
	ReadBack bool
	// Lazy leaves out of each file what only rename, references and the
	// map read, and a one-shot check never does: its IdentRefs and code
	// words (about half of the reading of its code, and most of its
	// cache record). They are read from the file's text (parsed again)
	// the first time they are asked for, and its cache record marks them
	// as not read, so that a later process reads them so too
	// (cache_code.go). The index answers the same either way.
	Lazy bool
	// FileRead, where set, is called once for each file the build has
	// read and indexed, from several goroutines at once: a count of the
	// work done, for a progress line.
	FileRead func()
	// Walked, where set, is a walk of the project the caller made just
	// before (a workspace's stat walk, which stamps every file for its
	// caches): BuildWith reads its files instead of walking the folder
	// again (every folder listed a second time, each one's .gitignore
	// looked for, each entry asked of the .gitignore rules).
	Walked *Walked
}

// Walked is a walk of the project for Options.Walked: the files it found
// that the build may index, each with whether it is a link, and the texts
// of the .gitignore files it followed, by the folder each stands in (""
// for the root). It leaves out what Build's own walk does (the folders no
// walk enters, what the .gitignore files name, what is neither a regular
// file nor a link); the build leaves out the files it does not index.
type Walked struct {
	Files   []WalkedFile
	Ignores map[string][]byte
}

// WalkedFile is one file of a Walked.
type WalkedFile struct {
	Path string
	Link bool
}

// BuildWith is Build with opts.
func BuildWith(ctx context.Context, root string, opts Options) (*Index, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, diag.Errorf(diag.T9103, "project folder %s: %v", root, errors.Unwrap(err))
	}
	if !info.IsDir() {
		return nil, diag.Errorf(diag.T9103, "%s is not a folder", root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, diag.Errorf(diag.T9103, "open project folder %s: %v", root, err)
	}
	defer r.Close()
	ign := &ignoreSet{}
	fr := newFolderReader(r)
	defer fr.close()
	read := func(w *worker, p string, link bool) *File {
		f := w.readFile(ctx, r, fr, p, link)
		if opts.FileRead != nil {
			opts.FileRead()
		}
		return f
	}
	var files []*File
	var walkErr error
	if wk := opts.Walked; wk != nil {
		// A walk made already is handed out by an index the workers
		// take turns at, not by a goroutine feeding a channel: while
		// the workers parse, nothing else is runnable, so no parse's
		// cgo call has its P handed to a goroutine woken for each file
		// (on 10,000 tables the feeder's wake-ups, the threads started
		// for it and the scheduler's work for them took about as much
		// CPU as the floor's whole runtime).
		for dir, src := range wk.Ignores {
			ign.add(dir, src)
		}
		var next atomic.Int64
		files = runWorkers(ctx, opts, func(w *worker) (out []*File) {
			for i := int(next.Add(1) - 1); i < len(wk.Files) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if f := wk.Files[i]; langIndexed(f.Path) {
					out = append(out, read(w, f.Path, f.Link))
				}
			}
			return out
		})
	} else {
		// The walk hands each file to the workers as it meets it, so
		// that parsing starts with the first file rather than after the
		// last folder is listed.
		type found struct {
			path string
			link bool
		}
		todo := make(chan found, 256)
		go func() {
			defer close(todo)
			walkErr = walkProject(ctx, r, ign, func(p string, link bool) { todo <- found{p, link} })
		}()
		files = runWorkers(ctx, opts, func(w *worker) (out []*File) {
			for t := range todo {
				if ctx.Err() != nil {
					continue // let the walk end
				}
				out = append(out, read(w, t.path, t.link))
			}
			return out
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil {
		return nil, diag.Errorf(diag.T9103, "list project folder %s: %v", root, walkErr)
	}
	return newIndex(files, ign), nil
}

// langIndexed reports whether the build indexes a file at p by its name.
func langIndexed(p string) bool {
	_, ok := langOf(p)
	return ok
}

// readFile reads and indexes the project file p, a link where link is
// set. A file that cannot be read is a File with a T1003 finding.
func (w *worker) readFile(ctx context.Context, r *os.Root, fr *folderReader, p string, link bool) *File {
	read := fr.readIndexed
	if link {
		// A link is read only where it leads to a regular file in the
		// project: a pipe or a device would block the read.
		info, err := r.Stat(p)
		if err == nil && !info.Mode().IsRegular() {
			err = errors.New("the link leads to no regular file")
		}
		if err != nil {
			return unreadableFile(p, err)
		}
		read = func(p string) ([]byte, error) { return rootReadIndexed(r, p) }
	}
	src, err := read(p)
	if err != nil {
		return unreadableFile(p, err)
	}
	return w.indexFile(ctx, p, src, nil)
}

// FromFiles builds an index from in-memory files (slash-separated path
// relative to the root -> text), for tests and benchmarks. Paths are
// filtered as Build filters them, .gitignore files among them included.
// The index keeps the texts: the caller must not change them afterwards.
// It keeps every syntax tree (see FromFilesWith).
func FromFiles(ctx context.Context, files map[string][]byte) *Index {
	return FromFilesWith(ctx, files, Options{})
}

// FromFilesWith is FromFiles with opts.
func FromFilesWith(ctx context.Context, files map[string][]byte, opts Options) *Index {
	ign := &ignoreSet{}
	for p, src := range files {
		if p = cleanPath(p); path.Base(p) == ".gitignore" {
			dir := path.Dir(p)
			if dir == "." {
				dir = ""
			}
			ign.add(dir, src)
		}
	}
	type entry struct {
		path string
		src  []byte
	}
	var todo []entry
	for p, src := range files {
		p = cleanPath(p)
		if _, ok := langOf(p); ok && p != "" && !ign.ignored(p, false) {
			todo = append(todo, entry{p, src})
		}
	}
	var next atomic.Int64
	out := runWorkers(ctx, opts, func(w *worker) (out []*File) {
		for i := int(next.Add(1) - 1); i < len(todo); i = int(next.Add(1) - 1) {
			out = append(out, w.indexFile(ctx, todo[i].path, todo[i].src, nil))
		}
		return out
	})
	return newIndex(out, ign)
}

// cleanPath makes a project path canonical: slash-separated, no "./".
// An absolute path, or one that leaves the root, gives "".
func cleanPath(p string) string {
	if p == "" || path.IsAbs(p) {
		return ""
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// unreadableFile is the File of a path that could not be read.
func unreadableFile(p string, err error) *File {
	if tl, ok := tooLarge(err); ok {
		return oversizeFile(p, tl.Size)
	}
	lang, _ := langOf(p)
	f := &File{Path: p, Lang: lang, lines: []int{0}}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	f.Findings = append(f.Findings, f.Finding(diag.T1003, diag.Error, fmt.Sprintf("the file cannot be read: %v", err), Span{}))
	return f
}

// worker is what one indexing goroutine keeps from file to file: the
// buffer that flatten copies each syntax tree into and the scratch lists
// of readWords, so that a Build allocates them a few times rather than
// once per file.
type worker struct {
	nodes []snode
	words wordScratch
	// rows is the test data scanner's scratch (see rowScratch).
	rows rowScratch
	// blocks, where set, are the blocks that the declarations of every
	// file the worker reads are allocated from, rather than blocks of
	// each file's own: in a build whose parsed files are garbage once
	// read back (Options.ReadBack) or live until the process ends (a
	// one-shot check's, Options.Lazy). Blocks of a file's own are half
	// empty on average: on 10,000 tables 66 MB of room never used, in
	// a cold check memory fresh from the system. Elsewhere a file's
	// values keep no other file's alive once it is replaced.
	blocks *valueBlocks
	// dropTrees frees each syntax tree once the file is read (see
	// Options.DropTrees).
	dropTrees bool
	// lazy leaves each file's IdentRefs and words to be read on first
	// use (see Options.Lazy).
	lazy bool
	// records encodes each file's cache record once it is read (see
	// Options.CacheRecords).
	records bool
	// recordEnc is the scratch that records are encoded into before
	// each is copied out at its size, and wordsEnc the one that a file's
	// words are encoded into to be found in its record.
	recordEnc, wordsEnc encoder
	// readBack keeps each file as read back from its record (see
	// Options.ReadBack), by dec, with its slabs.
	readBack bool
	dec      decoder
	// pending are the files parsed whose records are to be read back
	// once all files are parsed (see runWorkers).
	pending []*File
	// chunk is where the records of a worker that reads files back are
	// kept (see keep).
	chunk []byte
}

// runWorkers runs work on GOMAXPROCS goroutines, each with its own worker
// (which keeps no trees where opts say so), and returns the files they
// all return. A few long-lived goroutines, rather than one per file,
// keep the stacks that the recursive readers grow, and no file waits for
// a goroutine to start.
func runWorkers(ctx context.Context, opts Options, work func(w *worker) []*File) []*File {
	n := runtime.GOMAXPROCS(0)
	out := make([][]*File, n)
	var wg sync.WaitGroup
	ws := make([]*worker, n)
	for i := range n {
		ws[i] = &worker{dropTrees: opts.DropTrees, records: opts.CacheRecords, readBack: opts.ReadBack, lazy: opts.Lazy}
		if opts.ReadBack || opts.Lazy {
			ws[i].blocks = &valueBlocks{}
		}
		wg.Go(func() { out[i] = work(ws[i]) })
	}
	wg.Wait()
	// The files to read back from their records are read once all are
	// parsed: what the index keeps of them is then allocated together,
	// as a cache's load allocates it, not among the parses' garbage.
	for _, w := range ws {
		if len(w.pending) > 0 {
			wg.Go(func() { w.readBackPending(ctx) })
		}
	}
	wg.Wait()
	return slices.Concat(out...)
}

// indexFile reads one file: its definitions and code (TypeScript), or its
// rows (test data). old is the file's previous version, whose tree the
// parse starts from, or nil. A cancelled ctx gives a file without tree or
// definitions.
func (w *worker) indexFile(ctx context.Context, p string, src []byte, old *File) *File {
	if len(src) > MaxIndexed {
		return oversizeFile(p, int64(len(src)))
	}
	lang, _ := langOf(p)
	f := &File{Path: p, Lang: lang, Src: src}
	if w.lazy {
		f.lateLines = &lateLines{}
	} else {
		f.lines = LineStarts(src)
	}
	body := src
	if len(body) >= 3 && string(body[:3]) == "\ufeff" {
		body = body[3:]
	}
	if why, at, ok := notText(body); !ok {
		at += len(src) - len(body)
		f.Findings = append(f.Findings, f.Finding(diag.T1003, diag.Error, "the file is "+why+"; it is left out of the index", Span{at, min(at+1, len(src))}))
		return f
	}
	if lang == LangJSON {
		readTestData(f, &w.rows)
		w.record(f)
		return f
	}
	var tree *sitter.Tree
	var errs []parser.SyntaxError
	if old != nil && old.Tree != nil && old.Src != nil {
		tree, errs = parser.Reparse(ctx, p, old.Tree, old.Src, src)
	} else {
		tree, errs = parser.Parse(ctx, p, src)
	}
	if tree == nil {
		return f
	}
	f.Tree = tree
	for _, e := range errs {
		f.Findings = append(f.Findings, f.Finding(diag.T1001, diag.Error, e.Message, Span{e.Start, e.End}))
	}
	// The tree is flattened once (one cgo call) and both readers run on
	// the flat copy. RootNode caches one node in the tree the file keeps;
	// nothing else of the tree is touched, and no other goroutine has it yet.
	// The flat tree lives in the worker's buffer: nothing the readers
	// make keeps a reference to it.
	st := flattenInto(w.nodes, tree.RootNode(), src, lang)
	w.nodes, st.words = st.nodes[:0], &w.words
	// A lazy build's file keeps its text as read, never changed, so the
	// strings read of it may share it (stree.share).
	st.share = w.lazy
	readDefinitions(f, st, errs, w.blocks)
	analyzeCode(f, st, w.lazy)
	if (w.dropTrees && (old == nil || old.Tree == nil)) || len(src) > maxTreeKept {
		f.Tree = nil
		tree.Close()
	}
	w.record(f)
	return f
}

// record encodes f's cache record where the worker makes records (see
// Options.CacheRecords). The File is whole: nothing changes it after but
// what it keeps of itself: the record holds the file's text and its code
// words byte for byte, so the File keeps those in the record instead of
// beside it (see shareRecord).
func (w *worker) record(f *File) {
	if !w.records {
		return
	}
	e := &w.recordEnc
	e.buf = e.buf[:0]
	// A record read back (below) holds its text; any other is kept
	// beside it (File.recordAt), so that no text is copied into it.
	e.splitText = !w.readBack
	e.file(f)
	if !w.readBack {
		f.record, f.recordAt = slices.Clone(e.buf), e.textAt
	} else {
		f.record = w.keep(e.buf)
		if d := (decoder{data: f.record}); d.str() != "" && d.uint() != recordText {
			// Read back once all files are parsed (readBackPending);
			// till then the File holds what that needs.
			*f = File{Path: f.Path, Src: f.Src, Tree: f.Tree, record: f.record}
			w.pending = append(w.pending, f)
			return
		}
	}
	w.shareRecord(f)
}

// recordChunk is how much a worker that reads files back (readBack)
// allocates at once for the records it keeps; a record over a quarter of
// it gets its own.
const recordChunk = 1 << 20

// keep returns a copy of record, capped at its length. A worker that reads
// files back copies its records into chunks of its own (recordChunk), as
// a loaded cache keeps them in one block: so the records the index keeps
// do not lie scattered among the parse's garbage of the same sizes, which
// the heap cannot give back while a record sits in its page.
func (w *worker) keep(record []byte) []byte {
	n := len(record)
	if n > recordChunk/4 {
		return slices.Clone(record)
	}
	if cap(w.chunk)-len(w.chunk) < n {
		w.chunk = make([]byte, 0, recordChunk)
	}
	at := len(w.chunk)
	w.chunk = append(w.chunk, record...)
	return w.chunk[at : at+n : at+n]
}

// readBackPending reads each file of w.pending back from its record (see
// Options.ReadBack), keeping the tree it has. A record that does not read
// back whole (a bug) has its file parsed again from its text, without a
// record (a save encodes it).
func (w *worker) readBackPending(ctx context.Context) {
	for _, f := range w.pending {
		nf := w.fromRecord(f.record)
		if nf == nil {
			nf = (&worker{dropTrees: true}).indexFile(ctx, f.Path, f.Src, nil)
		}
		nf.Tree = f.Tree
		*f = *nf
	}
	w.pending = nil
}

// fromRecord reads a file back from the record just made of it, as
// LoadCache reads a record: its names and texts point into the record,
// its field trees come from the decoder's slabs. So the File that the
// index keeps is the one a later process loads from the cache, and what
// the parse allocated is garbage at once: on 5,000 tables the live heap
// after the open is 271 MB instead of 302 MB. It is nil where the record
// holds the file as its text alone (then shareRecord keeps the text and
// the words in the record), or where the record does not read back whole
// (a bug: the parsed File is kept).
func (w *worker) fromRecord(record []byte) (f *File) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	d := &w.dec
	d.data, d.off = record, 0
	nf, text := d.file()
	if text || d.off != len(record) {
		return nil
	}
	nf.record = record
	return nf
}

// shareRecord has f keep its text (File.Src) and its code words in its
// record rather than in copies of their own, as a file loaded from the
// cache keeps them: the text is found in the record by its bytes, and the
// words, encoded as the record encodes them, by theirs; each is the same
// bytes, so it reads the same. Where the record holds the file as its
// text alone (a word kept under another: encoder.odd), the words stay as
// read. On 5,000 tables the read buffers of the texts are 20 MB and the
// words' maps 58 MB, beside 50 MB of records. A record kept beside its
// text (File.recordAt) leaves the text where it was read.
func (w *worker) shareRecord(f *File) {
	if n := len(f.Src); n > 0 && f.recordAt == 0 {
		if i := bytes.Index(f.record, f.Src); i >= 0 {
			f.Src = f.record[i : i+n : i+n]
		}
	}
	if len(f.words) == 0 {
		return
	}
	e := &w.wordsEnc
	e.buf = e.buf[:0]
	e.words(f)
	if e.odd {
		e.odd = false
		return
	}
	i := bytes.Index(f.record, e.buf)
	if i < 0 {
		return
	}
	// e.buf is the part's length, then the part.
	d := &decoder{data: e.buf}
	n := d.uint()
	end := i + len(e.buf)
	f.stored, f.words = &storedWords{data: f.record[end-n : end : end]}, nil
}

// maxTreeKept is the largest file whose syntax tree the index keeps
// (where it keeps trees at all). A tree takes about 170 bytes per byte of
// text, and it only makes the next parse of the file incremental: a larger
// file is parsed whole when it changes (File.SyntaxTree parses it where a
// tree is walked), so that what the index keeps of a file is a small
// multiple of its text, one line or many (BenchmarkLargeFileMemory).
const maxTreeKept = 256 << 10
