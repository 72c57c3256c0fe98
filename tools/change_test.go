package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/projectgen"
	"github.com/tent-tools/tent-tools/internal/soak"
	"github.com/tent-tools/tent-tools/model"
)

// opMaker makes random operations that a project's model makes likely to
// hold (and some that the project refuses).
type opMaker struct {
	r *rand.Rand
	m *model.Model
	n int
}

func (g *opMaker) pick(n int) int { return g.r.IntN(n) }

// value is a value that fits a column of the model, and whether one
// could be made (a ref to a table without rows cannot).
func (g *opMaker) value(m *model.Model, c model.Column, rows map[string][]string) (any, bool) {
	switch c.Type {
	case "text":
		return fmt.Sprintf("v%d", g.pick(100)), true
	case "int", "money":
		return g.pick(1000), true
	case "num":
		return 1.5, true
	case "bool":
		return g.pick(2) == 0, true
	case "time":
		return "2024-02-03T04:05:06Z", true
	case "json":
		return map[string]any{"k": g.pick(9)}, true
	case "choice":
		return c.Values[g.pick(len(c.Values))], true
	case "ref":
		ids := rows[*c.Ref]
		if len(ids) == 0 {
			return nil, false
		}
		return ids[g.pick(len(ids))], true
	}
	return nil, false
}

// op makes one operation.
func (g *opMaker) op(rows map[string][]string) map[string]any {
	g.n++
	m := g.m
	t := m.Tables[g.pick(len(m.Tables))]
	name := fmt.Sprintf("c%d", g.n)
	switch g.pick(12) {
	case 0:
		types := []map[string]any{
			{"type": "text", "optional": true}, {"type": "int", "default": 3}, {"type": "bool", "default": true},
			{"type": "money", "optional": true, "private": true}, {"type": "ref", "ref": m.Tables[g.pick(len(m.Tables))].Name, "optional": true},
			{"type": "choice", "values": []string{"a", "b"}, "default": "b"}, {"type": "time", "optional": true},
		}
		op := types[g.pick(len(types))]
		op["op"], op["table"], op["name"] = "addColumn", t.Name, name
		if len(t.Columns) > 0 && g.pick(2) == 0 {
			op["after"] = t.Columns[g.pick(len(t.Columns))].Name
		}
		return op
	case 1:
		if len(t.Columns) == 0 {
			break
		}
		c := t.Columns[g.pick(len(t.Columns))]
		op := map[string]any{"op": "setColumn", "column": t.Name + "." + c.Name}
		switch g.pick(4) {
		case 0:
			op["optional"] = !c.Optional
		case 1:
			op["private"] = !c.Private
		case 2:
			op["unique"] = !c.Unique
		default:
			op["type"], op["optional"], op["default"] = "json", true, nil
		}
		return op
	case 2:
		if len(t.Columns) < 2 {
			break
		}
		a, b := t.Columns[g.pick(len(t.Columns))], t.Columns[g.pick(len(t.Columns))]
		where := "after"
		if g.pick(2) == 0 {
			where = "before"
		}
		return map[string]any{"op": "moveColumn", "column": t.Name + "." + a.Name, where: b.Name}
	case 3:
		if len(t.Columns) == 0 {
			break
		}
		return map[string]any{"op": "rename", "name": t.Name + "." + t.Columns[g.pick(len(t.Columns))].Name, "to": name}
	case 4:
		if len(t.Columns) == 0 {
			break
		}
		return map[string]any{"op": "remove", "name": t.Name + "." + t.Columns[g.pick(len(t.Columns))].Name}
	case 5:
		if len(t.Columns) == 0 {
			break
		}
		return map[string]any{"op": "addIndex", "table": t.Name, "columns": []string{t.Columns[g.pick(len(t.Columns))].Name}}
	case 6:
		if len(t.Indexes) == 0 {
			break
		}
		return map[string]any{"op": "removeIndex", "table": t.Name, "columns": t.Indexes[g.pick(len(t.Indexes))]}
	case 7, 8:
		if len(m.Flows) == 0 || len(m.Functions) == 0 {
			break
		}
		f := m.Flows[g.pick(len(m.Flows))]
		switch {
		case g.pick(3) == 0 && len(f.Steps) > 1:
			return map[string]any{"op": "moveStep", "flow": f.Name, "from": g.pick(len(f.Steps)), "to": g.pick(len(f.Steps))}
		case g.pick(3) == 0 && len(f.Steps) > 1:
			return map[string]any{"op": "removeStep", "flow": f.Name, "at": g.pick(len(f.Steps))}
		default:
			return map[string]any{"op": "addStep", "flow": f.Name, "step": m.Functions[g.pick(len(m.Functions))].Name, "at": g.pick(len(f.Steps) + 1)}
		}
	case 9:
		row := map[string]any{}
		for _, c := range t.Columns {
			if c.Optional && g.pick(2) == 0 {
				continue
			}
			v, ok := g.value(m, c, rows)
			if !ok {
				return nil
			}
			row[c.Name] = v
		}
		return map[string]any{"op": "addRow", "table": t.Name, "row": row}
	case 10:
		ids := rows[t.Name]
		if len(ids) == 0 || len(t.Columns) == 0 {
			break
		}
		c := t.Columns[g.pick(len(t.Columns))]
		v, ok := g.value(m, c, rows)
		if !ok || c.Unique {
			break
		}
		if c.Optional && g.pick(2) == 0 {
			v = nil
		}
		return map[string]any{"op": "setRow", "table": t.Name, "id": ids[g.pick(len(ids))], "set": map[string]any{c.Name: v}}
	case 11:
		ids := rows[t.Name]
		if len(ids) == 0 {
			break
		}
		return map[string]any{"op": "removeRow", "table": t.Name, "id": ids[g.pick(len(ids))]}
	}
	return nil
}

