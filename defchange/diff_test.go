package defchange

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
)

// files indexes texts (path -> text) and returns their files, by path.
func files(t *testing.T, texts map[string]string) []*definitions.File {
	t.Helper()
	in := map[string][]byte{}
	for p, s := range texts {
		in[p] = []byte(s)
	}
	return definitions.FromFiles(context.Background(), in).Files()
}

// show writes changes one a line, as the tests expect them.
func show(cs []DefChange) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s:%s %s", c.Action, c.Kind, c.Definition)
		if c.To != "" {
			fmt.Fprintf(&b, " -> %s", c.To)
		}
		for _, f := range c.Fields {
			fmt.Fprintf(&b, " | %s: %q -> %q", f.Path, f.Old, f.New)
		}
		b.WriteString("\n")
	}
	return b.String()
}

const ordersTS = `import { table, text, money, ref, time } from 'tent'

export const orders = table({
  columns: {
    buyer: ref('users'),
    total: money(),
    note: text({ optional: true }),
  },
  indexes: [['buyer']],
  may: { read: (ctx, row) => true },
})
`

func TestDiff(t *testing.T) {
	tests := []struct {
		name          string
		before, after string // the text of tables/orders.ts ("" where there is none)
		renames       Renames
		want          string
	}{
		{
			name:   "column type",
			before: ordersTS,
			after:  strings.Replace(ordersTS, "total: money()", "total: int()", 1),
			want: "change:table orders | columns.total.type: \"money\" -> \"int\"\n" +
				"change:column orders.total | type: \"money\" -> \"int\"\n",
		},
		{
			name:   "column option added",
			before: ordersTS,
			after:  strings.Replace(ordersTS, "text({ optional: true })", "text({ optional: true, private: true })", 1),
			want: "change:table orders | columns.note.private: \"\" -> \"true\"\n" +
				"change:column orders.note | private: \"\" -> \"true\"\n",
		},
		{
			name:   "column added and removed",
			before: ordersTS,
			after:  strings.Replace(ordersTS, "    note: text({ optional: true }),\n", "    placedAt: time(),\n", 1),
			want: "change:table orders | columns.placedAt: \"\" -> \"time()\" | columns.note: \"text({ optional: true })\" -> \"\"\n" +
				"remove:column orders.note\n" +
				"add:column orders.placedAt\n",
		},
		{
			name:   "column renamed by was",
			before: ordersTS,
			after:  strings.Replace(ordersTS, "buyer: ref('users')", "customer: ref('users', { was: 'buyer' })", 1),
			want: "change:table orders | columns.customer.name: \"buyer\" -> \"customer\" | columns.customer.was: \"\" -> \"'buyer'\"\n" +
				"rename:column orders.buyer -> orders.customer | name: \"buyer\" -> \"customer\" | was: \"\" -> \"'buyer'\"\n",
		},
		{
			name:    "column renamed by the change",
			before:  ordersTS,
			after:   strings.Replace(ordersTS, "buyer: ref('users')", "customer: ref('users')", 1),
			renames: Renames{"orders.buyer": "orders.customer"},
			want: "change:table orders | columns.customer.name: \"buyer\" -> \"customer\"\n" +
				"rename:column orders.buyer -> orders.customer | name: \"buyer\" -> \"customer\"\n",
		},
		{
			name:    "table renamed",
			before:  ordersTS,
			after:   strings.Replace(ordersTS, "export const orders = table({\n", "export const purchases = table({\n  was: 'orders',\n", 1),
			renames: Renames{"orders": "purchases"},
			want:    "rename:table orders -> purchases | was: \"\" -> \"'orders'\"\n",
		},
		{
			name:   "code changed",
			before: ordersTS,
			after:  strings.Replace(ordersTS, "(ctx, row) => true", "(ctx, row) => ctx.user !== null", 1),
			want:   "change:table orders | may.read: \"(ctx, row) => true\" -> \"(ctx, row) => ctx.user !== null\"\n",
		},
		{
			name:   "reformatted only",
			before: ordersTS,
			after:  strings.NewReplacer("ref('users')", `ref("users")`, "[['buyer']]", "[[ 'buyer' ]]", "{ optional: true }", "{optional: true}").Replace(ordersTS),
			want:   "",
		},
		{
			name:   "table added",
			before: "",
			after:  ordersTS,
			want: "add:table orders | columns.buyer: \"\" -> \"ref('users')\" | columns.total: \"\" -> \"money()\" | columns.note: \"\" -> \"text({ optional: true })\"" +
				" | indexes: \"\" -> \"[['buyer']]\" | may.read: \"\" -> \"(ctx, row) => true\"\n",
		},
		{
			name:   "table removed",
			before: strings.Replace(ordersTS, "may: { read: (ctx, row) => true },\n", "", 1),
			after:  "",
			want: "remove:table orders | columns.buyer: \"ref('users')\" -> \"\" | columns.total: \"money()\" -> \"\" | columns.note: \"text({ optional: true })\" -> \"\"" +
				" | indexes: \"[['buyer']]\" -> \"\"\n",
		},
		{
			name:   "kind changed",
			before: ordersTS,
			after:  "import { fn } from 'tent'\n\nexport const orders = fn({ run: async () => 1 })\n",
			want: "remove:table orders | columns.buyer: \"ref('users')\" -> \"\" | columns.total: \"money()\" -> \"\" | columns.note: \"text({ optional: true })\" -> \"\"" +
				" | indexes: \"[['buyer']]\" -> \"\" | may.read: \"(ctx, row) => true\" -> \"\"\n" +
				"add:fn orders | run: \"\" -> \"async () => 1\"\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after []*definitions.File
			if tt.before != "" {
				before = files(t, map[string]string{"tables/orders.ts": tt.before})
			}
			if tt.after != "" {
				after = files(t, map[string]string{"tables/orders.ts": tt.after})
			}
			if got := show(Diff(before, after, tt.renames)); got != tt.want {
				t.Errorf("got\n%swant\n%s", got, tt.want)
			}
		})
	}
}

