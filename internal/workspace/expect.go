package workspace

import (
	"context"
	"io/fs"
	"sort"
	"sync"
	"time"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/defchange"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/history"
)

// This file is the change pipeline for an editor that writes its files
// itself (the language server's "client" mode): a change set is planned on
// the overlays, read again, diffed and judged by the policy (the person
// asked where ask names it) exactly as Apply does, but nothing is written.
// The editor applies the planned texts and saves; when the saves bring the
// disk to the planned texts, the next look at the disk (a call, the
// watcher, Refresh) records them as ONE point of the kind command by the
// planner's caller and agent, whatever order they arrive in, instead of
// as a change made outside. A file saved with another text is recorded as
// what it is (outside); a part that never arrives is not recorded.

// ExpectFor is how long a planned change waits for the editor's saves.
// Where some of its files arrived by then, they are recorded as its point
// without the rest.
const ExpectFor = 10 * time.Minute

// A newer plan made on the same text of a file as an older one still
// waiting supersedes it: the editor's buffer (or the disk) held the old
// text when the newer plan was made, so the older plan's edits were not
// applied there (a preview cancelled, or the same rename asked again),
// and the older plan leaves. What its edits would have saved is then
// recorded as what it is (outside). A plan made on the older plan's new
// texts (a second rename after the first was applied) does not supersede
// it: both wait. And the plans waiting keep at most maxExpectBytes of
// texts between them: beyond it the oldest leave first, so that a client
// that plans and never saves cannot make the server keep every plan's
// texts for ExpectFor.
const maxExpectBytes = 64 << 20

// PlannedFile is one file of a planned change.
type PlannedFile struct {
	Path string // the file's path after the change
	From string // the path it moves from, "" where it stays
	Old  []byte // the text the plan was made on (an overlay, else the disk's); nil for a new file
	Text []byte // its new text; nil where Gone
	Gone bool   // the change deletes the file (a move deletes its From)
}

// Plan is a change judged and not written: what the editor must apply.
type Plan struct {
	Summary string
	Files   []PlannedFile // sorted by path; a move is one file with From set
	Changes []defchange.DefChange
}

// expects are the planned changes of one folder that wait for the editor.
type expects struct {
	mu      sync.Mutex
	waiting []*expectation
	bytes   int // the texts the waiting plans keep, between them
	// settling is set where the last look held back a planned file that
	// holds another text but was written within saveSettle: an editor's
	// save may be under way (a save truncates, then writes), so the file
	// is looked at again before it is judged.
	settling bool
}

// saveSettle is how long after its last write a planned file that holds
// neither its planned text nor one on the way may still be a save under
// way, and is not yet judged as saved otherwise.
const saveSettle = 2 * time.Second

// expectation is one planned change waiting for its files.
type expectation struct {
	plan     *Plan
	opts     Options
	tool     string
	want     map[string]wanted
	deadline time.Time
	// base is the hash of the text each path held when the plan was made
	// ("" for a file the plan makes), by the path that held it: a newer
	// plan on the same base supersedes this one.
	base  map[string]string
	bytes int // the texts the plan keeps (old and new)
	// checked is the version of the history's state at which the last
	// look judged the plan (0: none yet), and recheck the paths it held
	// back then (claimed by an older plan, on their way, a save perhaps
	// under way): the next look judges them again (claimExpected).
	checked int64
	recheck map[string]bool
}

// wanted is what a plan wants of one path: its planned content hash (""
// where the file goes), and the texts it may hold on the way there (an
// editor that moves a file saves its old text first, or edits the file
// at its old path before it is moved by hand), which are not yet a
// deviation.
type wanted struct {
	hash    string
	passing map[string]bool
}

