package change

import (
	"reflect"
	"strings"
	"testing"
)

func TestBuilderSet(t *testing.T) {
	a := []byte("export const orders = table({\n  columns: { buyer: ref('users') },\n})\n// orders are kept\nuse(ctx.db.orders)\n")
	td := []byte("[]\n")
	gone := []byte("ctx.db.orders\n")
	b := NewBuilder()
	name := strings.Index(string(a), "orders")
	b.Edit("tables/orders.ts", a, Edit{Start: name, End: name + 6, Text: "purchases"}, Edit{Start: name, End: name + 6, Text: "purchases"})
	cols := strings.Index(string(a), "  columns")
	b.Edit("tables/orders.ts", a, Edit{Start: cols, End: cols, Text: "  was: 'x',\n", Stated: true})
	comment := strings.Index(string(a), "orders are")
	b.Leave("tables/orders.ts", a, Span{comment, comment + 6}, "comment", "maybe")
	acc := strings.LastIndex(string(a), "orders")
	b.Leave("tables/orders.ts", a, Span{acc, acc + 6}, "db accessor", "likely")
	b.Leave("tables/orders.ts", a, Span{name, name + 6}, "string", "maybe") // replaced: not listed
	b.Move("testdata/orders.json", td, "testdata/purchases.json")
	b.Delete("lib/gone.ts")
	b.Leave("lib/gone.ts", gone, Span{7, 13}, "db accessor", "likely")
	s, err := b.Set()
	if err != nil {
		t.Fatal(err)
	}
	want := []Site{ // the likely first
		{Path: "tables/orders.ts", Line: 6, Col: 12, Text: "use(ctx.db.orders)", Why: "db accessor", Mark: "likely"},
		{Path: "tables/orders.ts", Line: 5, Col: 4, Text: "// orders are kept", Why: "comment", Mark: "maybe"},
	}
	if !reflect.DeepEqual(s.Left, want) {
		t.Errorf("left:\n%+v\nwant\n%+v", s.Left, want)
	}
	changed, err := s.Changed()
	if err != nil {
		t.Fatal(err)
	}
	wantChanged := []Line{{"tables/orders.ts", 1}, {"tables/orders.ts", 2}, {"testdata/purchases.json", 0}}
	if !reflect.DeepEqual(changed, wantChanged) {
		t.Errorf("changed %+v, want %+v", changed, wantChanged)
	}
	stated, _ := s.Stated()
	if !reflect.DeepEqual(stated, []Line{{"tables/orders.ts", 2}}) {
		t.Errorf("stated %+v", stated)
	}
	if !reflect.DeepEqual(s.Deletes, []string{"lib/gone.ts"}) {
		t.Errorf("deletes %v", s.Deletes)
	}
	// Each file's new text is made once, by Set, and shared by every
	// step that reads it; it is the text its edits make.
	for _, f := range s.Files {
		if len(f.Edits) == 0 {
			continue
		}
		first, _ := f.Result()
		again, _ := f.Result()
		if &first[0] != &again[0] {
			t.Errorf("%s: Result applied the edits again", f.Path)
		}
		if made, _ := Apply(f.Base, f.Edits); string(made) != string(first) {
			t.Errorf("%s: Result %q, the edits make %q", f.Path, first, made)
		}
	}
}

