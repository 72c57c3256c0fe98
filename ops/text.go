package ops

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
)

// column is a column as an operation gives it (addTable's COLUMN,
// addColumn's fields): what its builder call says.
type column struct {
	name     string
	typ      string
	ref      string
	values   []string
	optional bool
	private  bool
	unique   bool
	def      json.RawMessage // nil where none
}

// callText writes a column's builder call in a file's style: `text()`,
// `ref('users', { optional: true })`, `choice(['a', 'b'], { default: 'a' })`.
// callee is the builder's name as the file imports it.
func callText(callee string, c column, st change.Style) string {
	var args []string
	switch c.typ {
	case "ref":
		args = append(args, st.Quoted(c.ref))
	case "choice":
		args = append(args, listText(c.values, st))
	}
	if opts := optionsText(c, st); opts != "" {
		args = append(args, opts)
	}
	return callee + "(" + strings.Join(args, ", ") + ")"
}

// optionsText writes a column's options object, "" where it has none.
func optionsText(c column, st change.Style) string {
	var opts []string
	if c.optional {
		opts = append(opts, "optional: true")
	}
	if c.private {
		opts = append(opts, "private: true")
	}
	if c.unique {
		opts = append(opts, "unique: true")
	}
	if c.def != nil {
		opts = append(opts, "default: "+literal(c.def, st))
	}
	if len(opts) == 0 {
		return ""
	}
	return "{ " + strings.Join(opts, ", ") + " }"
}

// listText writes names as an array of string literals on one line.
func listText(names []string, st change.Style) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = st.Quoted(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// literal writes a JSON value as a TypeScript literal: a string in the
// file's quotes, anything else as JSON writes it (a number as given).
func literal(raw json.RawMessage, st change.Style) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return st.Quoted(s)
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// jsonText writes a JSON value compactly, as a test data value.
func jsonText(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// jsonKey writes a key of a test data row.
func jsonKey(k string) string {
	b, _ := json.Marshal(k)
	return string(b)
}

// callee is the name under which file imports the builder from 'tent',
// and whether it does.
func callee(f *definitions.File, builder string) (string, bool) {
	if f == nil {
		return builder, false
	}
	for _, im := range f.Imports {
		if im.Module == "tent" && im.Imported == builder {
			return im.Local, true
		}
	}
	return builder, false
}

// importEdits are the edits that import builders from 'tent' where the
// file does not yet: appended to its named import from 'tent' (`{ table,
// text }` gives `{ table, text, money }`), or a new import line above its
// first import (at its top where it has none).
func importEdits(f *definitions.File, builders []string, st change.Style) []change.Edit {
	var need []string
	for _, b := range builders {
		if _, ok := callee(f, b); !ok && !contains(need, b) {
			need = append(need, b)
		}
	}
	if len(need) == 0 {
		return nil
	}
	last := -1
	first := -1
	for i, im := range f.Imports {
		if first < 0 || im.ModuleSpan.Start < f.Imports[first].ModuleSpan.Start {
			first = i
		}
		if im.Module == "tent" && im.Imported != "default" && im.Imported != "*" {
			if last < 0 || im.LocalSpan.End > f.Imports[last].LocalSpan.End {
				last = i
			}
		}
	}
	if last >= 0 {
		im := f.Imports[last]
		at := im.LocalSpan.End
		if ls := change.LineStart(f.Src, im.ImportedSpan.Start); change.Blank(f.Src, ls, im.ImportedSpan.Start) {
			// One name a line: each new name on a line of its own.
			indent := change.Indent(f.Src, im.ImportedSpan.Start)
			i := change.SkipSpace(f.Src, at)
			if i < len(f.Src) && f.Src[i] == ',' {
				end := change.LineEnd(f.Src, i)
				var b strings.Builder
				for _, n := range need {
					b.WriteString(st.EOL + indent + n + ",")
				}
				return []change.Edit{{Start: end, End: end, Text: b.String()}}
			}
			var b strings.Builder
			for _, n := range need {
				b.WriteString("," + st.EOL + indent + n)
			}
			return []change.Edit{{Start: at, End: at, Text: b.String()}}
		}
		return []change.Edit{{Start: at, End: at, Text: ", " + strings.Join(need, ", ")}}
	}
	at := 0
	if first >= 0 {
		at = change.LineStart(f.Src, f.Imports[first].ModuleSpan.Start)
	}
	return []change.Edit{{Start: at, End: at, Text: importLine(need, f.Src, st) + st.EOL}}
}

// importLine writes an import of builders from 'tent', with a semicolon
// where the file ends its imports with one.
func importLine(builders []string, src []byte, st change.Style) string {
	return "import { " + strings.Join(builders, ", ") + " } from " + st.Quoted("tent") + semicolon(src)
}

// semicolon is ";" where the file's statements end with one (its first
// import or export line does), else "".
func semicolon(src []byte) string {
	for off := 0; off < len(src); off = change.NextLine(src, off) {
		line := strings.TrimSpace(change.LineText(src, off))
		if strings.HasPrefix(line, "import ") {
			if strings.HasSuffix(line, ";") {
				return ";"
			}
			return ""
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// trailingComma reports whether a list laid out over lines ends with a
// comma after its last item.
func trailingComma(src []byte, l change.List) bool {
	if len(l.Items) == 0 {
		return true
	}
	i := change.SkipSpace(src, l.Items[len(l.Items)-1].End)
	return i < len(src) && src[i] == ','
}
