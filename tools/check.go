package tools

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/runner"
)

// CheckInput is the input of check: nothing, or fix (with dryRun) to
// apply every certain fix the check offers.
type CheckInput struct {
	// Fix applies every finding's certain fix as one change through the
	// pipeline (the policy judges it; one point of the kind fix), then
	// checks again and answers what was fixed and what is left.
	Fix bool `json:"fix,omitempty"`
	// DryRun, with fix, writes nothing: the answer holds the diff the
	// fixes would make.
	DryRun bool `json:"dryRun,omitempty"`
	// From skips the first findings (in the answer's order): an agent's
	// answer holds 100 findings at most, and its more says the from
	// that answers the next ones.
	From int `json:"from,omitempty"`
}

func init() {
	register(Tool{
		Name:     "check",
		Summary:  "The findings of the check (docs/pages/format.md §7), errors first: broken references, code and test data that do not fit the definitions; fix: true applies every certain fix (dryRun: the diff)",
		NewInput: func() any { return new(CheckInput) },
		// With fix it writes the fixes: otherwise it changes nothing.
		WritesWith: func(in any) bool { c := in.(*CheckInput); return c.Fix && !c.DryRun },
		Answer:     check.Answer{},
		Idempotent: true, // again, every fix is applied: nothing more changes
		Local:      true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			c := *in.(*CheckInput)
			if c.DryRun && !c.Fix {
				return Answer{}, diag.Errorf(diag.T9102, "bad input: dryRun shows the diff of fix: give fix: true with it").With("field", "dryRun")
			}
			if c.From < 0 {
				return Answer{}, diag.Errorf(diag.T9102, "bad input: from %d: give 0 or more", c.From).With("field", "from")
			}
			if c.Fix {
				return w.checkFix(ctx, c.DryRun)
			}
			return w.check(ctx, c.From)
		},
	})
}

// findings are the findings of the check on ix, with T2011 for what the
// test database has that no definition names (where there is one).
func (w *Workspace) findings(ctx context.Context, ix *definitions.Index) []diag.Finding {
	return w.CheckIndex(ctx, ix, check.Options{Extra: runner.Drift(ctx, ix, runner.TestDBPath(w.Root()))})
}

// check answers the findings of the check on the workspace's index. The
// data answer is {"findings": [...]}.
func (w *Workspace) check(ctx context.Context, from int) (Answer, error) {
	fs, err := w.checkFindings(ctx)
	if err != nil {
		return Answer{}, err
	}
	if from == 0 && !w.Options().Bounded {
		return Answer{Text: check.Text(fs), Data: check.NewAnswer(fs)}, nil
	}
	var more []diag.More
	shown := bound(w.Options().Bounded, &more, "findings", fs, from, budgetFindings, "check with from "+strconv.Itoa(from+budgetFindings)+" shows the next", true)
	a := check.NewAnswer(shown)
	a.More = more
	var b strings.Builder
	if from > 0 {
		fmt.Fprintf(&b, "findings from %d of %d:\n", from, len(fs))
	}
	b.WriteString(check.Text(shown))
	writeMore(&b, more)
	return Answer{Text: b.String(), Data: a}, nil
}

// checkFindings answers the findings of the check of the project. A
// process that has not read the index answers the kept findings
// (.tent/findings, check/kept.go) where the files they were made from
// are the same, each with the stamp it had then or else (touched, or
// racy) the same text, the test database has the same stamp, and they
// were made by this program: without reading the index cache nor
// checking. Otherwise it checks the index and keeps what it found for
// the next process.
func (w *Workspace) checkFindings(ctx context.Context) ([]diag.Finding, error) {
	key := keptKey()
	cold := false
	if key != "" && w.state.ColdStampsWanted() {
		// With no kept findings to match (a check's first process), the
		// walk alone: the index's look takes it, and no stamps are made
		// of it here for nothing.
		if k, err := check.DecodeKept(w.state.KeptFindings()); err != nil {
			cold = w.state.ColdWalk(ctx)
		} else if stamps := w.state.ColdStamps(ctx); stamps != nil {
			cold = true
			w.stampState(stamps)
			if k.Fits(key, stamps, w.readProjectFile) {
				return k.Findings, nil
			}
		}
	}
	ix, err := w.Index(ctx)
	if err != nil {
		return nil, err
	}
	var before map[string]definitions.Stamp
	if cold {
		before = w.state.IndexStamps(ix)
		w.stampState(before)
	}
	fs := w.findings(ctx, ix)
	if before != nil {
		w.keepFindings(key, ix, before, fs)
	}
	return fs, nil
}