func TestDiffKinds(t *testing.T) {
	before := files(t, map[string]string{
		"flows/checkout.ts":   "import { flow, ref } from 'tent'\nexport const checkout = flow({ input: { buyer: ref('users') }, steps: ['a', 'b'] })\n",
		"project.ts":          "import { project } from 'tent'\nexport default project({ name: 'shop', removed: ['coupons'] })\n",
		"screens/orders.tsx":  "import { screen } from 'tent/ui'\nexport const ordersScreen = screen({ path: '/orders', view: () => null })\n",
		"functions/notify.ts": "import { fn } from 'tent'\nexport const notify = fn({ sends: ['mail'], run: async (ctx) => 1 })\n",
	})
	after := files(t, map[string]string{
		"flows/checkout.ts":   "import { flow, ref } from 'tent'\nexport const checkout = flow({ input: { buyer: ref('users'), note: text() }, steps: ['a', 'c', 'b'] })\n",
		"project.ts":          "import { project } from 'tent'\nexport default project({ name: 'shop', removed: ['coupons', 'carts'] })\n",
		"screens/orders.tsx":  "import { screen } from 'tent/ui'\nexport const ordersScreen = screen({ path: '/orders/:status', view: () => null })\n",
		"functions/notify.ts": "import { fn } from 'tent'\nexport const notify = fn({ sends: ['mail', 'http'], run: async (ctx) => 1 })\n",
	})
	want := "change:flow checkout | input.note: \"\" -> \"text()\" | steps: \"['a', 'b']\" -> \"['a', 'c', 'b']\"\n" +
		"change:fn notify | sends: \"['mail']\" -> \"['mail', 'http']\"\n" +
		"change:screen ordersScreen | path: \"'/orders'\" -> \"'/orders/:status'\"\n" +
		"change:project project | removed: \"['coupons']\" -> \"['coupons', 'carts']\"\n"
	if got := show(Diff(before, after, nil)); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

func TestCompose(t *testing.T) {
	f := func(path, old, new string) Field { return Field{Path: path, Old: old, New: new} }
	tests := []struct {
		name  string
		lists [][]DefChange
		want  string
	}{
		{"add then change", [][]DefChange{
			{{Definition: "orders", Kind: "table", Action: Add, Fields: []Field{f("columns.total", "", "money()")}}},
			{{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("columns.total.type", "money", "int")}}},
		}, "add:table orders | columns.total: \"\" -> \"money()\" | columns.total.type: \"money\" -> \"int\"\n"},
		{"add then remove", [][]DefChange{
			{{Definition: "orders", Kind: "table", Action: Add}},
			{{Definition: "orders", Kind: "table", Action: Remove}},
		}, ""},
		{"change back", [][]DefChange{
			{{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("steps", "a", "b")}}},
			{{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("steps", "b", "a")}}},
		}, ""},
		{"rename twice, then change", [][]DefChange{
			{{Definition: "orders", Kind: "table", Action: Rename, To: "purchases"}},
			{{Definition: "purchases", Kind: "table", Action: Rename, To: "sales"}},
			{{Definition: "sales", Kind: "table", Action: Change, Fields: []Field{f("was", "'orders', 'purchases'", "'orders'")}}},
		}, "rename:table orders -> sales | was: \"'orders', 'purchases'\" -> \"'orders'\"\n"},
		{"rename back", [][]DefChange{
			{{Definition: "orders", Kind: "table", Action: Rename, To: "purchases", Fields: []Field{f("was", "", "'orders'")}}},
			{{Definition: "purchases", Kind: "table", Action: Rename, To: "orders", Fields: []Field{f("was", "'orders'", "")}}},
		}, ""},
		{"a column renamed back", [][]DefChange{
			{
				{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("columns.customer.name", "buyer", "customer"), f("columns.customer.was", "", "'buyer'"), f("indexes", "[['buyer']]", "[['customer']]")}},
				{Definition: "orders.buyer", Kind: KindColumn, Action: Rename, To: "orders.customer", Fields: []Field{f("name", "buyer", "customer")}},
			},
			{
				{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("columns.buyer.name", "customer", "buyer"), f("columns.buyer.was", "'buyer'", ""), f("indexes", "[['customer']]", "[['buyer']]")}},
				{Definition: "orders.customer", Kind: KindColumn, Action: Rename, To: "orders.buyer", Fields: []Field{f("name", "customer", "buyer")}},
			},
		}, ""},
		{"a column renamed twice", [][]DefChange{
			{
				{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("columns.customer.name", "buyer", "customer")}},
				{Definition: "orders.buyer", Kind: KindColumn, Action: Rename, To: "orders.customer"},
			},
			{
				{Definition: "orders", Kind: "table", Action: Change, Fields: []Field{f("columns.client.name", "customer", "client")}},
				{Definition: "orders.customer", Kind: KindColumn, Action: Rename, To: "orders.client"},
			},
		}, "change:table orders | columns.client.name: \"buyer\" -> \"client\"\nrename:column orders.buyer -> orders.client\n"},
		{"a file moved back", [][]DefChange{
			{{Definition: "lib/money.ts", Kind: KindFile, Action: Rename, To: "lib/price.ts", Fields: []Field{}}},
			{{Definition: "lib/price.ts", Kind: KindFile, Action: Rename, To: "lib/money.ts", Fields: []Field{}}},
		}, ""},
		{"remove then add", [][]DefChange{
			{{Definition: "notify", Kind: "fn", Action: Remove, Fields: []Field{f("run", "a", "")}}},
			{{Definition: "notify", Kind: "fn", Action: Add, Fields: []Field{f("run", "", "b")}}},
		}, "change:fn notify | run: \"a\" -> \"b\"\n"},
		{"files and columns apart", [][]DefChange{
			{{Definition: "orders.ts", Kind: KindFile, Action: Rename, To: "sales.ts"}, {Definition: "orders.buyer", Kind: KindColumn, Action: Remove}},
			{{Definition: "sales.ts", Kind: KindFile, Action: Change}},
		}, "remove:column orders.buyer\nrename:file orders.ts -> sales.ts\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := show(Compose(tt.lists...)); got != tt.want {
				t.Errorf("got\n%swant\n%s", got, tt.want)
			}
		})
	}
}