// PlanChange runs a change set through the pipeline up to the judgement
// (stage, read again, refuse an unreadable result, diff, judge by the
// policy, ask the person where ask names it) on the texts the set was
// planned on, ix's (which holds the overlays), and writes nothing. Its
// refusals are Apply's. The plan waits for the editor's saves (see the
// top of this file) until ExpectFor has passed.
func (w *Workspace) PlanChange(ctx context.Context, ix *definitions.Index, s *change.Set) (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	// The plan's texts are the ones it was made on (the overlays'), not
	// the disk's; a deletion's is the overlay's where there is one. The
	// editor writes the files, with their modes: the stage's are never
	// used (no stat of each file for them).
	st, err := w.stageFrom(s, func(rel string, f *change.FileEdit) ([]byte, fs.FileMode, error) {
		if f != nil {
			return f.Base, 0, nil
		}
		if text, ok := w.Overlay(rel); ok {
			return text, 0, nil
		}
		return w.Current(rel)
	})
	if err != nil {
		return nil, err
	}
	st.dropUnchanged()
	st.readAhead = s.ReadAhead // a rename's new texts, read by its planner already
	before, after := readPlanned(ctx, ix, st, w.walkRules())
	if err := checkReadable(st, before, after); err != nil {
		return nil, err
	}
	changes := defchange.Diff(before, after, st.renames)
	changes = append(changes, st.fileChanges()...)
	ask, err := w.opts.Policy.Judge(st.Paths(), changes)
	if err != nil {
		return nil, err
	}
	if err := w.approve(ctx, st.Summary, ask); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	plan := &Plan{Summary: st.Summary, Changes: changes}
	moved := map[string]string{} // from -> to
	for _, f := range st.files {
		if f.from != "" {
			moved[f.from] = f.rel
		}
	}
	for _, f := range st.files {
		switch {
		case f.gone && moved[f.rel] != "":
			continue // part of its move
		case f.gone:
			plan.Files = append(plan.Files, PlannedFile{Path: f.rel, Old: f.old, Gone: true})
		case f.from != "":
			plan.Files = append(plan.Files, PlannedFile{Path: f.rel, From: f.from, Old: oldOf(st, f.from), Text: f.data})
		default:
			plan.Files = append(plan.Files, PlannedFile{Path: f.rel, Old: f.old, Text: f.data})
		}
	}
	w.expectPlan(plan)
	return plan, nil
}

// oldOf is the old text of a staged file that goes.
func oldOf(st *Stage, rel string) []byte {
	for _, f := range st.files {
		if f.rel == rel && f.gone {
			return f.old
		}
	}
	return nil
}

// expectPlan makes a plan wait for the editor's saves. It is judged
// first here, as the first look after it would judge all its files, on
// the history's state as this process last read it (no query: where the
// state moved on since, the next look judges what changed): the looks
// after it judge only what they find changed (claimExpected), so that a
// request after a large plan (the hub table renamed) does not pay for
// the plan's files.
func (w *Workspace) expectPlan(plan *Plan) {
	e := &expectation{plan: plan, opts: w.opts, tool: w.tool, want: map[string]wanted{}, deadline: time.Now().Add(ExpectFor),
		base: make(map[string]string, len(plan.Files))}
	if e.tool == "" {
		e.tool = plan.toolName()
	}
	for _, f := range plan.Files {
		var old string
		if f.Old != nil {
			old = history.Hash(f.Old)
		}
		at := f.Path
		if f.From != "" {
			at = f.From
		}
		e.base[at] = old
		e.bytes += len(f.Old) + len(f.Text)
		switch {
		case f.From != "":
			planned := history.Hash(f.Text)
			e.want[f.From] = wanted{passing: map[string]bool{old: true, planned: true}}
			e.want[f.Path] = wanted{hash: planned, passing: map[string]bool{old: true}}
		case f.Gone:
			e.want[f.Path] = wanted{passing: map[string]bool{old: true}}
		case f.Old == nil:
			// A new file: an editor creates it empty, then fills it.
			e.want[f.Path] = wanted{hash: history.Hash(f.Text), passing: map[string]bool{old: true, history.Hash(nil): true}}
		default:
			e.want[f.Path] = wanted{hash: history.Hash(f.Text), passing: map[string]bool{old: true}}
		}
	}
	// The state as this process last read it, without asking the history
	// again: where it moved on since, the next look judges what changed
	// (or, told of no change, the whole plan again).
	w.state.withCached(func(known map[string]history.FileState, version int64) {
		if version == 0 {
			return // judged whole at the first look
		}
		for p, want := range e.want {
			if want.hash != "" && known[p].Hash == want.hash {
				delete(e.want, p) // the disk holds the planned text already
			}
		}
		e.checked = version
	})
	w.expect.mu.Lock()
	w.expect.add(e)
	w.expect.mu.Unlock()
}

