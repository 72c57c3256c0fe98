package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sort"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
	"golang.org/x/sys/unix"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/words"
)

// Apply is the entry of the change pipeline for a refactor's change set
// (rename, remove, move); edit, write and undo enter it through their
// stage (CommitStage). Every change of a project file reaches the disk this
// way, whole or not at all:
//
//  1. Stage: every path is resolved for writing (T9105 for a refused one),
//     every file to change is read again and must still hold the text the
//     plan was made from, a file moved to a new path must not overwrite
//     one, and the new texts are computed in memory.
//  2. Read again: the changed files are read as the index reads them (an
//     update of the index snapshot). A refactor that would leave a file
//     with a syntax error (or test data that is no JSON) it did not have
//     is refused with that finding's code (T1001, T1002).
//  3. Diff: what the change does to the definitions (package defchange:
//     add, change, rename, remove per kind, with field paths), and to the
//     files (add, change, rename, remove of kind file).
//  4. Judge: the agent's policy holds the paths and the changes (Judge);
//     a refusal is T9105 with the rule. Where ask names them, the person
//     is asked (the approver); a no is T3103.
//  5. Commit through the journal (commitFiles): the new texts are written
//     and synced in .tent/tmp/, the point is recorded as not done with the
//     contents undo needs, the files are renamed into place, and the point
//     is marked done. A crash at any instant leaves every file old (the
//     point was not recorded) or lets the next call finish the point.
//
// Refusals write nothing: every file stays byte for byte as it was. ix is
// the index the set was planned on. Apply answers the number of the point
// recorded (0 where the set changes nothing).
//
// A view that Enter made for a tool that writes holds the write lock;
// Apply called by itself takes it.
func (w *Workspace) Apply(ctx context.Context, ix *definitions.Index, s *change.Set) (int, error) {
	if err := s.Validate(); err != nil {
		return 0, fmt.Errorf("apply: %w", err)
	}
	if err := w.refuseDirty(setPaths(s)); err != nil {
		return 0, err
	}
	st, err := w.stageSet(s)
	if err != nil {
		return 0, err
	}
	st.readAhead = s.ReadAhead
	return w.CommitStage(ctx, ix, st)
}

// Stage is a change held in memory, before it is judged and written
// (CommitStage): the files a tool that writes texts itself (edit, write,
// undo) puts and deletes, and what its point records. A refactor's
// change set is staged by Apply.
type Stage struct {
	// Summary is the point's summary ("edit lib/money.ts").
	Summary string
	// Kind is the point's kind (history.KindCommand where empty).
	Kind string
	// Undid lists, for an undo, the points it puts back.
	Undid []int
	// RecordEmpty records a point even where no file changes: an undo
	// of a change whose files are already back is still an undo.
	RecordEmpty bool
	// PruneFolders removes the folders its deletions leave empty: an
	// undo takes away the folders the change it undoes made (a move into
	// a new folder).
	PruneFolders bool

	files   []*stagedFile
	moves   []fileMove        // files moved, for their rename:file change
	renames defchange.Renames // what a refactor renamed on purpose
	// readable refuses a change that leaves a file with a new T1xxx
	// finding. Refactors set it; an edit may pass through a broken state.
	readable bool
	// readAhead is what the planner of a refactor's set read of its new
	// texts on the index the set was planned on (see reread).
	readAhead *change.ReadAhead
}

// fileMove is a file moved from one path to another.
type fileMove struct{ from, to string }

// stagedFile is one file of a stage: its resolved path, what it held and
// what it will hold.
type stagedFile struct {
	rel     string
	existed bool
	old     []byte
	mode    fs.FileMode
	gone    bool   // the change deletes it
	data    []byte // its new text, where not gone
	from    string // the path its text comes from, where it moves here
	tmp     string // its new text in .tent/tmp/, once written
	stamp   history.FileState
	// edits are the set's edits that make data of old, where the stage
	// comes from a change set and the file stays at its path (see
	// readPlanned).
	edits []change.Edit
}

