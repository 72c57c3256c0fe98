package outline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/words"
)

// DefaultBudget is the size of the text, in characters, that Text keeps to
// when it is given none: small enough for a model to read whole.
const DefaultBudget = 8000

// Text renders the map, one line per definition under its file's path.
// Where the whole map is longer than budget characters (<= 0 means
// DefaultBudget), it keeps project.ts, engine.ts and the most referenced
// definitions in full, counts the rest of a shown file on one line
// (`  … 12 more: 8 fn, 4 table`) and the files it shows nothing of per
// folder.
func (m *Map) Text(budget int) string {
	text, _ := m.fold(budget)
	return text
}

// Bounded is the map as a reader within budget characters is given it:
// the text of Text(budget), and the map of what that text shows. Where
// the text is the whole map, so is the map (m itself); where it is
// folded, the map holds the files and definitions the text shows, each
// shown file's other definitions counted in More, the files it shows
// nothing of counted per folder in Fold.Hidden, and Fold.Rest says how to
// ask for the rest. The map is then about the size of the text, not of
// the project.
func (m *Map) Bounded(budget int) (string, *Map) {
	text, keep := m.fold(budget)
	if keep == nil {
		return text, m
	}
	kept := make([][]bool, len(m.Files))
	shown := make([]int, len(m.Files))
	total := 0
	for i, f := range m.Files {
		kept[i] = make([]bool, len(f.Definitions))
		total += len(f.Definitions)
	}
	for _, a := range keep {
		kept[a.file][a.def] = true
		shown[a.file]++
	}
	out := &Map{Files: []FileOutline{}, Fold: &Fold{Shown: len(keep), Total: total, Hidden: []Hidden{}, Rest: Rest}}
	byDir := map[string]*Hidden{}
	var dirs []string
	for i, f := range m.Files {
		if shown[i] == 0 {
			dir := path.Dir(f.Path)
			h := byDir[dir]
			if h == nil {
				h = &Hidden{Folder: dir}
				byDir[dir] = h
				dirs = append(dirs, dir)
			}
			h.Files++
			h.Definitions += len(f.Definitions)
			continue
		}
		fo := FileOutline{Path: f.Path, Definitions: make([]Definition, 0, shown[i]), More: len(f.Definitions) - shown[i]}
		for j, d := range f.Definitions {
			if kept[i][j] {
				fo.Definitions = append(fo.Definitions, d)
			}
		}
		out.Files = append(out.Files, fo)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		out.Fold.Hidden = append(out.Fold.Hidden, *byDir[d])
	}
	return text, out
}

// Rest is how a folded map says to ask for what it leaves out.
const Rest = "map with a path or a larger budget shows them"

// fold renders the text within budget and returns the definitions it
// keeps: nil where the whole map fits.
func (m *Map) fold(budget int) (string, []at) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	// A definition's line is made where it is first written or counted:
	// a folded map of a large project writes a few of them.
	lines := make([][]string, len(m.Files))
	total := 0
	for i, f := range m.Files {
		lines[i] = make([]string, len(f.Definitions))
		total += len(f.Definitions)
	}
	if m.fullFits(lines, budget) {
		return m.render(lines, nil, total, nil), nil
	}
	rank := m.ranking()
	fold := m.folding()
	fits := func(n int) bool { return utf8.RuneCountInString(m.render(lines, rank[:n], total, fold)) <= budget }
	// The length grows with the number of definitions kept (nearly
	// monotonically: a kept definition adds its line and may add its
	// file's path), so the largest count that fits is found by bisection,
	// after steps that double from 1 (a budget keeps a few of many
	// definitions: their lines are all that is made).
	lo, step := 0, 1
	for lo+step <= len(rank) && fits(lo+step) {
		lo += step
		step *= 2
	}
	hi := min(lo+step-1, len(rank))
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out := m.render(lines, rank[:lo], total, fold)
	if utf8.RuneCountInString(out) > budget {
		out = cut(out, budget)
	}
	return out, rank[:lo:lo]
}

// fullFits reports whether the whole map is at most budget characters,
// making the definitions' lines only until it is longer.
func (m *Map) fullFits(lines [][]string, budget int) bool {
	n := 0
	for i, f := range m.Files {
		n += utf8.RuneCountInString(f.Path) + 1
		for j := range f.Definitions {
			if n > budget {
				return false
			}
			n += utf8.RuneCountInString(m.line(lines, i, j)) + 1
		}
	}
	return n <= budget
}