// add makes e wait, with the older plans it supersedes (one made on the
// same text of a file) taken out, and the oldest beyond maxExpectBytes.
// The caller holds mu.
func (x *expects) add(e *expectation) {
	keep := x.waiting[:0]
	x.bytes = 0
	for _, old := range x.waiting {
		if !e.supersedes(old) {
			keep = append(keep, old)
			x.bytes += old.bytes
		}
	}
	clear(x.waiting[len(keep):])
	x.waiting = append(keep, e)
	x.bytes += e.bytes
	for len(x.waiting) > 1 && x.bytes > maxExpectBytes {
		x.bytes -= x.waiting[0].bytes
		x.waiting[0] = nil
		x.waiting = x.waiting[1:]
	}
}

// supersedes reports whether the plan e was made on the same text of a
// file as the older plan old.
func (e *expectation) supersedes(old *expectation) bool {
	small, large := e.base, old.base
	if len(small) > len(large) {
		small, large = large, small
	}
	for p, h := range small {
		if oh, ok := large[p]; ok && oh == h {
			return true
		}
	}
	return false
}

// toolName is the tool a plan's summary starts with (rename, remove, ...).
func (p *Plan) toolName() string {
	for i := 0; i < len(p.Summary); i++ {
		if p.Summary[i] == ' ' {
			return p.Summary[:i]
		}
	}
	return p.Summary
}

// settlingSaves reports whether the last look held back a planned file
// that may still be being saved; a watcher looks again after saveSettle.
func (w *Workspace) settlingSaves() bool {
	w.expect.mu.Lock()
	defer w.expect.mu.Unlock()
	return w.expect.settling
}

// Waiting reports how many planned changes wait for the editor's saves.
func (w *Workspace) Waiting() int {
	w.expect.mu.Lock()
	defer w.expect.mu.Unlock()
	return len(w.expect.waiting)
}