// rowIDs are the ids of each table's test data rows.
func rowIDs(ix *definitions.Index) map[string][]string {
	out := map[string][]string{}
	for _, f := range ix.Files() {
		if f.TestData != nil {
			for _, r := range f.TestData.Rows {
				out[f.TestData.Table] = append(out[f.TestData.Table], r.ID)
			}
		}
	}
	return out
}

// TestChangeProperty: random operations, a few at a time, on generated
// projects. After each call the workspace's index is the index a fresh
// build reads of the files written (the same model, the same texts); a
// refused call writes nothing and records nothing; and undoing the points
// one by one, newest first, puts back the bytes each found.
func TestChangeProperty(t *testing.T) {
	ctx := context.Background()
	for seed := range soak.Rounds(3, 20) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := t.TempDir()
			if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 8, Seed: int64(seed)})); err != nil {
				t.Fatal(err)
			}
			w, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			var before []map[string]string // the files before each point
			var points []int
			applied, refused := 0, 0
			for range soak.Rounds(25, 120) {
				ix, err := w.Index(ctx)
				if err != nil {
					t.Fatal(err)
				}
				g := &opMaker{r: r, m: model.Build(ix, model.Options{}), n: applied*10 + refused}
				var list []map[string]any
				for len(list) < 1+r.IntN(3) {
					if op := g.op(rowIDs(ix)); op != nil {
						list = append(list, op)
					}
				}
				input, _ := json.Marshal(map[string]any{"ops": list})
				was := snapshot(t, dir)
				ans, err := Call(ctx, w, "change", input)
				if err != nil {
					var te *diag.ToolError
					if !asToolError(err, &te) {
						t.Fatalf("change %s: %v", input, err)
					}
					refused++
					t.Logf("refused %s: %v", input, err)
					if now := snapshot(t, dir); !maps.Equal(now, was) {
						t.Fatalf("the refused change %s (%v) wrote files", input, err)
					}
					continue
				}
				a := ans.Data.(*ChangeAnswer)
				if a.Point == nil {
					continue
				}
				applied++
				before, points = append(before, was), append(points, *a.Point)
				sameAsFresh(t, ctx, w, dir, string(input))
			}
			if applied == 0 {
				t.Fatalf("no call applied (%d refused)", refused)
			}
			for i := len(points) - 1; i >= 0; i-- {
				if _, err := Call(ctx, w, "undo", json.RawMessage(`{}`)); err != nil {
					t.Fatalf("undo of point %d: %v", points[i], err)
				}
				if now := snapshot(t, dir); !maps.Equal(now, before[i]) {
					t.Fatalf("undo of point %d: the files are not as they were before it:\n%s", points[i], mapDiff(before[i], now))
				}
			}
			t.Logf("seed %d: %d calls applied, %d refused", seed, applied, refused)
		})
	}
}

// asToolError reports whether err is a tool error (a refusal with a code).
func asToolError(err error, te **diag.ToolError) bool {
	e, ok := err.(*diag.ToolError)
	*te = e
	return ok && e.Code != ""
}