// line is the line of definition j of file i, made once into lines.
func (m *Map) line(lines [][]string, i, j int) string {
	if lines[i][j] == "" {
		lines[i][j] = "  " + m.Files[i].Definitions[j].line()
	}
	return lines[i][j]
}

// at names one definition: file i, definition j.
type at struct{ file, def int }

// ranking orders every definition by how much a reader needs it: project
// and engine first, then the most referenced, then by kind and place.
func (m *Map) ranking() []at {
	type ranked struct {
		at
		kind, refs int
	}
	var all []ranked
	for i, f := range m.Files {
		for j, d := range f.Definitions {
			all = append(all, ranked{at{i, j}, kindOrder(d.Kind), d.Refs})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if (a.kind < 2) != (b.kind < 2) {
			if a.kind < 2 {
				return -1
			}
			return 1
		}
		if a.refs != b.refs {
			return cmp.Compare(b.refs, a.refs)
		}
		return cmp.Compare(a.kind, b.kind) // equal: path, then line
	})
	out := make([]at, len(all))
	for i, r := range all {
		out[i] = r.at
	}
	return out
}

// folding is what a folded map's renders need of every file, made once
// for the dozen renders of Text: its folder and its definitions counted
// by kind.
type folding struct {
	dirs   []string
	counts []kindCounts
}

func (m *Map) folding() *folding {
	fold := &folding{dirs: make([]string, len(m.Files)), counts: make([]kindCounts, len(m.Files))}
	for i, f := range m.Files {
		fold.dirs[i] = path.Dir(f.Path)
		for _, d := range f.Definitions {
			fold.counts[i][kindOrder(d.Kind)]++
		}
	}
	return fold
}

var kinds = [...]string{"project", "engine", "table", "fn", "flow", "screen"}

func kindOrder(k string) int {
	for i, x := range kinds {
		if x == k {
			return i
		}
	}
	return len(kinds)
}