func TestSetValidate(t *testing.T) {
	x := []byte("x")
	tests := []struct {
		name string
		s    Set
		err  string
	}{
		{"edited and deleted", Set{Files: []*FileEdit{{Path: "a", Base: x}}, Deletes: []string{"a"}}, "both changed and deleted"},
		{"two onto one", Set{Files: []*FileEdit{{Path: "a", To: "c", Base: x}, {Path: "b", To: "c", Base: x}}}, "both move to c"},
		{"onto a staying file", Set{Files: []*FileEdit{{Path: "a", To: "b", Base: x}, {Path: "b", Base: x}}}, "which stays"},
		{"swap", Set{Files: []*FileEdit{{Path: "a", To: "b", Base: x}, {Path: "b", To: "a", Base: x}}}, ""},
		{"bad edit", Set{Files: []*FileEdit{{Path: "a", Base: x, Edits: []Edit{{Start: 0, End: 5}}}}}, "outside"},
	}
	for _, tt := range tests {
		err := tt.s.Validate()
		if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

// TestBuilderPlace lists left sites as Set places them: sorted by path,
// line and column whatever order they were left in, a site left twice
// listed once, two reasons at one place both listed in the order they were
// left, columns counted in code points, lines without their line end, and
// sites in an edited or moved file placed in its new text.
func TestBuilderPlace(t *testing.T) {
	type leave struct {
		path      string
		at        string // the text the site begins with, searched in base
		nth       int    // which occurrence of at (0 the first)
		why, mark string
	}
	plain := []byte("orders\r\nconst é = 'orders' + orders\r\n\r\n// orders\r\n")
	edited := []byte("const orders = 1\nuse(orders, 'orders')\n")
	moved := []byte("{\"orders\": 1}\n")
	bases := map[string][]byte{"lib/plain.ts": plain, "lib/edited.ts": edited, "testdata/orders.json": moved}
	tests := []struct {
		name  string
		build func(b *Builder)
		left  []leave
		want  []Site
	}{
		{
			name: "sorted, the likely first, each once",
			left: []leave{
				{"lib/plain.ts", "orders", 3, "comment", "maybe"},
				{"lib/plain.ts", "orders", 1, "string", "maybe"},
				{"lib/plain.ts", "orders", 0, "word", "maybe"},
				{"lib/plain.ts", "orders", 1, "string", "maybe"},
				{"lib/plain.ts", "orders", 2, "identifier", "likely"},
			},
			want: []Site{
				{"lib/plain.ts", 2, 22, "const é = 'orders' + orders", "identifier", "likely"},
				{"lib/plain.ts", 1, 1, "orders", "word", "maybe"},
				{"lib/plain.ts", 2, 12, "const é = 'orders' + orders", "string", "maybe"},
				{"lib/plain.ts", 4, 4, "// orders", "comment", "maybe"},
			},
		},
		{
			name: "two reasons at one place",
			left: []leave{
				{"lib/plain.ts", "orders", 2, "db accessor", "likely"},
				{"lib/plain.ts", "orders", 2, "identifier", "maybe"},
				{"lib/plain.ts", "orders", 2, "db accessor", "likely"},
				{"lib/plain.ts", "orders", 2, "db accessor", "maybe"},
			},
			want: []Site{
				{"lib/plain.ts", 2, 22, "const é = 'orders' + orders", "db accessor", "likely"},
				{"lib/plain.ts", 2, 22, "const é = 'orders' + orders", "identifier", "maybe"},
				{"lib/plain.ts", 2, 22, "const é = 'orders' + orders", "db accessor", "maybe"},
			},
		},
		{
			name: "edited and moved files, several files",
			build: func(b *Builder) {
				at := strings.Index(string(edited), "orders")
				b.Edit("lib/edited.ts", edited, Edit{Start: at, End: at + 6, Text: "purchases"}, Edit{Start: 0, End: 0, Text: "// renamed\n"})
				b.Move("testdata/orders.json", moved, "testdata/purchases.json")
			},
			left: []leave{
				{"testdata/orders.json", "orders", 0, "key", "maybe"},
				{"lib/edited.ts", "orders", 2, "string", "maybe"},
				{"lib/plain.ts", "orders", 0, "word", "maybe"},
				{"lib/edited.ts", "orders", 1, "identifier", "likely"},
				{"lib/edited.ts", "orders", 0, "string", "maybe"}, // replaced: not listed
			},
			want: []Site{
				{"lib/edited.ts", 3, 5, "use(orders, 'orders')", "identifier", "likely"},
				{"lib/edited.ts", 3, 14, "use(orders, 'orders')", "string", "maybe"},
				{"lib/plain.ts", 1, 1, "orders", "word", "maybe"},
				{"testdata/purchases.json", 1, 3, "{\"orders\": 1}", "key", "maybe"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder()
			if tt.build != nil {
				tt.build(b)
			}
			for _, l := range tt.left {
				base := bases[l.path]
				at := -1
				for i := 0; i <= l.nth; i++ {
					next := strings.Index(string(base[at+1:]), l.at)
					if next < 0 {
						t.Fatalf("%s has no occurrence %d of %q", l.path, l.nth, l.at)
					}
					at += 1 + next
				}
				b.Leave(l.path, base, Span{at, at + len(l.at)}, l.why, l.mark)
			}
			s, err := b.Set()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Left, tt.want) {
				t.Errorf("left:\n%+v\nwant\n%+v", s.Left, tt.want)
			}
		})
	}
}