// TestSameText checks when Diff may skip a pair of definitions unread:
// only where both are written the same, under one name, in files that read
// without error.
func TestSameText(t *testing.T) {
	elsewhere := "\nexport const count = () => 1\n"
	broken := "\nexport const count = () => (\n"
	entryOf := func(text string) entry {
		t.Helper()
		es := collect(files(t, map[string]string{"tables/orders.ts": text}))
		if len(es) == 0 {
			t.Fatalf("no definition in %q", text)
		}
		return es[0]
	}
	renamed := strings.Replace(ordersTS, "const orders", "const purchases", 1)
	tests := []struct {
		name          string
		before, after string
		want          bool
	}{
		{"the same, code elsewhere changed", ordersTS + elsewhere, ordersTS + strings.Replace(elsewhere, "1", "2", 1), true},
		{"a field changed", ordersTS, strings.Replace(ordersTS, "money()", "text()", 1), false},
		{"renamed", ordersTS, renamed, false},
		{"the same, a syntax error after", ordersTS, ordersTS + broken, false},
		{"the same, a syntax error before", ordersTS + broken, ordersTS, false},
	}
	for _, tt := range tests {
		o, n := entryOf(tt.before), entryOf(tt.after)
		if got := sameText(o, n); got != tt.want {
			t.Errorf("%s: sameText %v, want %v", tt.name, got, tt.want)
		}
	}
	// A statement's span that does not fit its text is not read.
	o := entryOf(ordersTS)
	short := o
	short.src = o.src[:o.def.Stmt.End-1]
	if sameText(o, short) || sameText(short, o) {
		t.Errorf("a span past the text's end was compared")
	}
}