// put stages a file's new text.
func (st *Stage) put(rel string, old []byte, existed bool, mode fs.FileMode, data []byte) *stagedFile {
	f := &stagedFile{rel: rel, existed: existed, old: old, mode: mode, data: data}
	st.files = append(st.files, f)
	return f
}

// delete stages a file's deletion.
func (st *Stage) delete(rel string, old []byte, mode fs.FileMode) {
	st.files = append(st.files, &stagedFile{rel: rel, existed: true, old: old, mode: mode, gone: true})
}

// Put stages the new text data of the file rel (a path Resolve accepted
// for a write), which held old with the mode where it existed.
func (st *Stage) Put(rel string, old []byte, existed bool, mode fs.FileMode, data []byte) {
	st.put(rel, old, existed, mode, data)
}

// Delete stages the deletion of the file rel, which holds old.
func (st *Stage) Delete(rel string, old []byte, mode fs.FileMode) {
	st.delete(rel, old, mode)
}

// stageSet resolves and reads everything a change set touches and stages
// its new texts, from the files on the disk: a file that changed since the
// set was planned refuses it. Nothing is written.
func (w *Workspace) stageSet(s *change.Set) (*Stage, error) {
	return w.stageFrom(s, func(rel string, f *change.FileEdit) ([]byte, fs.FileMode, error) {
		old, mode, err := w.Current(rel)
		if err != nil {
			return nil, 0, err
		}
		if f != nil && !bytes.Equal(old, f.Base) {
			return nil, 0, fmt.Errorf("%s changed on the disk since it was read; nothing was written, try again", f.Path)
		}
		return old, mode, nil
	})
}

// stageFrom stages a change set's new texts: each file's edits applied,
// its move and the deletions, each path through the resolver. base answers
// the text a path holds before the change and its mode; f is the file's
// edit, nil for a deletion. Nothing is written.
func (w *Workspace) stageFrom(s *change.Set, base func(rel string, f *change.FileEdit) ([]byte, fs.FileMode, error)) (*Stage, error) {
	st := &Stage{Summary: setSummary(s), readable: true, renames: defchange.Renames(maps.Clone(s.Renamed))}
	for _, f := range s.Files {
		src, err := w.Resolve(f.Path, true)
		if err != nil {
			return nil, err
		}
		if f.New {
			if _, err := w.fsys.Lstat(src); err == nil {
				return nil, diag.Errorf(diag.T9107, "%s already exists; the change would make it anew", f.Path).With("path", f.Path)
			}
			text, err := f.Result()
			if err != nil {
				return nil, fmt.Errorf("apply: %w", err)
			}
			st.put(src, nil, false, 0o644, text)
			continue
		}
		old, mode, err := base(src, f)
		if err != nil {
			return nil, err
		}
		text, err := f.Result()
		if err != nil {
			return nil, fmt.Errorf("apply: %w", err)
		}
		if f.To == "" || f.To == f.Path {
			sf := st.put(src, old, true, mode, text)
			if bytes.Equal(old, f.Base) {
				sf.edits = f.Edits
			}
			continue
		}
		dst, err := w.Resolve(f.To, true)
		if err != nil {
			return nil, err
		}
		if _, err := w.fsys.Lstat(dst); err == nil && !movesAway(s, dst) {
			return nil, diag.Errorf(diag.T9107, "%s already exists; moving %s there would overwrite it", f.To, f.Path).With("path", f.To)
		}
		st.put(dst, nil, false, mode, text).from = src
		st.delete(src, old, mode)
		st.moves = append(st.moves, fileMove{from: src, to: dst})
	}
	for _, d := range s.Deletes {
		rel, err := w.Resolve(d, true)
		if err != nil {
			return nil, err
		}
		old, mode, err := base(rel, nil)
		if err != nil {
			return nil, err
		}
		st.delete(rel, old, mode)
	}
	return st, nil
}