// sameAsFresh compares the workspace's index with a fresh build of the
// folder: every file's text and the model made of each.
func sameAsFresh(t *testing.T, ctx context.Context, w *Workspace, dir, after string) {
	t.Helper()
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := definitions.Build(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	texts := func(ix *definitions.Index) map[string]string {
		out := map[string]string{}
		for _, f := range ix.Files() {
			out[f.Path] = string(f.Src)
		}
		return out
	}
	if a, b := texts(ix), texts(fresh); !maps.Equal(a, b) {
		t.Fatalf("after %s the index's texts differ from a fresh build's:\n%s", after, mapDiff(b, a))
	}
	a, _ := json.Marshal(model.Build(ix, model.Options{}))
	b, _ := json.Marshal(model.Build(fresh, model.Options{}))
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("after %s the index's model differs from a fresh build's", after)
	}
	for _, f := range fresh.Findings() {
		if strings.HasPrefix(f.Code, "T1") {
			t.Fatalf("after %s a file does not read: %s %s", after, f.Code, f.Message)
		}
	}
}

// mapDiff names the keys whose values differ.
func mapDiff(want, got map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if g, ok := got[k]; !ok {
			fmt.Fprintf(&b, "  %s: gone\n", k)
		} else if g != v {
			fmt.Fprintf(&b, "  %s: differs\n--- want\n%s\n--- got\n%s\n", k, v, g)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  %s: new\n", k)
		}
	}
	return b.String()
}

// TestChangeKinds: each operation is judged by the kind of change it
// makes, as the policy page names them: a deny of that kind refuses it
// (nothing written), an ask of it asks the person once, who is asked
// with the change named.
func TestChangeKinds(t *testing.T) {
	cases := []struct {
		op, kind string
	}{
		{`{"op": "addTable", "name": "tags", "columns": {"label": {"type": "text"}}}`, "add:table"},
		{`{"op": "addColumn", "table": "orders", "name": "tip", "type": "money", "optional": true}`, "add:column"},
		{`{"op": "setColumn", "column": "orders.shipTo", "optional": true}`, "change:column"},
		{`{"op": "moveColumn", "column": "orders.note", "after": "status"}`, "tables/**"}, // the order of columns is no field of a definition
		{`{"op": "rename", "name": "orders.note", "to": "remark"}`, "rename:column"},
		{`{"op": "remove", "name": "orders.shippedAt"}`, "remove:column"},
		{`{"op": "addIndex", "table": "orders", "columns": ["status", "placedAt"]}`, "change:table"},
		{`{"op": "moveStep", "flow": "checkout", "from": 0, "to": 2}`, "change:flow"},
		{`{"op": "addStep", "flow": "checkout", "step": "notifyBuyer"}`, "change:flow"},
		{`{"op": "addRow", "table": "reviews", "row": {"product": "p1", "author": "u1", "rating": 5, "body": "Fine.", "postedAt": "2024-07-01T00:00:00Z"}}`, "testdata/**"},
	}
	for _, c := range cases {
		t.Run(c.kind+" "+c.op[8:20], func(t *testing.T) {
			input := json.RawMessage(`{"ops": [` + c.op + `]}`)
			deny := Policy{Allow: []string{"**"}, Deny: []string{c.kind}}
			w, dir := openCopy(t, Options{Policy: &deny})
			before := snapshot(t, dir)
			_, err := Call(context.Background(), w, "change", input)
			var te *diag.ToolError
			if !asToolError(err, &te) || te.Code != diag.T9105 {
				t.Fatalf("deny %s: %v; want T9105", c.kind, err)
			}
			if !maps.Equal(before, snapshot(t, dir)) {
				t.Fatal("a refused change wrote files")
			}
			ap := &countingApprover{yes: true}
			ask := Policy{Allow: []string{"**"}, Ask: []string{c.kind}}
			w2, _ := openCopy(t, Options{Policy: &ask, Approver: ap})
			ans, err := Call(context.Background(), w2, "change", input)
			if err != nil {
				t.Fatal(err)
			}
			if len(ap.asked) != 1 || ans.Data.(*ChangeAnswer).Point == nil {
				t.Errorf("ask %s: asked %q, answer %s", c.kind, ap.asked, ans.Text)
			}
		})
	}
}

// BenchmarkChangeOneOp: one operation (a column made optional) planned,
// judged and written, then undone, on a warm 1,000-table workspace.
func BenchmarkChangeOneOp(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	w, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	set := json.RawMessage(`{"ops": [{"op": "setColumn", "column": "accounts.phone", "optional": false}]}`)
	back := json.RawMessage(`{"ops": [{"op": "setColumn", "column": "accounts.phone", "optional": true}]}`)
	if _, err := Call(ctx, w, "change", back); err != nil { // warms the index
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		in := set
		if i%2 == 1 {
			in = back
		}
		if _, err := Call(ctx, w, "change", in); err != nil {
			b.Fatal(err)
		}
	}
}
