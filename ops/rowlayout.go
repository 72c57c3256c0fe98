package ops

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
)

// rowLayout is how a test data file writes its rows, read from the row a
// new one goes beside (the last), as a person adding a row copies the one
// above it: on one line or over lines, the spaces inside its braces,
// around its colons and after its commas, and any alignment of the rows
// into columns (docs/pages/model.md, "Formatting").
type rowLayout struct {
	multiline bool   // a key a line
	rowIndent string // where the row's braces stand (over lines)
	keyIndent string // where its keys stand (over lines)
	eol       string
	open      string // on one line: "{" and the spaces after it
	close     string // on one line: the spaces before "}" and it
	colon     string // between a key and its value: ": ", ":", " : "
	sep       string // on one line: between one pair and the next
	// alignValues: over lines, the values of a row start at one column.
	// valueCol is that column (in code points from the line's start) in
	// the row copied, 0 where there is none to keep.
	// padBefore: the padding stands before the colon (`"id"   : 1`).
	alignValues bool
	valueCol    int
	padBefore   bool
	// keyCols: on one line, the rows' keys stand in columns; each key's
	// offset (in code points) from the row's "{". width is the offset of
	// the rows' "}" where they all end at one column, else 0.
	keyCols map[string]int
	width   int
	order   []string // the keys of the row copied, in its order
}

// defaultRowLayout is a row over lines, one level in from its array.
func defaultRowLayout(rowIndent string, st change.Style) rowLayout {
	return rowLayout{multiline: true, rowIndent: rowIndent, keyIndent: rowIndent + st.Indent,
		eol: st.EOL, open: "{", close: "}", colon: ": ", sep: ", "}
}

// layoutOf reads a test data file's row layout from its last row (and,
// for what pads, from all its rows: the tightest colon of any row, the
// tightest braces and separators of the rows on one line, and their
// columns); a file without rows gets one key a line, one level in from
// its array.
func layoutOf(src []byte, l change.List, rows []definitions.Row) rowLayout {
	st := jsonStyle(src)
	if len(rows) == 0 {
		return defaultRowLayout(change.Indent(src, l.Open)+st.Indent, st)
	}
	r := rows[len(rows)-1]
	lay := defaultRowLayout(change.Indent(src, r.Span.Start), st)
	if len(r.Keys) == 0 {
		return lay
	}
	first := r.Keys[0].Pair()
	lay.multiline = oneKeyALine(src, r)
	lay.keyIndent = change.Indent(src, first.Start)
	for _, k := range r.Keys {
		lay.order = append(lay.order, k.Name.Name)
	}
	// The tightest of the file's colons is its own; a longer one is padding.
	open, close, sep, colon := "", "", "", ""
	tighter := func(cur, s string) string {
		if cur == "" || len(s) < len(cur) {
			return s
		}
		return cur
	}
	for _, row := range rows {
		for i, k := range row.Keys {
			colon = tighter(colon, string(src[k.Name.Lit.End:k.ValueSpan.Start]))
			if i > 0 && !oneKeyALine(src, row) {
				sep = tighter(sep, string(src[row.Keys[i-1].Pair().End:k.Pair().Start]))
			}
		}
		if len(row.Keys) > 0 && !oneKeyALine(src, row) {
			open = tighter(open, string(src[row.Span.Start:row.Keys[0].Pair().Start]))
			close = tighter(close, string(src[row.Keys[len(row.Keys)-1].Pair().End:row.Span.End]))
		}
	}
	if spacedMark(colon, ':') {
		lay.colon = colon
	}
	if spacedMark(sep, ',') {
		lay.sep = sep
	}
	if strings.TrimRight(open, " \t") == "{" {
		lay.open = open
	}
	if strings.TrimLeft(close, " \t") == "}" {
		lay.close = close
	}
	if lay.multiline {
		lay.alignValues, lay.valueCol, lay.padBefore = valueColumn(src, r, lay.colon)
		return lay
	}
	lay.keyColumns(src, rows)
	return lay
}

// oneKeyALine reports whether a row is laid out over lines: its first key
// on a later line than its "{".
func oneKeyALine(src []byte, r definitions.Row) bool {
	return len(r.Keys) > 0 && bytes.Contains(src[r.Span.Start:r.Keys[0].Pair().Start], []byte("\n"))
}

// spacedMark reports whether s is mark with spaces (no line end) around it.
func spacedMark(s string, mark byte) bool {
	t := strings.Trim(s, " \t")
	return len(t) == 1 && t[0] == mark
}