// setPaths lists every path a change set writes, moves or deletes.
func setPaths(s *change.Set) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.Path)
		if f.To != "" && f.To != f.Path {
			out = append(out, f.To)
		}
	}
	return append(out, s.Deletes...)
}

// movesAway reports whether the set moves the file at p away.
func movesAway(s *change.Set, p string) bool {
	for _, f := range s.Files {
		if f.Path == p && f.To != "" && f.To != p {
			return true
		}
	}
	return false
}

// setSummary is a change set's one line for its point.
func setSummary(s *change.Set) string {
	switch {
	case (s.Action == change.ActionRename || s.Action == change.ActionMove) && s.To != "":
		return fmt.Sprintf("%s %s to %s", s.Action, s.Target, s.To)
	case s.Action != "" && s.Target != "":
		return string(s.Action) + " " + s.Target
	}
	return "apply a change"
}

// Current reads a file about to change (its resolved path), with its mode.
func (w *Workspace) Current(rel string) ([]byte, fs.FileMode, error) {
	data, info, err := w.ReadFile(rel, MaxFile, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s, larger than a refactor changes", rel, words.Bytes(n)).With("path", rel)
	})
	if err != nil {
		return nil, 0, err
	}
	return data, info.Mode().Perm(), nil
}

// CommitStage runs a stage through the pipeline (see Apply) and returns
// the point it recorded, 0 where it changes nothing.
func (w *Workspace) CommitStage(ctx context.Context, ix *definitions.Index, st *Stage) (int, error) {
	if !w.settled {
		unlock, err := w.lockWrite()
		if err != nil {
			return 0, err
		}
		defer unlock()
		// Settled on a view of its own: w may be shared by other callers.
		v := &Workspace{folder: w.folder, opts: w.opts, tool: w.tool}
		if err := v.settle(ctx); err != nil {
			return 0, err
		}
	}
	st.dropUnchanged()
	if err := w.refuseDirty(st.Paths()); err != nil {
		return 0, err
	}
	if err := st.checkSizes(); err != nil {
		return 0, err
	}
	if len(st.files) == 0 {
		if st.RecordEmpty {
			return w.commitFiles(ctx, st, nil)
		}
		return 0, nil
	}
	if ix == nil {
		// The snapshot the workspace holds, if any: an edit needs no
		// index of the whole project, only its own files read again.
		ix = w.index.current()
	}
	next, before, after := reread(ctx, ix, st, w.walkRules())
	if st.readable {
		if err := checkReadable(st, before, after); err != nil {
			return 0, err
		}
	}
	changes := defchange.Diff(before, after, st.renames)
	changes = append(changes, st.fileChanges()...)
	hidden, err := w.hiddenByIgnore(ctx, ix, st)
	if err != nil {
		return 0, err
	}
	changes = append(changes, hidden...)
	ask, err := w.opts.Policy.Judge(st.Paths(), changes)
	if err != nil {
		return 0, err
	}
	if err := w.approve(ctx, st.Summary, ask); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n, err := w.commitFiles(ctx, st, changes)
	if err != nil {
		return 0, err
	}
	w.index.committed(w, ix, next, st)
	if st.PruneFolders {
		w.pruneFolders(st)
	}
	return n, nil
}

// pruneFolders removes the folders that the stage's deletions left empty,
// from the deepest up to the first that still holds something (never the
// root), after the change is committed: the files are the change, the
// folders only hold them, so a failure here leaves an empty folder and
// no error. The kernel's rmdir removes only an empty folder, so a file
// written there meanwhile keeps it.
func (w *Workspace) pruneFolders(st *Stage) {
	tried := map[string]bool{}
	for _, f := range st.files {
		if !f.gone {
			continue
		}
		for dir := path.Dir(f.rel); dir != "." && !tried[dir]; dir = path.Dir(dir) {
			tried[dir] = true
			parent, name := splitRel(dir)
			d, err := w.openDir(parent, false)
			if err != nil {
				break
			}
			err = unix.Unlinkat(d.fd(), name, unix.AT_REMOVEDIR)
			d.Close()
			if err != nil {
				break // not empty (or gone): the folders above hold it
			}
		}
	}
}

