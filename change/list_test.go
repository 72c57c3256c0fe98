package change

import (
	"strings"
	"testing"
)

var ts = Style{Quote: '\'', EOL: "\n", Indent: "  "}

func TestListRemove(t *testing.T) {
	tests := []struct {
		name string
		in   string
		drop []int
		want string
	}{
		{"first inline", "x = §['a', 'b', 'c']", []int{0}, "x = ['b', 'c']"},
		{"middle inline", "x = §['a', 'b', 'c']", []int{1}, "x = ['a', 'c']"},
		{"last inline", "x = §['a', 'b', 'c']", []int{2}, "x = ['a', 'b']"},
		{"two at the end", "x = §['a', 'b', 'c']", []int{1, 2}, "x = ['a']"},
		{"first and last", "x = §['a', 'b', 'c']", []int{0, 2}, "x = ['b']"},
		{"all", "x = §['a', 'b']", []int{0, 1}, "x = []"},
		{"none", "x = §['a']", nil, "x = ['a']"},
		{"object inline", "x = §{ optional: true, was: 'a' }", []int{1}, "x = { optional: true }"},
		{"object inline first", "x = §{ was: 'a', optional: true }", []int{0}, "x = { optional: true }"},
		{"trailing comma inline", "x = §['a', 'b',]", []int{1}, "x = ['a',]"},
		{
			"lines, trailing commas", "x = §{\n  a: 1,\n  b: 2,\n  c: 3,\n}", []int{1},
			"x = {\n  a: 1,\n  c: 3,\n}",
		},
		{
			"lines, last without trailing comma", "x = §{\n  a: 1,\n  b: 2\n}", []int{1},
			"x = {\n  a: 1\n}",
		},
		{
			"lines, last with trailing comma", "x = §{\n  a: 1,\n  b: 2,\n}", []int{1},
			"x = {\n  a: 1,\n}",
		},
		{
			"lines, with a trailing comment", "x = §{\n  a: 1, // one\n  b: 2, // two\n}", []int{0},
			"x = {\n  b: 2, // two\n}",
		},
		{
			"lines, item over several lines", "x = §{\n  a: 1,\n  may: {\n    read: () => true,\n  },\n  c: 3,\n}", []int{1},
			"x = {\n  a: 1,\n  c: 3,\n}",
		},
		{
			"lines, two items on one line", "x = §{\n  a: 1, b: 2,\n  c: 3,\n}", []int{1},
			"x = {\n  a: 1, c: 3,\n}",
		},
		{
			"lines, CRLF", "x = §{\r\n  a: 1,\r\n  b: 2\r\n}", []int{1},
			"x = {\r\n  a: 1\r\n}",
		},
		{
			"json row, last key", "x = §{\n    \"id\": \"u1\",\n    \"buyer\": \"u2\"\n  }", []int{1},
			"x = {\n    \"id\": \"u1\"\n  }",
		},
		{"json row inline", "x = §{\"id\": \"u1\", \"buyer\": \"u2\", \"n\": 1}", []int{1}, "x = {\"id\": \"u1\", \"n\": 1}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, l := parseList(t, tt.in)
			if got := apply(t, src, l.Remove(src, tt.drop)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestListAppend(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		texts []string
		want  string
	}{
		{"inline array", "x = §['a']", []string{"'b'"}, "x = ['a', 'b']"},
		{"inline two", "x = §['a']", []string{"'b'", "'c'"}, "x = ['a', 'b', 'c']"},
		{"empty array", "x = §[]", []string{"'a'"}, "x = ['a']"},
		{"empty object", "x = §{}", []string{"a: 1"}, "x = { a: 1 }"},
		{"inline object", "x = §{ a: 1 }", []string{"b: 2"}, "x = { a: 1, b: 2 }"},
		{
			"lines with trailing comma", "x = §{\n  a: 1,\n  b: 2,\n}", []string{"c: 3"},
			"x = {\n  a: 1,\n  b: 2,\n  c: 3,\n}",
		},
		{
			"lines without trailing comma", "x = §{\n  a: 1,\n  b: 2\n}", []string{"c: 3", "d: 4"},
			"x = {\n  a: 1,\n  b: 2,\n  c: 3,\n  d: 4\n}",
		},
		{
			"lines, comment after the last", "x = §{\n  a: 1 // one\n}", []string{"c: 3"},
			"x = {\n  a: 1, // one\n  c: 3\n}",
		},
		{
			"lines, tabs and CRLF", "x = §{\r\n\ta: 1,\r\n}", []string{"c: 3"},
			"x = {\r\n\ta: 1,\r\n\tc: 3,\r\n}",
		},
		{
			"last item on the closing line", "x = §[\n  'a',\n  'b']", []string{"'c'"},
			"x = [\n  'a',\n  'b', 'c']",
		},
		{
			"empty over lines", "x = {\n  y: §{\n  },\n}", []string{"a: 1"},
			"x = {\n  y: {\n    a: 1,\n  },\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, l := parseList(t, tt.in)
			st := ts
			st.EOL = EOL(src)
			if got := apply(t, src, l.Append(src, tt.texts, st)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestListInsertAfter(t *testing.T) {
	tests := []struct {
		name string
		in   string
		at   int
		want string
	}{
		{"inline middle", "x = §{ a: 1, c: 3 }", 0, "x = { a: 1, b: 2, c: 3 }"},
		{"inline first", "x = §{ a: 1 }", -1, "x = { b: 2, a: 1 }"},
		{"lines middle, no trailing comma", "x = §{\n  a: 1,\n  c: 3\n}", 0, "x = {\n  a: 1,\n  b: 2,\n  c: 3\n}"},
		{"lines first", "x = §{\n  a: 1\n}", -1, "x = {\n  b: 2,\n  a: 1\n}"},
		{
			"lines after a nested object", "x = §{\n  a: {\n    q: 1,\n  },\n  c: 3,\n}", 0,
			"x = {\n  a: {\n    q: 1,\n  },\n  b: 2,\n  c: 3,\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, l := parseList(t, tt.in)
			if got := apply(t, src, l.InsertAfter(src, tt.at, []string{"b: 2"}, ts)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name string
		in   string
		add  []string
		keep int
		want string
	}{
		{"string to array", "x = { was: §'a' }", []string{"b"}, 0, "x = { was: ['a', 'b'] }"},
		{"the list's own quotes", "x = { was: §\"a\" }", []string{"b"}, 0, "x = { was: [\"a\", \"b\"] }"},
		{"array append", "x = { was: §['a', 'b'] }", []string{"c"}, 0, "x = { was: ['a', 'b', 'c'] }"},
		{"cut to one is a string", "x = { was: §['a', 'b', 'c'] }", nil, 1, "x = { was: 'a' }"},
		{"cut to two", "x = { was: §['a', 'b', 'c'] }", nil, 2, "x = { was: ['a', 'b'] }"},
		{"cut a string", "x = { was: §'a' }", nil, 1, "x = { was: 'a' }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marked := tt.in
			at := strings.Index(marked, "§")
			src := []byte(marked[:at] + marked[at+len("§"):])
			v := NameValue{Span: Span{at, at}}
			if src[at] == '[' {
				_, l := parseList(t, marked)
				v.List = &l
				v.Span.End = l.Close + 1
			} else {
				end := at + 1
				for src[end] != src[at] {
					end++
				}
				v.Span.End = end + 1
			}
			var edits []Edit
			if tt.add != nil {
				edits = AppendNames(src, v, tt.add, ts)
			} else {
				edits = CutNames(src, v, tt.keep)
			}
			if got := apply(t, src, edits); got != tt.want {
				t.Errorf("got %s want %s", got, tt.want)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	add := []struct{ in, want string }{
		{"x = §text()", "x = text({ was: 'a' })"},
		{"x = §ref('users')", "x = ref('users', { was: 'a' })"},
		{"x = §choice(['n', 'p'])", "x = choice(['n', 'p'], { was: 'a' })"},
		{"x = §text({ optional: true })", "x = text({ optional: true, was: 'a' })"},
		{"x = §ref('users', { optional: true })", "x = ref('users', { optional: true, was: 'a' })"},
		{"x = §text({})", "x = text({ was: 'a' })"},
	}
	for _, tt := range add {
		src, c := parseCall(t, tt.in)
		if got := apply(t, src, AddOption(src, c, "was", "'a'", ts)); got != tt.want {
			t.Errorf("add to %s: got %s want %s", tt.in, got, tt.want)
		}
	}
	drop := []struct {
		in   string
		i    int
		want string
	}{
		{"x = §time({ was: 'a' })", 0, "x = time()"},
		{"x = §ref('users', { was: 'a' })", 0, "x = ref('users')"},
		{"x = §text({ optional: true, was: 'a' })", 1, "x = text({ optional: true })"},
		{"x = §text({ was: 'a', optional: true })", 0, "x = text({ optional: true })"},
		{"x = §time({ was: 'a' }, )", 0, "x = time()"},
	}
	for _, tt := range drop {
		src, c := parseCall(t, tt.in)
		if got := apply(t, src, DropOption(src, c, tt.i)); got != tt.want {
			t.Errorf("drop from %s: got %s want %s", tt.in, got, tt.want)
		}
	}
}
