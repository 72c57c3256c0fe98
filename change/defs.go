package change

import "github.com/tent-tools/tent-tools/definitions"

// SpanOf converts a span of the index.
func SpanOf(s definitions.Span) Span { return Span(s) }

// ListOf returns the List of an array or object literal of the index
// (items for an array, properties for an object).
func ListOf(v *definitions.Value) List {
	l := List{Open: v.Span.Start, Close: v.Span.End - 1}
	if v.Kind == definitions.ValObject {
		for _, p := range v.Props {
			l.Items = append(l.Items, Span(p.Span))
		}
		return l
	}
	for _, it := range v.Items {
		l.Items = append(l.Items, Span(it.Span))
	}
	return l
}

// NameValueOf returns the NameValue of a `was` or `removed` value: a
// string literal or an array literal. ok is false for anything else.
func NameValueOf(v *definitions.Value) (NameValue, bool) {
	switch v.Kind {
	case definitions.ValString:
		return NameValue{Span: Span(v.Span)}, true
	case definitions.ValArray:
		l := ListOf(v)
		return NameValue{Span: Span(v.Span), List: &l}, true
	}
	return NameValue{}, false
}

// CallOf returns the Call of a builder call of the index.
func CallOf(v *definitions.Value) Call {
	c := Call{Span: Span(v.Span)}
	for i, a := range v.Items {
		c.Args = append(c.Args, Span(a.Span))
		if i == len(v.Items)-1 && a.Kind == definitions.ValObject {
			l := ListOf(a)
			c.Options = &l
		}
	}
	return c
}

// RowList returns the List of a test data row: its braces and its pairs.
func RowList(r definitions.Row) List {
	l := List{Open: r.Span.Start, Close: r.Span.End - 1}
	for _, k := range r.Keys {
		l.Items = append(l.Items, Span(k.Pair()))
	}
	return l
}

// StyleOf reads the style of a definition's file: its quote is the quote
// of the definition's first string literal where it has one (a file's
// JSX may quote otherwise than its tables), else the file's.
func StyleOf(src []byte, def *definitions.Definition) Style {
	st := DetectStyle(src)
	if def != nil && def.Arg != nil {
		if q := firstQuote(src, def.Arg); q != 0 {
			st.Quote = q
		}
	}
	return st
}

// firstQuote returns the quote of the first string literal in v.
func firstQuote(src []byte, v *definitions.Value) byte {
	if v == nil {
		return 0
	}
	switch v.Kind {
	case definitions.ValString:
		if c := src[v.Span.Start]; c == '\'' || c == '"' {
			return c
		}
	case definitions.ValArray, definitions.ValCall:
		for _, it := range v.Items {
			if q := firstQuote(src, it); q != 0 {
				return q
			}
		}
	case definitions.ValObject:
		for _, p := range v.Props {
			if q := firstQuote(src, p.Value); q != 0 {
				return q
			}
		}
	}
	return 0
}
