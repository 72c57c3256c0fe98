package runner

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/runner/testdb"
)

// hiddenColumns are, by table, the private columns a screen's session
// leaves out of every row it hands app code (the prelude's shown): a
// screen's load and view never hold a private value, so no
// transformation of one (reversed, spaced, encoded) can reach the page.
// The secretSet below stays as a second line, for the values a session
// still meets (those it wrote itself, a function's answer of them).
func (a *app) hiddenColumns() map[string]any {
	out := map[string]any{}
	for name, t := range a.tables {
		var cols []any
		for _, c := range t.Schema.Columns {
			if c.Private {
				cols = append(cols, c.Name)
			}
		}
		if cols != nil {
			out[name] = cols
		}
	}
	return out
}

// shownUser is the user's row as the session hands it to app code: in a
// screen's session, without its private columns.
func (s *session) shownUser() testdb.Row {
	t := s.app.tables[s.app.users]
	if !s.screen || t == nil {
		return s.user
	}
	out := make(testdb.Row, len(s.user))
	for k, v := range s.user {
		out[k] = v
	}
	for _, c := range t.Schema.Columns {
		if c.Private {
			delete(out, c.Name)
		}
	}
	return out
}

// minSecretInText is the shortest private value hidden inside a longer
// text; a shorter one is hidden only where a text is exactly that value, so
// a private "no" does not blank every "not" of the page.
const minSecretInText = 4

// secretSet holds the private values a screen's load read: the values of
// the private columns of every row the test database handed it (and of the
// user it ran as). A screen never shows them (docs/pages/run.md): whatever way
// app code carries such a value into the view, the tree is cleaned of it
// before anything renders it.
type secretSet struct {
	private map[string]bool // the names of private columns, for keys
	values  map[string]bool
}

// newSecretSet makes an empty set over the names of private columns.
func newSecretSet(private map[string]bool) *secretSet {
	return &secretSet{private: private, values: map[string]bool{}}
}

// addRows keeps the private values of rows of table.
func (ss *secretSet) addRows(a *app, table string, rows []testdb.Row) {
	t := a.tables[table]
	if t == nil {
		return
	}
	for _, c := range t.Schema.Columns {
		if !c.Private {
			continue
		}
		for _, row := range rows {
			if text, ok := secretText(row[c.Name]); ok {
				ss.values[text] = true
			}
		}
	}
}

// secretText is how a private value stands in a text: strings as they
// are, numbers as JSON writes them; other values are not matched in text
// (their keys still are).
func secretText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case float64, int64, int, json.Number:
		b, err := json.Marshal(x)
		return string(b), err == nil
	}
	return "", false
}

// hide answers the element tree with every private value hidden: in an
// element's props, the value of any object key that names a private column
// is left out and a Table's columns lose the private ones; any text that is
// a private value, or holds one of minSecretInText characters or more, has
// it replaced by hiddenValue.
func (ss *secretSet) hide(tree any) any {
	switch x := tree.(type) {
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			out = append(out, ss.hide(e))
		}
		return out
	case map[string]any:
		if _, ok := x["type"].(string); !ok {
			return ss.hideData(x)
		}
		out := map[string]any{"type": x["type"]}
		if props, ok := x["props"].(map[string]any); ok {
			clean := make(map[string]any, len(props))
			for k, v := range props {
				clean[k] = ss.hideData(v)
			}
			if x["type"] == "Table" {
				if cols, ok := clean["columns"].([]any); ok {
					clean["columns"] = slices.DeleteFunc(cols, func(c any) bool {
						name, _ := c.(string)
						return ss.private[name]
					})
				}
			}
			out["props"] = clean
		} else {
			out["props"] = map[string]any{}
		}
		if kids, ok := x["children"].([]any); ok {
			out["children"] = ss.hide(kids)
		} else {
			out["children"] = []any{}
		}
		return out
	}
	return ss.hideData(tree)
}

// hideData hides private values in data the view handed a component: keys
// of private columns left out, texts cleaned.
func (ss *secretSet) hideData(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["type"].(string); ok {
			if _, ok := x["props"]; ok {
				return ss.hide(x) // an element given as a prop
			}
		}
		out := make(map[string]any, len(x))
		for k, val := range x {
			if ss.private[k] {
				continue
			}
			out[k] = ss.hideData(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ss.hideData(e)
		}
		return out
	case string:
		return ss.hideText(x)
	case float64:
		if t, ok := secretText(x); ok && ss.values[t] {
			return hiddenValue
		}
	}
	return v
}

// hideText replaces the private values in one text.
func (ss *secretSet) hideText(s string) string {
	if ss.values[s] {
		return hiddenValue
	}
	// Longest first, so a value that holds another is replaced whole.
	var long []string
	for v := range ss.values {
		if utf8.RuneCountInString(v) >= minSecretInText && strings.Contains(s, v) {
			long = append(long, v)
		}
	}
	slices.SortFunc(long, func(a, b string) int { return len(b) - len(a) })
	for _, v := range long {
		s = strings.ReplaceAll(s, v, hiddenValue)
	}
	return s
}

// hideLines cleans what the screen's code logged.
func (ss *secretSet) hideLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ss.hideText(l)
	}
	return out
}
