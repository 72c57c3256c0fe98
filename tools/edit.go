package tools

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/words"
	"github.com/tent-tools/tent-tools/internal/workspace"
)

// EditInput is the input of edit: one replacement (Find, With) or several
// (Edits), never both.
type EditInput struct {
	Path  string        `json:"path"`
	Find  *string       `json:"find,omitempty"`
	With  *string       `json:"with,omitempty"`
	Edits []Replacement `json:"edits,omitempty"`
}

// Replacement puts With in the place of Find, which must stand exactly once.
type Replacement struct {
	Find string `json:"find"`
	With string `json:"with"`
}

// contextLines is how many lines around a change edit and write show.
const contextLines = 2

func init() {
	register(Tool{
		Name:     "edit",
		Summary:  "Puts with in the place of find, where find stands exactly once in a file; or several such replacements (edits), all or nothing",
		Writes:   true,
		NewInput: func() any { return new(EditInput) },
		Answer:   Changed{},
		Additive: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return w.edit(ctx, *in.(*EditInput))
		},
	})
}

// Edit replaces text in one file, literally (a "$1" in With is just text).
// Each Find must stand exactly once in the file as the replacements before
// it left it, else nothing is written and the answer is T9106 with how often
// it stands, where, or (where it stands nowhere) the nearest lines. A Find
// that stands nowhere as written but exactly once when indentation, trailing
// spaces, line ends and quote style are set aside is replaced there, With
// given the matched lines' indentation, and the answer says so (Tolerated).
//
// The file keeps its line ends: in a file that ends its lines with CRLF, a
// "\n" in Find or With means CRLF (and in an LF file a CRLF in them means
// "\n"). It keeps its BOM, whether it ends with a line end, and its mode.
func (w *Workspace) edit(ctx context.Context, in EditInput) (Answer, error) {
	items, err := in.replacements()
	if err != nil {
		return Answer{}, err
	}
	rel, err := w.Resolve(in.Path, true)
	if err != nil {
		return Answer{}, err
	}
	src, info, err := w.state.ReadFile(rel, MaxFile, func(n int64) error {
		return diag.Errorf(diag.T9104, "%s is %s, more than the %s that edit changes: split the file, or change it outside the tools", rel, words.Bytes(n), words.Bytes(MaxFile)).With("path", rel)
	})
	if err != nil {
		return Answer{}, err
	}
	if err := checkText(rel, src); err != nil {
		return Answer{}, err
	}
	body, hasBOM := bytes.CutPrefix(src, bom)
	lineEnd := lineEndOf(body)
	endsWithLineEnd := bytes.HasSuffix(body, []byte("\n"))

	var spans [][2]int // what the replacements put in, as offsets in body
	var tolerances []Tolerance
	for i, it := range items {
		find, with := adaptLineEnds(it.Find, lineEnd), adaptLineEnds(it.With, lineEnd)
		at := occurrences(body, []byte(find))
		var start, end int
		switch {
		case len(at) == 1:
			start, end = at[0], at[0]+len(find)
		case len(at) > 1:
			return Answer{}, notOnce(rel, body, find, at, i, len(items))
		default:
			near := tolerantMatch(body, find)
			switch {
			case len(near) == 0:
				return Answer{}, notOnce(rel, body, find, at, i, len(items))
			case len(near) > 1:
				return Answer{}, tolerantTwice(rel, body, near, i, len(items))
			}
			start, end = near[0][0], near[0][1]
			matched := string(body[start:end])
			starts := lineStarts(body)
			tol := Tolerance{Normalised: tolerated(matched, find), Lines: [2]int{lineAt(starts, start), lineAt(starts, max(start, end-1))}}
			if len(items) > 1 {
				tol.Edit = i + 1
			}
			tolerances = append(tolerances, tol)
			with = tolerantWith(with, matched, find)
			find = matched
		}
		body = append(body[:start:start], append([]byte(with), body[end:]...)...)
		spans = shiftSpans(spans, start, end, len(with), changedPart(find, with))
	}
	if endsWithLineEnd && len(body) > 0 && !bytes.HasSuffix(body, []byte("\n")) {
		body = append(body, lineEnd...)
	}
	out := body
	if hasBOM {
		out = append(append([]byte{}, bom...), body...)
	}
	st := &workspace.Stage{Summary: "edit " + rel}
	st.Put(rel, src, true, info.Mode().Perm(), out)
	point, err := w.state.CommitStage(ctx, nil, st)
	if err != nil {
		return Answer{}, err
	}
	shown := around(body, lineStarts(body), spans, contextLines)
	if shown == nil {
		shown = []Line{}
	}
	var b strings.Builder
	switch {
	case bytes.Equal(out, src):
		fmt.Fprintf(&b, "%s is unchanged: with is the same as find\n", rel)
	default:
		fmt.Fprintf(&b, "edited %s (%s)\n", rel, words.Count(len(items), "replacement"))
	}
	for _, tol := range tolerances {
		writeTolerance(&b, tol)
	}
	b.WriteString(numbered(shown))
	writePoint(&b, point)
	return Answer{Text: b.String(), Data: Changed{Path: rel, Changed: shown, Point: pointRef(point), Tolerated: tolerances}}, nil
}

