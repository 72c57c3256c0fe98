package change

import "strings"

// List is an array or object literal as written: the offsets of its
// brackets and the spans of its items (for an object, its whole
// properties; for a JSON object, its `"key": value` pairs). Its methods
// return edits that change the list the way a person would: an item on a
// line of its own goes with its line, and the list keeps its trailing-comma
// style.
type List struct {
	Open  int // offset of '[' or '{'
	Close int // offset of ']' or '}'
	Items []Span
}

// object reports whether the list is an object literal.
func (l List) object(src []byte) bool { return src[l.Open] == '{' }

// Multiline reports whether the list is laid out over several lines: its
// first item (or, when empty, its closing bracket) stands on a later line
// than its opening bracket.
func (l List) Multiline(src []byte) bool {
	first := l.Close
	if len(l.Items) > 0 {
		first = l.Items[0].Start
	}
	return strings.Contains(string(src[l.Open:first]), "\n")
}

// trailer reads what follows an item on its line: spaces, an optional
// comma, spaces and an optional line comment. comma is the comma's offset
// (-1 where there is none); end is the offset of the line end after all
// that, or -1 where something else follows the item on its line.
func trailer(src []byte, item Span) (comma, end int) {
	comma = -1
	i := SkipSpace(src, item.End)
	if i < len(src) && src[i] == ',' {
		comma = i
		i = SkipSpace(src, i+1)
	}
	if i+1 < len(src) && src[i] == '/' && src[i+1] == '/' {
		i = LineEnd(src, i)
	}
	if i == len(src) || src[i] == '\n' || (src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n') {
		return comma, i
	}
	return comma, -1
}

// ownLines reports whether an item stands on lines of its own: only
// indentation before it, and only a comma and a comment after it.
func ownLines(src []byte, item Span) bool {
	if !Blank(src, LineStart(src, item.Start), item.Start) {
		return false
	}
	_, end := trailer(src, item)
	return end >= 0
}

// Remove returns the edits that drop the items at the given indexes. A
// list left empty keeps only its brackets (`[]`, `{}`); a caller that
// wants the whole property gone drops that instead. In a list laid out one
// item a line, each dropped item goes with its line (and its trailing
// comment); otherwise it goes with the comma that separates it.
func (l List) Remove(src []byte, drop []int) []Edit {
	n := len(l.Items)
	gone := make([]bool, n)
	count := 0
	for _, i := range drop {
		if i >= 0 && i < n && !gone[i] {
			gone[i] = true
			count++
		}
	}
	switch {
	case count == 0:
		return nil
	case count == n:
		return []Edit{{Start: l.Open + 1, End: l.Close}}
	}
	lineMode := l.Multiline(src)
	for i := range n {
		if gone[i] && !ownLines(src, l.Items[i]) {
			lineMode = false
		}
	}
	if lineMode {
		return l.removeLines(src, gone)
	}
	return l.removeSpans(gone)
}

// removeLines drops each gone item with its lines. Where the last item goes
// and had no trailing comma, the comma after the new last item goes too, so
// the list keeps its style (and JSON stays JSON).
func (l List) removeLines(src []byte, gone []bool) []Edit {
	var edits []Edit
	n := len(l.Items)
	lastKept := -1
	for i, item := range l.Items {
		if !gone[i] {
			lastKept = i
			continue
		}
		_, end := trailer(src, item)
		edits = append(edits, Edit{Start: LineStart(src, item.Start), End: NextLine(src, end)})
	}
	if gone[n-1] && lastKept >= 0 {
		if comma, _ := trailer(src, l.Items[n-1]); comma < 0 {
			if c, _ := trailer(src, l.Items[lastKept]); c >= 0 {
				edits = append([]Edit{{Start: c, End: c + 1}}, edits...)
			}
		}
	}
	return edits
}