// keepFindings keeps the findings fs of ix, whose files (and test
// database) had the stamps before when the check began, for the next
// process (check.KeepFindings); it keeps none where the test database
// changed during the check or could not be read (T4006: it may read the
// next time).
func (w *Workspace) keepFindings(key string, ix *definitions.Index, before map[string]definitions.Stamp, fs []diag.Finding) {
	after := map[string]definitions.Stamp{}
	w.stampState(after)
	for _, name := range keptStateFiles {
		b, had := before[keptStatePath(name)]
		a, has := after[keptStatePath(name)]
		if had != has || had && !a.Same(b) {
			return
		}
	}
	for _, f := range fs {
		if f.Code == diag.T4006 {
			return
		}
	}
	if k, ok := check.KeepFindings(key, ix, before, fs); ok {
		w.state.KeepFindings(k.Encode())
	}
}

// keptStateFiles are the files of the state folder that the findings
// depend on beside the project's: the test database (T2011), whose
// writes may stand in its write-ahead log.
var keptStateFiles = []string{runner.TestDBFile, runner.TestDBFile + "-wal"}

// keptStatePath is the path a state file's stamp is kept under: no
// project file has it (the walks leave .tent out).
func keptStatePath(name string) string { return ".tent/" + name }

// stampState adds the stamps of keptStateFiles to stamps.
func (w *Workspace) stampState(stamps map[string]definitions.Stamp) {
	for _, name := range keptStateFiles {
		if st, ok := w.state.StateStamp(name); ok {
			stamps[keptStatePath(name)] = st
		}
	}
}

// readProjectFile reads a project file as the index reads it, for the
// kept findings' check of a file whose stamp was racy.
func (w *Workspace) readProjectFile(p string) ([]byte, error) {
	return definitions.ReadIndexed(w.state.FS().FS(), p)
}

// keptKey is the key of the kept findings: what makes them beside the
// project's files, the layout of the index (definitions.CacheVersion) and
// the program itself, by the stamp of its file, so that a new build of
// tent-tools checks again. "" where the program's file cannot be stamped
// (then nothing is kept).
var keptKey = sync.OnceValue(func() string {
	if b := definitions.BuildStamp(); b != "" {
		return "check/" + b
	}
	return ""
})