// valueColumn reads whether a row over lines aligns its values: two or
// more of its keys have their values at one column, past a colon longer
// than the tightest (a key too long for the column may stick out); col is
// the column most of them share, and before whether the padding stands
// before the colon.
func valueColumn(src []byte, r definitions.Row, tight string) (aligned bool, col int, before bool) {
	count := map[int]int{}
	padded := map[int]bool{}
	pre := map[int]bool{}
	for _, k := range r.Keys {
		c := utf8.RuneCount(src[change.LineStart(src, k.ValueSpan.Start):k.ValueSpan.Start])
		count[c]++
		if colon := string(src[k.Name.Lit.End:k.ValueSpan.Start]); len(colon) > len(tight) {
			padded[c] = true
			pre[c] = pre[c] || strings.IndexByte(colon, ':') > strings.IndexByte(tight, ':')
		}
	}
	best := -1
	for c, n := range count {
		if n >= 2 && padded[c] && (best < 0 || n > count[best] || (n == count[best] && c < best)) {
			best = c
		}
	}
	if best < 0 {
		return false, 0, false
	}
	return true, best, pre[best]
}

// keyColumns reads whether the file's rows on one line stand as a table:
// each key at one offset from its row's "{" in every row that has it, and
// some row padded to keep it so. Where the rows also end at one offset,
// that is the layout's width.
func (lay *rowLayout) keyColumns(src []byte, rows []definitions.Row) {
	cols := map[string]int{}
	width, padded, lines := -1, false, 0
	for _, r := range rows {
		if len(r.Keys) == 0 || bytes.Contains(src[r.Span.Start:r.Span.End], []byte("\n")) {
			continue
		}
		lines++
		for i, k := range r.Keys {
			at := utf8.RuneCount(src[r.Span.Start:k.Pair().Start])
			if c, ok := cols[k.Name.Name]; ok && c != at {
				return
			}
			cols[k.Name.Name] = at
			if i > 0 && len(src[r.Keys[i-1].Pair().End:k.Pair().Start]) > len(lay.sep) {
				padded = true
			}
		}
		w := utf8.RuneCount(src[r.Span.Start:r.Span.End]) - 1
		switch {
		case width < 0:
			width = w
		case width != w:
			width = 0
		}
	}
	if lines < 2 || !padded {
		return
	}
	lay.keyCols = cols
	if width > 0 {
		lay.width = width
	}
}

// ordered puts a new row's keys in the order of the row it is copied
// from; a key that row lacks stays after the key it followed as given.
func (lay rowLayout) ordered(keys []string) []string {
	rank := map[string]int{}
	for i, k := range lay.order {
		rank[k] = i
	}
	// Each key sorts by the rank of the nearest known key at or before
	// it as given, then by where it was given.
	type ranked struct {
		key        string
		rank, from int
	}
	rs := make([]ranked, len(keys))
	prev := -1
	for i, k := range keys {
		if r, ok := rank[k]; ok {
			prev = r
		}
		rs[i] = ranked{k, prev, i}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.key
	}
	return out
}

// rowText writes a row of keys and their values' texts in the layout.
func (lay rowLayout) rowText(keys []string, vals map[string]string) string {
	if !lay.multiline {
		return lay.lineText(keys, vals)
	}
	col := 0
	if lay.alignValues {
		col = lay.valueCol
		for _, k := range keys {
			col = max(col, utf8.RuneCountInString(lay.keyIndent+jsonKey(k)+lay.colon))
		}
	}
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		b.WriteString(lay.eol + lay.keyIndent + lay.pair(k, vals[k], col))
		if i < len(keys)-1 {
			b.WriteString(",")
		}
	}
	b.WriteString(lay.eol + lay.rowIndent + "}")
	return b.String()
}

// pair writes a key and its value over lines, the value at column col
// (counted from the line's start, at the layout's key indent) where the
// key leaves room, padded as the layout pads.
func (lay rowLayout) pair(k, val string, col int) string {
	head := jsonKey(k) + lay.colon
	pad := strings.Repeat(" ", max(0, col-utf8.RuneCountInString(lay.keyIndent+head)))
	if lay.padBefore {
		return jsonKey(k) + pad + lay.colon + val
	}
	return head + pad + val
}