// removeSpans drops each run of gone items with the commas around it: a run
// followed by a kept item goes up to that item's start; a run at the end
// goes from the end of the kept item before it.
func (l List) removeSpans(gone []bool) []Edit {
	var edits []Edit
	n := len(l.Items)
	for i := 0; i < n; i++ {
		if !gone[i] {
			continue
		}
		j := i
		for j+1 < n && gone[j+1] {
			j++
		}
		if j+1 < n {
			edits = append(edits, Edit{Start: l.Items[i].Start, End: l.Items[j+1].Start})
		} else {
			edits = append(edits, Edit{Start: l.Items[i-1].End, End: l.Items[j].End})
		}
		i = j
	}
	return edits
}

// Append returns the edits that add items (their text as written) at the
// end of the list, in its layout: on the last item's line for a list on
// one line, each on a line of its own (at the last item's indentation,
// with a trailing comma where the list has one) for a list laid out over
// lines.
func (l List) Append(src []byte, texts []string, st Style) []Edit {
	return l.InsertAfter(src, len(l.Items)-1, texts, st)
}

// InsertAfter returns the edits that add items after the item at index i
// (at the start where i < 0), in the list's layout as Append does.
func (l List) InsertAfter(src []byte, i int, texts []string, st Style) []Edit {
	if len(texts) == 0 {
		return nil
	}
	if len(l.Items) == 0 {
		return l.appendEmpty(src, texts, st)
	}
	if i < 0 {
		return l.insertFirst(src, texts, st)
	}
	if i >= len(l.Items) {
		i = len(l.Items) - 1
	}
	isLast := i == len(l.Items)-1
	item := l.Items[i]
	comma, end := trailer(src, item)
	if !l.Multiline(src) || end < 0 {
		return []Edit{{Start: item.End, End: item.End, Text: ", " + strings.Join(texts, ", ")}}
	}
	indent := Indent(src, item.Start)
	// Inside the list every new item gets a comma; at its end, the list's
	// trailing-comma style decides.
	trailing := comma >= 0 || !isLast
	var b strings.Builder
	for k, t := range texts {
		if !trailing && k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(st.EOL + indent + t)
		if trailing {
			b.WriteByte(',')
		}
	}
	if comma >= 0 {
		return []Edit{{Start: end, End: end, Text: b.String()}}
	}
	if end == item.End {
		return []Edit{{Start: end, End: end, Text: "," + b.String()}}
	}
	return []Edit{{Start: item.End, End: item.End, Text: ","}, {Start: end, End: end, Text: b.String()}}
}

// insertFirst adds items before the first item.
func (l List) insertFirst(src []byte, texts []string, st Style) []Edit {
	first := l.Items[0]
	if !l.Multiline(src) || !ownLines(src, first) {
		return []Edit{{Start: first.Start, End: first.Start, Text: strings.Join(texts, ", ") + ", "}}
	}
	indent := Indent(src, first.Start)
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(indent + t + "," + st.EOL)
	}
	at := LineStart(src, first.Start)
	return []Edit{{Start: at, End: at, Text: b.String()}}
}

// appendEmpty fills an empty list: `[]` gets `['a']`, `{}` gets
// `{ a: 1 }`; a list whose brackets stand on different lines gets one item
// a line, with trailing commas.
func (l List) appendEmpty(src []byte, texts []string, st Style) []Edit {
	inner := src[l.Open+1 : l.Close]
	if strings.TrimSpace(string(inner)) != "" {
		// Only comments stand inside: keep them, and add after the bracket.
		return []Edit{{Start: l.Open + 1, End: l.Open + 1, Text: " " + strings.Join(texts, ", ") + ","}}
	}
	if strings.Contains(string(inner), "\n") {
		outer := Indent(src, l.Open)
		var b strings.Builder
		for _, t := range texts {
			b.WriteString(st.EOL + outer + st.Indent + t + ",")
		}
		b.WriteString(st.EOL + outer)
		return []Edit{{Start: l.Open + 1, End: l.Close, Text: b.String()}}
	}
	text := strings.Join(texts, ", ")
	if l.object(src) {
		text = " " + text + " "
	}
	return []Edit{{Start: l.Open + 1, End: l.Close, Text: text}}
}