// hiddenByIgnore is what a stage's change of a .gitignore does to the
// definitions: the ones it would leave out of the index are removed, and
// the policy judges them so (remove:table ...), as it would judge deleting
// their files. Otherwise a .gitignore naming tables/orders.ts would be a
// way around a policy that denies remove:*.
func (w *Workspace) hiddenByIgnore(ctx context.Context, ix *definitions.Index, st *Stage) ([]defchange.DefChange, error) {
	after := newIgnores(w)
	changed := false
	for _, f := range st.files {
		if path.Base(f.rel) != ".gitignore" {
			continue
		}
		changed = true
		var gi *ignore.GitIgnore
		if !f.gone {
			gi = ignore.CompileIgnoreLines(strings.Split(string(f.data), "\n")...)
		}
		after.files[dirOf(f.rel)] = gi
	}
	if !changed {
		return nil, nil
	}
	if ix == nil {
		var err error
		if ix, err = w.Index(ctx); err != nil {
			return nil, err
		}
	}
	var out []defchange.DefChange
	for _, d := range ix.Definitions() {
		if d.Name != "" && after.ignored(d.Path, false) {
			out = append(out, defchange.DefChange{Definition: d.Name, Kind: defchange.KindOf(d.Kind), Action: defchange.Remove, Fields: []defchange.Field{}})
		}
	}
	return out, nil
}

// checkSizes refuses (T9104) a stage of edit, write or undo that leaves a
// file's text over MaxText and larger than it was: what a tool writes is
// bounded as what it reads whole, so that no call can grow a file past
// what the index and the answers are made for. A refactor (readable set)
// may change files up to MaxFile, the most it reads; it does not make
// them much larger.
func (st *Stage) checkSizes() error {
	if st.readable {
		return nil
	}
	for _, f := range st.files {
		if !f.gone && len(f.data) > MaxText && len(f.data) > len(f.old) {
			return diag.Errorf(diag.T9104, "the change would make %s %s; a tool writes files of up to %s (nothing was written)",
				f.rel, words.Bytes(int64(len(f.data))), words.Bytes(MaxText)).With("path", f.rel).With("size", len(f.data))
		}
	}
	return nil
}

// dropUnchanged leaves out the files a stage writes as they are, and
// sorts the rest by path.
func (st *Stage) dropUnchanged() {
	var keep []*stagedFile
	for _, f := range st.files {
		if f.existed && !f.gone && f.from == "" && bytes.Equal(f.old, f.data) {
			continue
		}
		keep = append(keep, f)
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].rel < keep[j].rel })
	st.files = keep
}

// Renamed says that the stage renames the definition or column from to to
// on purpose ("orders.customer" to "orders.buyer"), as a refactor's set
// says it (change.Set.Renamed): an undo that puts a rename's old name
// back says so, so that its point records a rename, not a remove and an
// add, and compare folds the two into nothing.
func (st *Stage) Renamed(from, to string) {
	if st.renames == nil {
		st.renames = defchange.Renames{}
	}
	st.renames[from] = to
}

// Moved says that the stage's deletion of the resolved path from and its
// write of to are one move of the file (an undo that moves a file back),
// so that its change is rename:file. Where the stage does not both delete
// from and write to, it says nothing.
func (st *Stage) Moved(from, to string) {
	var deletes, writes bool
	for _, f := range st.files {
		deletes = deletes || f.rel == from && f.gone
		writes = writes || f.rel == to && !f.gone
	}
	if deletes && writes {
		st.moves = append(st.moves, fileMove{from: from, to: to})
	}
}

// Paths lists every path the stage writes, deletes or moves.
func (st *Stage) Paths() []string {
	out := make([]string, len(st.files))
	for i, f := range st.files {
		out[i] = f.rel
	}
	return out
}