// render writes the map. keep == nil writes every definition; otherwise
// only those in keep, with the rest counted (fold is then m.folding()).
func (m *Map) render(lines [][]string, keep []at, total int, fold *folding) string {
	var b strings.Builder
	if keep == nil {
		for i, f := range m.Files {
			b.WriteString(f.Path + "\n")
			for j := range lines[i] {
				b.WriteString(m.line(lines, i, j) + "\n")
			}
		}
		return b.String()
	}
	// kept is flat, file i's definitions from first[i] on: one allocation
	// per render, as Text renders a dozen times while it bisects.
	shown := make([]int, len(m.Files))
	first := make([]int, len(m.Files)+1)
	for i, f := range m.Files {
		first[i+1] = first[i] + len(f.Definitions)
	}
	kept := make([]bool, first[len(m.Files)])
	for _, a := range keep {
		kept[first[a.file]+a.def] = true
		shown[a.file]++
	}
	fmt.Fprintf(&b, "(folded: %d of %d definitions shown, the most referenced; the rest are counted: %s)\n", len(keep), total, Rest)
	type folder struct {
		dir   string
		files int
		kinds kindCounts
	}
	var hidden []*folder // in path order of their first file
	byDir := map[string]*folder{}
	for i, f := range m.Files {
		if shown[i] == 0 {
			dir := fold.dirs[i]
			h := byDir[dir]
			if h == nil {
				h = &folder{dir: dir}
				byDir[dir] = h
				hidden = append(hidden, h)
			}
			h.files++
			for k, n := range fold.counts[i] {
				h.kinds[k] += n
			}
			continue
		}
		b.WriteString(f.Path + "\n")
		var rest kindCounts
		for j, d := range f.Definitions {
			if kept[first[i]+j] {
				b.WriteString(m.line(lines, i, j) + "\n")
			} else {
				rest[kindOrder(d.Kind)]++
			}
		}
		if n := len(f.Definitions) - shown[i]; n > 0 {
			fmt.Fprintf(&b, "  … %d more: %s\n", n, rest)
		}
	}
	sort.Slice(hidden, func(a, b int) bool { return hidden[a].dir < hidden[b].dir })
	for _, h := range hidden {
		fmt.Fprintf(&b, "%s/ … %d more %s", h.dir, h.files, words.Plural(h.files, "file"))
		if s := h.kinds.String(); s != "" {
			b.WriteString(": " + s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// kindCounts counts definitions by kind, indexed by kindOrder.
type kindCounts [len(kinds) + 1]int

// String writes the counts, the largest first: "8 fn, 4 table".
func (c kindCounts) String() string {
	order := make([]int, 0, len(c))
	for k, n := range c {
		if n > 0 {
			order = append(order, k)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return c[order[a]] > c[order[b]] })
	parts := make([]string, len(order))
	for i, k := range order {
		name := "unknown"
		if k < len(kinds) {
			name = kinds[k]
		}
		parts[i] = fmt.Sprintf("%d %s", c[k], name)
	}
	return strings.Join(parts, ", ")
}

// cut shortens s to at most budget characters, at a line end.
func cut(s string, budget int) string {
	n, end := 0, 0
	for i, r := range s {
		if n == budget {
			break
		}
		n++
		if r == '\n' {
			end = i + 1
		}
	}
	return s[:end]
}

// line is one definition as a line of the text.
func (d Definition) line() string {
	var b strings.Builder
	switch definitions.Kind(d.Kind) {
	case definitions.KindTable:
		fmt.Fprintf(&b, "table %s(%s)", d.Name, columnList(d.Columns))
		if len(d.Was) > 0 {
			b.WriteString(" was " + strings.Join(d.Was, "|"))
		}
		if len(d.Removed) > 0 {
			b.WriteString(" removed " + strings.Join(d.Removed, ", "))
		}
	case definitions.KindFn:
		fmt.Fprintf(&b, "fn %s(%s)", d.Name, columnList(d.Input))
		if len(d.Sends) > 0 {
			b.WriteString(" sends " + strings.Join(d.Sends, ", "))
		}
		if len(d.Calls) > 0 {
			b.WriteString(" calls " + strings.Join(d.Calls, ", "))
		}
	case definitions.KindFlow:
		fmt.Fprintf(&b, "flow %s(%s): %s", d.Name, columnList(d.Input), strings.Join(d.Steps, " → "))
		if len(d.Sends) > 0 {
			b.WriteString(" sends " + strings.Join(d.Sends, ", "))
		}
	case definitions.KindScreen:
		fmt.Fprintf(&b, "screen %s %s", d.Name, d.Path)
		if d.Title != "" {
			fmt.Fprintf(&b, " %q", d.Title)
		}
	case definitions.KindProject:
		fmt.Fprintf(&b, "project %s, users: %s", d.Name, d.Users)
		if len(d.Removed) > 0 {
			b.WriteString(", removed: " + strings.Join(d.Removed, ", "))
		}
	case definitions.KindEngine:
		b.WriteString("engine")
		if d.MailFrom != "" {
			b.WriteString(" mail from " + d.MailFrom)
		}
		if d.MailFrom != "" && len(d.HTTPAllow) > 0 {
			b.WriteString(",")
		}
		if len(d.HTTPAllow) > 0 {
			b.WriteString(" http to " + strings.Join(d.HTTPAllow, ", "))
		}
		if d.MailFrom == "" && len(d.HTTPAllow) == 0 {
			b.WriteString(" (nothing goes out)")
		}
	default:
		fmt.Fprintf(&b, "%s %s", d.Kind, d.Name)
	}
	var tail []string
	if d.Refs > 0 {
		tail = append(tail, words.Count(d.Refs, "ref"))
	}
	if d.Rows != nil {
		tail = append(tail, words.Count(*d.Rows, "row"))
	}
	if len(tail) > 0 {
		b.WriteString("  [" + strings.Join(tail, ", ") + "]")
	}
	return b.String()
}

// columnList folds columns into one list:
// `buyer→users, note text? private, status choice(new|paid)=new, placedAt time was created`.
func columnList(cols []Column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		var b strings.Builder
		b.WriteString(c.Name)
		switch {
		case c.Type == "ref":
			b.WriteString("→" + c.Ref)
		case c.Type == "choice":
			b.WriteString(" choice(" + strings.Join(c.Choices, "|") + ")")
		default:
			b.WriteString(" " + c.Type)
		}
		if c.Optional {
			b.WriteString("?")
		}
		if c.Default != nil {
			b.WriteString("=" + literal(c.Default))
		}
		if c.Private {
			b.WriteString(" private")
		}
		if c.Unique {
			b.WriteString(" unique")
		}
		if len(c.Was) > 0 {
			b.WriteString(" was " + strings.Join(c.Was, "|"))
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, ", ")
}

// literal writes a default value: strings bare, anything else as JSON.
func literal(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}
