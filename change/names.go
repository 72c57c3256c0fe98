package change

import "strings"

// NameValue is the value of a `was` or `removed` property as written: one
// string literal, or an array literal of string literals (List set).
type NameValue struct {
	Span Span
	List *List
}

// AppendNames returns the edits that append names to a name value. A
// string literal becomes an array that keeps it as written: `'a'` and `b`
// give `['a', 'b']`.
//
// The names are quoted as the value's own entries are (its first string
// literal's quote), whatever st says, so that one list never mixes 'a' and
// "b"; st's quote is for a value with no entries.
func AppendNames(src []byte, v NameValue, names []string, st Style) []Edit {
	if len(names) == 0 {
		return nil
	}
	if q := v.quote(src); q != 0 {
		st.Quote = q
	}
	quoted := st.quotedAll(names)
	if v.List == nil {
		text := "[" + string(src[v.Span.Start:v.Span.End]) + ", " + strings.Join(quoted, ", ") + "]"
		return []Edit{{Start: v.Span.Start, End: v.Span.End, Text: text}}
	}
	return v.List.Append(src, quoted, st)
}

// quote is the quote of the value's first string literal, or 0 where it
// has none (an empty array).
func (v NameValue) quote(src []byte) byte {
	start := v.Span.Start
	if v.List != nil {
		if len(v.List.Items) == 0 {
			return 0
		}
		start = v.List.Items[0].Start
	}
	if start < len(src) && (src[start] == '\'' || src[start] == '"') {
		return src[start]
	}
	return 0
}

// CutNames returns the edits that keep only the first keep names (keep >=
// 1) of a name value. One name left is written as a plain string literal,
// as docs/pages/format.md §3 asks; a caller that keeps none drops the property.
func CutNames(src []byte, v NameValue, keep int) []Edit {
	if v.List == nil || keep >= len(v.List.Items) {
		return nil
	}
	if keep == 1 {
		first := v.List.Items[0]
		return []Edit{{Start: v.Span.Start, End: v.Span.End, Text: string(src[first.Start:first.End])}}
	}
	drop := make([]int, 0, len(v.List.Items)-keep)
	for i := keep; i < len(v.List.Items); i++ {
		drop = append(drop, i)
	}
	return v.List.Remove(src, drop)
}

// ArrayText writes names as an array literal on one line, as a new
// `removed` is written, in the quote most of the file's string literals
// use (DetectStyle of src): a new list has no entries of its own to
// follow.
func ArrayText(src []byte, names []string, st Style) string {
	st.Quote = detectQuote(src)
	return "[" + strings.Join(st.quotedAll(names), ", ") + "]"
}

// Call is a builder call as written, such as `text({ optional: true })` or
// `ref('users')`: its whole span, its arguments, and its options object
// (the last argument, where that is an object literal).
type Call struct {
	Span    Span
	Args    []Span
	Options *List
}

// AddOption returns the edits that add `key: value` to a call's options,
// making the options object where there is none: `text()` gives
// `text({ was: 'a' })`, `ref('users')` gives `ref('users', { was: 'a' })`.
func AddOption(src []byte, c Call, key, value string, st Style) []Edit {
	prop := key + ": " + value
	if c.Options != nil {
		return c.Options.Append(src, []string{prop}, st)
	}
	if len(c.Args) > 0 {
		end := c.Args[len(c.Args)-1].End
		return []Edit{{Start: end, End: end, Text: ", { " + prop + " }"}}
	}
	closing := c.Span.End - 1
	for closing > c.Span.Start && src[closing] != ')' {
		closing--
	}
	open := closing - 1
	for open > c.Span.Start && src[open] != '(' {
		open--
	}
	// Replace whatever blank stands between the parentheses.
	return []Edit{{Start: open + 1, End: closing, Text: "{ " + prop + " }"}}
}

// DropOption returns the edits that drop the option at index i of a call's
// options object. An options object left empty goes with its argument:
// `time({ was: 'a' })` gives `time()`, `ref('users', { was: 'a' })` gives
// `ref('users')`.
func DropOption(src []byte, c Call, i int) []Edit {
	if c.Options == nil {
		return nil
	}
	if len(c.Options.Items) > 1 {
		return c.Options.Remove(src, []int{i})
	}
	n := len(c.Args)
	if n == 0 {
		return nil
	}
	arg := c.Args[n-1]
	if n == 1 {
		end := arg.End
		if i := SkipSpace(src, end); i < len(src) && src[i] == ',' {
			end = SkipSpace(src, i+1) // `time({ was: 'a' }, )` gives `time()`
		}
		return []Edit{{Start: arg.Start, End: end}}
	}
	return []Edit{{Start: c.Args[n-2].End, End: arg.End}}
}