// replacements checks the input's form and returns its replacements.
func (in EditInput) replacements() ([]Replacement, error) {
	var items []Replacement
	switch {
	case in.Edits != nil && (in.Find != nil || in.With != nil):
		return nil, diag.Errorf(diag.T9102, "bad input: give find and with, or edits, not both")
	case in.Edits != nil:
		if len(in.Edits) == 0 {
			return nil, diag.Errorf(diag.T9102, "bad input: edits is empty")
		}
		items = in.Edits
	case in.Find == nil:
		return nil, diag.Errorf(diag.T9102, "bad input: missing required field \"find\" (or give edits)").With("field", "find")
	case in.With == nil:
		return nil, diag.Errorf(diag.T9102, "bad input: missing required field \"with\"").With("field", "with")
	default:
		items = []Replacement{{Find: *in.Find, With: *in.With}}
	}
	for i, it := range items {
		if it.Find == "" {
			field := "find"
			if in.Edits != nil {
				field = fmt.Sprintf("edits[%d].find", i)
			}
			return nil, diag.Errorf(diag.T9102, "bad input: %s is empty; give the text to replace", field).With("field", field)
		}
	}
	return items, nil
}

// lineEndOf says how the text ends its lines: "\r\n" where most of its line
// ends are CRLF, else "\n".
func lineEndOf(text []byte) string {
	crlf := bytes.Count(text, []byte("\r\n"))
	if crlf > 0 && crlf*2 > bytes.Count(text, []byte("\n")) {
		return "\r\n"
	}
	return "\n"
}

// adaptLineEnds writes the line ends of s as the file writes them.
func adaptLineEnds(s, lineEnd string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if lineEnd == "\r\n" {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// occurrences returns the offsets where find stands in text, overlapping
// ones included: "aa" stands twice in "aaa", so replacing it would be a guess.
func occurrences(text, find []byte) []int {
	var at []int
	for i := 0; i <= len(text)-len(find); {
		j := bytes.Index(text[i:], find)
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + 1
	}
	return at
}

// changedPart returns the bytes [from, to) of with that differ from find,
// so that an answer shows the lines that changed, not all that with holds.
func changedPart(find, with string) [2]int {
	p := 0
	for p < len(find) && p < len(with) && find[p] == with[p] {
		p++
	}
	s := 0
	for s < len(find)-p && s < len(with)-p && find[len(find)-1-s] == with[len(with)-1-s] {
		s++
	}
	return [2]int{p, len(with) - s}
}

// shiftSpans records that [start, end) of the text was replaced by n bytes
// of which part (relative to start) differs: spans after it move, spans it
// overlaps merge into the new one.
func shiftSpans(spans [][2]int, start, end, n int, part [2]int) [][2]int {
	delta := n - (end - start)
	merged := [2]int{start + part[0], start + part[1]}
	var out [][2]int
	for _, s := range spans {
		switch {
		case s[1] < start:
			out = append(out, s)
		case s[0] > end:
			out = append(out, [2]int{s[0] + delta, s[1] + delta})
		default: // touches the replaced text: one span now
			merged[0] = min(merged[0], s[0], start)
			merged[1] = max(merged[1], s[1]+delta, start+n)
		}
	}
	return append(out, merged)
}
