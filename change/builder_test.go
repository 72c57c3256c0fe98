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
	want := []Site{
		{Path: "tables/orders.ts", Line: 5, Col: 4, Text: "// orders are kept", Why: "comment", Mark: "maybe"},
		{Path: "tables/orders.ts", Line: 6, Col: 12, Text: "use(ctx.db.orders)", Why: "db accessor", Mark: "likely"},
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