// fileChanges lists what the stage does to files, as changes of kind file.
func (st *Stage) fileChanges() []defchange.DefChange {
	moved := map[string]bool{}
	var out []defchange.DefChange
	for _, m := range st.moves {
		moved[m.from], moved[m.to] = true, true
		out = append(out, defchange.DefChange{Definition: m.from, Kind: defchange.KindFile, Action: defchange.Rename, To: m.to, Fields: []defchange.Field{}})
	}
	for _, f := range st.files {
		if moved[f.rel] {
			continue
		}
		action := defchange.Change
		switch {
		case f.gone:
			action = defchange.Remove
		case !f.existed:
			action = defchange.Add
		}
		out = append(out, defchange.DefChange{Definition: f.rel, Kind: defchange.KindFile, Action: action, Fields: []defchange.Field{}})
	}
	return out
}

// reread reads the stage's files as the index reads them: as they were
// (from the snapshot ix where it holds the very text, else read again) and
// as they will be. Where ix is given, the new texts update it
// (definitions.Index.UpdateFiles: a few files one by one from their old
// trees, more in parallel; the files the planner read already are not read
// again, see readFrom), and the snapshot after the change is returned
// too, for the commit to keep; otherwise the texts are read by themselves,
// in parallel, and next is nil. Files that the project's .gitignore names
// are no definitions and are left out.
func reread(ctx context.Context, ix *definitions.Index, st *Stage, ig *ignores) (next *definitions.Index, before, after []*definitions.File) {
	read := func(f *stagedFile) bool { return indexCandidate(f.rel) && !ig.ignored(f.rel, false) }
	before = readBefore(ctx, ix, st, read)
	if ix != nil {
		changes := make([]definitions.FileChange, 0, len(st.files))
		for _, f := range st.files {
			changes = append(changes, definitions.FileChange{Path: f.rel, Src: f.data, Gone: f.gone})
		}
		next = st.readFrom(ix).UpdateFiles(ctx, changes)
		for _, f := range st.files {
			if nf := next.File(f.rel); nf != nil && !f.gone {
				after = append(after, nf)
			}
		}
		return next, before, after
	}
	texts := map[string][]byte{}
	for _, f := range st.files {
		if !f.gone && read(f) {
			texts[f.rel] = f.data
		}
	}
	return nil, before, definitions.FromFiles(ctx, texts).Files()
}

// readPlanned is reread for a plan that is judged and not written
// (PlanChange), whose snapshot after nobody keeps: the files as they were
// and what the judgement reads of them as they will be (their
// definitions and T1xxx findings). A file whose edits each replace a name
// with a name (a rename's, mostly) is not read again: its definitions are
// derived from the snapshot's (definitions.File.RenamedStatements: those
// no edit lies in as their statements, all the diff reads of them), in a
// File that holds only its path, language, text and definitions. The
// others (a test data file that moves, an edit that is no rename) are
// taken from the planner's read-ahead where it read them, else read by
// themselves, as reread would read them into the snapshot after: no
// snapshot is made, so a plan costs the files it changes, not a copy of
// the project's list of files for each.
func readPlanned(ctx context.Context, ix *definitions.Index, st *Stage, ig *ignores) (before, after []*definitions.File) {
	if ix == nil {
		_, before, after = reread(ctx, ix, st, ig)
		return before, after
	}
	read := func(f *stagedFile) bool { return indexCandidate(f.rel) && !ig.ignored(f.rel, false) }
	before = readBefore(ctx, ix, st, read)
	derived := make([]*definitions.File, len(st.files))
	ahead := st.readFrom(ix)
	rest := map[string][]byte{}
	var textEdits []definitions.TextEdit
	for i, f := range st.files {
		if f.gone {
			continue // nothing of it after
		}
		of := ix.File(f.rel)
		if of == nil && !ix.Indexes(f.rel) {
			continue // no file of the index, as the snapshot after would hold
		}
		if of != nil && f.edits != nil && f.from == "" && bytes.Equal(of.Src, f.old) {
			textEdits = textEdits[:0]
			for _, e := range f.edits {
				textEdits = append(textEdits, definitions.TextEdit{Start: e.Start, End: e.End, Text: e.Text})
			}
			if defs, ok := of.RenamedStatements(f.data, textEdits); ok {
				derived[i] = &definitions.File{Path: of.Path, Lang: of.Lang, Src: f.data, Definitions: defs}
				continue
			}
		}
		if ahead != ix {
			if af := ahead.File(f.rel); af != nil && bytes.Equal(af.Src, f.data) {
				derived[i] = af
				continue
			}
		}
		rest[f.rel] = f.data
	}
	var readAlone *definitions.Index
	if len(rest) > 0 {
		readAlone = definitions.FromFilesWith(ctx, rest, definitions.Options{DropTrees: true})
	}
	for i, f := range st.files {
		switch {
		case derived[i] != nil:
			after = append(after, derived[i])
		case readAlone != nil && !f.gone:
			if nf := readAlone.File(f.rel); nf != nil {
				after = append(after, nf)
			}
		}
	}
	return before, after
}