// claimExpected takes, out of what a look at the disk found changed and
// gone, the files that reached the texts a waiting plan planned for them.
// A plan whose files have all arrived is recorded as one point of the kind
// command (as is one past its deadline, with the files that arrived); the
// files of a plan still waiting for others are held back (neither recorded
// nor stamped: the next look sees them again). A planned file that holds
// another text leaves its plan and is recorded as what it is.
//
// A look costs what it found, not the plans' files: a wanted path the look
// found neither changed nor gone can only leave its plan where the
// history's state (known, at version) says the disk holds its planned
// text already, which changes only with that state. So a plan judges all
// its paths once, then, while the state holds still, only the paths found
// changed or gone, those the state changed since it last judged
// (stateCache.changedSince), and those it held back at that look (judged
// then by what they were on their way to).
func (w *Workspace) claimExpected(ctx context.Context, hs *history.Store, known map[string]history.FileState, version int64,
	changed []fileSeen, gone []string) ([]fileSeen, []string, error) {
	w.expect.mu.Lock()
	defer w.expect.mu.Unlock()
	if len(w.expect.waiting) == 0 {
		return changed, gone, nil
	}
	seen := make(map[string]fileSeen, len(changed))
	for _, c := range changed {
		seen[c.state.Path] = c
	}
	isGone := make(map[string]bool, len(gone))
	for _, p := range gone {
		isGone[p] = true
	}
	claimed := map[string]bool{}
	var keep []*expectation
	now := time.Now()
	w.expect.settling = false
	for _, e := range w.expect.waiting {
		var arrived []string
		recheck := map[string]bool{}
		judge := func(p string) {
			want, ok := e.want[p]
			if !ok {
				return
			}
			c, isChanged := seen[p]
			switch {
			case claimed[p]:
				recheck[p] = true // claimed by an older plan
			case want.hash == "" && isGone[p]:
				arrived = append(arrived, p)
			case want.hash != "" && isChanged && c.state.Hash == want.hash:
				arrived = append(arrived, p)
			case isChanged && want.passing[c.state.Hash]:
				recheck[p] = true
				claimed[p] = true // on its way: neither recorded nor stamped yet
			case isChanged && now.Sub(time.Unix(0, c.state.MTime)) < saveSettle:
				recheck[p] = true
				claimed[p] = true // perhaps a save under way: looked at again
				w.expect.settling = true
			case isChanged || isGone[p]:
				delete(e.want, p) // saved as something else: recorded as what it is
			case want.hash != "" && known[p].Hash == want.hash:
				delete(e.want, p) // the disk held the planned text already
			}
			// else still waiting, as it was
		}
		since, told := w.state.changedSince(e.checked, version)
		if e.checked == 0 || !told {
			for p := range e.want {
				judge(p)
			}
		} else {
			done := make(map[string]bool, len(changed)+len(gone)+len(since)+len(e.recheck))
			once := func(p string) {
				if !done[p] {
					done[p] = true
					judge(p)
				}
			}
			for _, c := range changed {
				once(c.state.Path)
			}
			for _, p := range gone {
				once(p)
			}
			for _, p := range since {
				once(p)
			}
			for p := range e.recheck {
				once(p)
			}
		}
		e.checked, e.recheck = version, recheck
		for _, p := range arrived {
			claimed[p] = true
		}
		if len(e.want) == 0 {
			continue
		}
		// Every wanted path that has not arrived waits: held back, on its
		// way, or not yet saved.
		waiting := len(e.want) - len(arrived)
		if waiting > 0 && now.Before(e.deadline) {
			keep = append(keep, e)
			continue
		}
		if len(arrived) == 0 {
			continue
		}
		if err := w.recordPlanned(ctx, hs, known, e, arrived, seen); err != nil {
			return nil, nil, err
		}
	}
	w.expect.waiting = keep
	w.expect.bytes = 0
	for _, e := range keep {
		w.expect.bytes += e.bytes
	}
	var restChanged []fileSeen
	for _, c := range changed {
		if !claimed[c.state.Path] {
			restChanged = append(restChanged, c)
		}
	}
	var restGone []string
	for _, p := range gone {
		if !claimed[p] {
			restGone = append(restGone, p)
		}
	}
	return restChanged, restGone, nil
}

// recordPlanned records the files of a plan that arrived as one point of
// the kind command, by the plan's caller and agent.
func (w *Workspace) recordPlanned(ctx context.Context, hs *history.Store, known map[string]history.FileState,
	e *expectation, arrived []string, seen map[string]fileSeen) error {
	sort.Strings(arrived)
	p := &history.Point{
		Time: w.Now(), Who: e.opts.Caller, Agent: e.opts.Agent, Kind: history.KindCommand, Turn: e.opts.Turn,
		Tool: e.tool, Summary: e.plan.Summary, Changes: e.plan.Changes, Done: true,
	}
	blobs := map[string][]byte{}
	earlier := map[string][]byte{} // the plan's old texts, by path
	for _, f := range e.plan.Files {
		switch {
		case f.Old == nil:
		case f.From != "":
			earlier[f.From] = f.Old // a move's old text is its From's
		default:
			earlier[f.Path] = f.Old
		}
	}
	var state history.StateChange
	for _, path := range arrived {
		fc := history.FileChange{Path: path}
		if was, ok := known[path]; ok {
			fc.Before = was.Hash
			// Kept where the plan's old text is the one the history knew:
			// the start keeps no contents.
			if old, ok := earlier[path]; ok && history.Hash(old) == was.Hash {
				blobs[was.Hash] = old
			}
		}
		if c, ok := seen[path]; ok {
			fc.After = c.state.Hash
			if c.data != nil {
				blobs[c.state.Hash] = c.data
			}
			state.Put = append(state.Put, c.state)
		} else {
			state.Delete = append(state.Delete, path)
		}
		p.Files = append(p.Files, fc)
	}
	n, err := hs.Record(ctx, p, blobs, state)
	if err != nil {
		return err
	}
	w.state.recorded(ctx, hs, state)
	w.emitPoint(n, p.Files, p.Changes)
	return nil
}