// checkFix applies (or, dryRun, shows) every certain fix of the findings
// as one change set, then checks again.
func (w *Workspace) checkFix(ctx context.Context, dryRun bool) (Answer, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return Answer{}, err
	}
	before := w.findings(ctx, ix)
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	set, used, err := fixSet(ix, before)
	if err != nil {
		return Answer{}, err
	}
	var more []diag.More
	a := check.NewAnswer(bound(w.Options().Bounded, &more, "findings", before, 0, budgetFindings, "check shows them all, 100 at a time with from", false))
	a.Fixed = []check.Fixed{}
	for _, f := range used {
		a.Fixed = append(a.Fixed, check.Fixed{Code: f.Code, Path: f.Path, Line: f.Line, Col: f.Col, Title: f.Fix.Title})
	}
	fixed := len(a.Fixed)
	a.Fixed = bound(w.Options().Bounded, &more, "fixed", a.Fixed, 0, budgetFindings, "check with fix and dryRun answers the diff of every fix; history and compare the point's changes", false)
	var b strings.Builder
	if set == nil {
		a.DryRun = dryRun
		a.More = more
		b.WriteString("nothing to fix: no finding has a certain fix\n")
		b.WriteString(check.Text(a.Findings))
		writeMore(&b, a.More)
		return Answer{Text: b.String(), Data: a}, nil
	}
	if dryRun {
		a.DryRun = true
		a.More = more
		rest := "the CLI's check --fix --dry-run answers the whole diff; check with fix applies every fix as one point (undo takes it back)"
		if a.Diff, err = boundDiff(w.Options().Bounded, &a.More, set, nil, 0, func(int) string { return rest }, rest, false); err != nil {
			return Answer{}, err
		}
		fmt.Fprintf(&b, "would fix %s (nothing was written):\n", words.Count(fixed, "finding"))
		writeFixed(&b, a.Fixed)
		b.WriteString(a.Diff)
		writeMore(&b, a.More)
		return Answer{Text: b.String(), Data: a}, nil
	}
	point, err := w.state.Apply(ctx, ix, set)
	if err != nil {
		return Answer{}, err
	}
	a.Point = pointRef(point)
	if ix, err = w.Index(ctx); err != nil {
		return Answer{}, err
	}
	more = slices.DeleteFunc(more, func(m diag.More) bool { return m.List == "findings" }) // those before the fixes
	a.Findings = bound(w.Options().Bounded, &more, "findings", w.findings(ctx, ix), 0, budgetFindings, "check shows them all, 100 at a time with from", false)
	if a.Findings == nil {
		a.Findings = []diag.Finding{}
	}
	fmt.Fprintf(&b, "fixed %s:\n", words.Count(fixed, "finding"))
	writeFixed(&b, a.Fixed)
	changed, err := set.Changed()
	if err != nil {
		return Answer{}, err
	}
	writeChanged(&b, bound(w.Options().Bounded, &more, "changed lines", changed, 0, budgetLines, fmt.Sprintf("compare with from %d and to %d lists what the fixes changed", point-1, point), false))
	a.More = more
	writePoint(&b, point)
	if len(a.Findings) == 0 {
		b.WriteString("left: no findings\n")
	} else {
		b.WriteString("left:\n")
		b.WriteString(check.Text(a.Findings))
	}
	writeMore(&b, a.More)
	return Answer{Text: b.String(), Data: a}, nil
}

// writeFixed lists the findings fixed, one a line.
func writeFixed(b *strings.Builder, fixed []check.Fixed) {
	for _, f := range fixed {
		fmt.Fprintf(b, "  %s:%d:%d %s: %s\n", f.Path, f.Line, f.Col, f.Code, f.Title)
	}
}

// fixSet is the change set that applies the certain fixes of findings fs
// (those without one are passed over) to the files of ix, of the action
// fix with their codes as its target, and the findings whose fixes it
// holds, in the order given: a fix whose place overlaps one taken before
// it is left out (the check offers it again once the first is applied),
// and the same place fixed twice is taken once. nil where no fix applies.
// The fix tool (one finding) and check's fix (all) both go through it.
func fixSet(ix *definitions.Index, fs []diag.Finding) (*change.Set, []diag.Finding, error) {
	type taken struct{ start, end int }
	byPath := map[string][]taken{}
	var used []diag.Finding
	var codes []string
	b := change.NewBuilder()
	for _, fd := range fs {
		fx := fd.Fix
		if fx == nil {
			continue
		}
		f := ix.File(fx.Path)
		if f == nil || fx.Start < 0 || fx.End < fx.Start || fx.End > len(f.Src) {
			continue
		}
		clash := false
		for _, t := range byPath[fx.Path] {
			// Two insertions at one offset clash too: their order is unknown.
			if fx.Start < t.end && t.start < fx.End || fx.Start == t.start {
				clash = true
				break
			}
		}
		if clash {
			continue
		}
		byPath[fx.Path] = append(byPath[fx.Path], taken{fx.Start, fx.End})
		b.Edit(f.Path, f.Src, change.Edit{Start: fx.Start, End: fx.End, Text: fx.Text})
		used = append(used, fd)
		codes = append(codes, fd.Code)
	}
	if len(used) == 0 {
		return nil, nil, nil
	}
	set, err := b.Set()
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(codes)
	set.Action, set.Target = change.ActionFix, strings.Join(slices.Compact(codes), ",")
	return set, used, nil
}