// readBefore reads the stage's files as they were, as the index reads
// them: from the snapshot ix where it holds the very text, else read
// again. read says which files the index reads at all.
func readBefore(ctx context.Context, ix *definitions.Index, st *Stage, read func(*stagedFile) bool) (before []*definitions.File) {
	oldTexts := map[string][]byte{}
	for _, f := range st.files {
		if !f.existed || !read(f) {
			continue
		}
		if ix != nil {
			if of := ix.File(f.rel); of != nil && bytes.Equal(of.Src, f.old) {
				before = append(before, of)
				continue
			}
		}
		oldTexts[f.rel] = f.old
	}
	if len(oldTexts) > 0 {
		before = append(before, definitions.FromFiles(ctx, oldTexts).Files()...)
	}
	return before
}

// readFrom is the index that reread updates with the stage's new texts:
// the planner's read-ahead where it is one of ix and the stage writes (or
// deletes) each file it read, so that those files, already at their new
// texts, are not read again; otherwise ix itself. Either way the snapshot
// after is ix with the stage's files at their new texts.
func (st *Stage) readFrom(ix *definitions.Index) *definitions.Index {
	ra := st.readAhead
	if ra == nil || ra.From != ix {
		return ix
	}
	writes := make(map[string]bool, len(st.files))
	for _, f := range st.files {
		writes[f.rel] = true
	}
	for _, p := range ra.Paths {
		if !writes[p] {
			return ix
		}
	}
	return ra.Index
}

// checkReadable refuses a change that leaves a file with a T1xxx finding
// (syntax, JSON, UTF-8) that the file it comes from did not have.
func checkReadable(st *Stage, before, after []*definitions.File) error {
	from := map[string]string{}
	for _, f := range st.files {
		if f.from != "" {
			from[f.rel] = f.from
		}
	}
	had := map[string]map[string]int{}
	for _, f := range before {
		had[f.Path] = map[string]int{}
		for _, fd := range f.Findings {
			if strings.HasPrefix(fd.Code, "T1") {
				had[f.Path][fd.Code]++
			}
		}
	}
	for _, f := range after {
		counts := had[f.Path]
		if src, ok := from[f.Path]; ok {
			counts = had[src]
		}
		for _, fd := range f.Findings {
			if !strings.HasPrefix(fd.Code, "T1") {
				continue
			}
			if counts[fd.Code] > 0 {
				counts[fd.Code]--
				continue
			}
			return diag.Errorf(fd.Code, "the change would leave %s unreadable (%s at line %d, column %d: %s); nothing was written",
				fd.Path, fd.Code, fd.Line, fd.Col, fd.Message).With("path", fd.Path).With("line", fd.Line).With("col", fd.Col)
		}
	}
	return nil
}

// dirOf is the folder of a resolved path, "." at the root.
func dirOf(rel string) string { return path.Dir(rel) }