// insertKey is the edits that add a key and its value's text to a row
// after its key at (first where at < 0), written as the file writes its
// keys (file, its layout): its colon; over lines, at the row's value column
// where it aligns its values; on one line, its separator, the pair put
// before the next key so that keys standing in columns stay so, or after
// the last one at column col (0: right after it), its "}" then right
// after it too where the file's rows end at one column.
func insertKey(src []byte, r definitions.Row, at int, key, val string, file rowLayout, col int, st change.Style) []change.Edit {
	l := change.RowList(r)
	if len(r.Keys) == 0 {
		return l.InsertAfter(src, at, []string{jsonKey(key) + file.colon + val}, st)
	}
	if oneKeyALine(src, r) {
		lay := file
		lay.keyIndent = change.Indent(src, r.Keys[0].Pair().Start)
		lay.alignValues, lay.valueCol, lay.padBefore = valueColumn(src, r, file.colon)
		c := 0
		if lay.alignValues {
			c = lay.valueCol
		}
		return l.InsertAfter(src, at, []string{lay.pair(key, val, c)}, st)
	}
	text := jsonKey(key) + file.colon + val
	if at+1 < len(r.Keys) {
		next := r.Keys[at+1].Pair().Start
		return []change.Edit{{Start: next, End: next, Text: text + file.sep}}
	}
	end, upto := r.Keys[at].Pair().End, r.Keys[at].Pair().End
	sep := file.sep
	if col > 0 {
		if pad := col - utf8.RuneCount(src[r.Span.Start:end]) - utf8.RuneCountInString(sep); pad > 0 {
			sep += strings.Repeat(" ", pad)
		}
		if file.width > 0 {
			// The old padding before "}" goes: every row's new pair ends at
			// one column, and its "}" right after.
			upto = r.Span.End - len(file.close)
		}
	}
	return []change.Edit{{Start: end, End: upto, Text: sep + text}}
}

// setValue is the edits that put a new value's text in the place of the
// value of a row's key i. In rows on one line that stand as a table (the
// file's layout has columns), the gap after the value is made again so
// that the key after it stands at its column (and the "}" at its, where
// the rows end at one) as far as the new value leaves room.
func setValue(src []byte, r definitions.Row, i int, val string, file rowLayout) []change.Edit {
	vs := r.Keys[i].ValueSpan
	edits := []change.Edit{{Start: vs.Start, End: vs.End, Text: val}}
	if file.keyCols == nil || oneKeyALine(src, r) {
		return edits
	}
	end := utf8.RuneCount(src[r.Span.Start:vs.Start]) + utf8.RuneCountInString(val)
	switch {
	case i+1 < len(r.Keys):
		c, ok := file.keyCols[r.Keys[i+1].Name.Name]
		if !ok {
			return edits
		}
		gap := file.sep + strings.Repeat(" ", max(0, c-end-utf8.RuneCountInString(file.sep)))
		return []change.Edit{{Start: vs.Start, End: r.Keys[i+1].Pair().Start, Text: val + gap}}
	case file.width > 0:
		pad := strings.Repeat(" ", max(0, file.width-end-utf8.RuneCountInString(file.close)+1))
		return []change.Edit{{Start: vs.Start, End: r.Span.End - len(file.close), Text: val + pad}}
	}
	return edits
}

// lineText writes a row on one line, each key at its column where the
// rows stand as a table and the text before it leaves room.
func (lay rowLayout) lineText(keys []string, vals map[string]string) string {
	var b strings.Builder
	b.WriteString(lay.open)
	n := utf8.RuneCountInString(lay.open)
	for i, k := range keys {
		if i > 0 {
			sep := lay.sep
			if c, ok := lay.keyCols[k]; ok && c > n+utf8.RuneCountInString(sep) {
				sep += strings.Repeat(" ", c-n-utf8.RuneCountInString(sep))
			}
			b.WriteString(sep)
			n += utf8.RuneCountInString(sep)
		}
		p := jsonKey(k) + lay.colon + vals[k]
		b.WriteString(p)
		n += utf8.RuneCountInString(p)
	}
	if pad := lay.width - n - utf8.RuneCountInString(lay.close) + 1; lay.width > 0 && pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	b.WriteString(lay.close)
	return b.String()
}

// appendRow is the edit that adds a row's text after a file's last row,
// parted from it as the last row is from the one before (", ", ",\n  ", a
// blank line between rows); in an empty array, on a line of its own.
func appendRow(src []byte, l change.List, rows []definitions.Row, lay rowLayout, text string) change.Edit {
	if len(rows) == 0 {
		outer := change.Indent(src, l.Open)
		if !bytes.Contains(src[l.Open:l.Close], []byte("\n")) {
			outer = ""
		}
		return change.Edit{Start: l.Open + 1, End: l.Close, Text: lay.eol + lay.rowIndent + text + lay.eol + outer}
	}
	last := rows[len(rows)-1].Span
	gap := ""
	if len(rows) > 1 {
		gap = string(src[rows[len(rows)-2].Span.End:last.Start])
	}
	if !spacedGap(gap) {
		gap = ", "
		if bytes.Contains(src[l.Open:last.Start], []byte("\n")) {
			gap = "," + lay.eol + change.Indent(src, last.Start)
		} else if !strings.HasSuffix(lay.sep, " ") {
			gap = ","
		}
	}
	return change.Edit{Start: last.End, End: last.End, Text: gap + text}
}

// spacedGap reports whether s is what stands between two rows: one comma
// among spaces and line ends.
func spacedGap(s string) bool {
	return strings.Count(s, ",") == 1 && strings.Trim(s, " \t\r\n,") == ""
}
