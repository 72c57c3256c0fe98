package definitions

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/parser"
)

// readOne parses one file and reads its definitions, without the rest of
// the index.
func readOne(t testing.TB, path, src string) *File {
	t.Helper()
	f := &File{Path: path, Lang: LangTS, Src: []byte(src), lines: LineStarts([]byte(src))}
	if strings.HasSuffix(path, ".tsx") {
		f.Lang = LangTSX
	}
	tree, errs := parser.Parse(context.Background(), path, f.Src)
	if tree == nil {
		t.Fatalf("parse %s: no tree", path)
	}
	readDefinitions(f, flatten(tree.RootNode(), f.Src, f.Lang), errs, nil)
	return f
}

// dumper renders definitions and their field trees as stable, compact
// text for golden files: one line per node, spans as line:col-line:col.
type dumper struct {
	f *File
	b strings.Builder
}

func (d *dumper) span(s Span) string {
	l1, c1 := d.f.Pos(s.Start)
	l2, c2 := d.f.Pos(s.End)
	return fmt.Sprintf("%d:%d-%d:%d", l1, c1, l2, c2)
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func (d *dumper) ref(r NameRef) string {
	return fmt.Sprintf("%q %s lit %s", r.Name, d.span(r.Span), d.span(r.Lit))
}

func (d *dumper) refs(rs []NameRef) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, d.ref(r))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (d *dumper) prop(p *Prop) string {
	if p == nil {
		return "-"
	}
	return d.span(p.Span)
}

func (d *dumper) value(depth int, prefix string, v *Value) {
	if v == nil {
		d.line(depth, "%snil", prefix)
		return
	}
	at := d.span(v.Span)
	switch v.Kind {
	case ValString:
		d.line(depth, "%sstring %q %s", prefix, v.Str, at)
	case ValNumber:
		d.line(depth, "%snumber %s %s", prefix, strconv.FormatFloat(v.Num, 'g', -1, 64), at)
	case ValBool:
		d.line(depth, "%sbool %v %s", prefix, v.Bool, at)
	case ValNull:
		d.line(depth, "%snull %s", prefix, at)
	case ValCode:
		d.line(depth, "%scode %s", prefix, at)
	case ValUnreadable:
		d.line(depth, "%sunreadable %s", prefix, at)
	case ValArray:
		d.line(depth, "%sarray %s", prefix, at)
		for _, item := range v.Items {
			d.value(depth+1, "- ", item)
		}
	case ValCall:
		d.line(depth, "%scall %s %s", prefix, v.Str, at)
		for _, item := range v.Items {
			d.value(depth+1, "- ", item)
		}
	case ValObject:
		d.line(depth, "%sobject %s", prefix, at)
		for _, p := range v.Props {
			key := fmt.Sprintf("%q", p.Key)
			if p.Shorthand {
				key += " shorthand"
			}
			d.value(depth+1, fmt.Sprintf("%s %s (%s): ", key, d.span(p.KeySpan), d.span(p.Span)), p.Value)
		}
	}
}

func (d *dumper) columns(depth int, cols []*Column) {
	for _, c := range cols {
		s := c.Schema
		parts := []string{fmt.Sprintf("column %s type=%q", s.Name, s.Type)}
		if c.RefName != nil {
			parts = append(parts, "ref="+d.ref(*c.RefName))
		}
		if len(s.Choices) > 0 {
			parts = append(parts, fmt.Sprintf("choices=%q", s.Choices))
		}
		for _, opt := range []struct {
			name string
			on   bool
		}{{"optional", s.Optional}, {"private", s.Private}, {"unique", s.Unique}} {
			if opt.on {
				parts = append(parts, opt.name)
			}
		}
		if s.Default != nil {
			js, _ := json.Marshal(s.Default)
			parts = append(parts, "default="+string(js))
		}
		if len(c.Was) > 0 {
			parts = append(parts, "was="+d.refs(c.Was)+" in "+d.prop(c.WasProp))
		}
		if c.Call == nil {
			parts = append(parts, "no call")
		}
		if c.Options != nil {
			parts = append(parts, "options "+d.span(c.Options.Span))
		}
		d.line(depth, "%s", strings.Join(parts, " "))
	}
}

func (d *dumper) definition(def *Definition) {
	d.line(0, "%s %s builder=%s %s stmt %s name %s", def.Kind, def.Name, def.Builder, def.Path, d.span(def.Stmt), d.span(def.NameSpan))
	d.value(1, "arg ", def.Arg)
	switch {
	case def.Table != nil:
		t := def.Table
		d.line(1, "table columns %s indexes %s was %s removed %s may %s", d.prop(t.ColumnsProp), d.prop(t.IndexesProp), d.prop(t.WasProp), d.prop(t.RemovedProp), d.prop(t.May))
		d.columns(2, t.Columns)
		for _, ix := range t.Indexes {
			d.line(2, "index %s", d.refs(ix))
		}
		if len(t.Was) > 0 {
			d.line(2, "was %s", d.refs(t.Was))
		}
		if len(t.Removed) > 0 {
			d.line(2, "removed %s", d.refs(t.Removed))
		}
		d.line(2, "schema %+v indexes=%q was=%q removed=%q", t.Schema.Name, t.Schema.Indexes, t.Schema.Was, t.Schema.Removed)
	case def.Fn != nil:
		fn := def.Fn
		d.line(1, "fn input %s sends %s run %s may %s", d.prop(fn.InputProp), d.refs(fn.Sends), d.prop(fn.Run), d.prop(fn.May))
		d.columns(2, fn.Input)
	case def.Flow != nil:
		fl := def.Flow
		d.line(1, "flow input %s steps %s", d.prop(fl.InputProp), d.refs(fl.Steps))
		d.columns(2, fl.Input)
	case def.Screen != nil:
		sc := def.Screen
		d.line(1, "screen path %q %s title %q load %s view %s", sc.Path, d.span(sc.PathSpan), sc.Title, d.prop(sc.Load), d.prop(sc.View))
	case def.Project != nil:
		pr := def.Project
		d.line(1, "project name %q users %s in %s removed %s", pr.Name, d.ref(pr.Users), d.prop(pr.UsersProp), d.refs(pr.Removed))
	case def.Engine != nil:
		d.line(1, "engine mail.from %q http.allow %q", def.Engine.MailFrom, def.Engine.HTTPAllow)
	}
}

// dumpFile renders a file's definitions and findings.
func dumpFile(f *File) string {
	d := &dumper{f: f}
	d.line(0, "file %s", f.Path)
	for _, def := range f.Definitions {
		d.definition(def)
	}
	if td := f.TestData; td != nil {
		d.line(0, "testdata %s", td.Table)
		for _, row := range td.Rows {
			d.line(1, "row id=%q %s", row.ID, d.span(row.Span))
			for _, k := range row.Keys {
				js, _ := json.Marshal(k.Value)
				d.line(2, "key %s pair %s value %s %s", d.ref(k.Name), d.span(k.Pair()), d.span(k.ValueSpan), js)
			}
		}
	}
	fs := append([]diag.Finding(nil), f.Findings...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
	for _, fd := range fs {
		d.line(0, "finding %s %s %d:%d-%d:%d [%s] %s", fd.Code, fd.Severity, fd.Line, fd.Col, fd.EndLine, fd.EndCol, fd.Definition, fd.Message)
	}
	return d.b.String()
}

func TestReadDefinitions(t *testing.T) {
	tests := []struct{ name, path, src string }{
		{"table", "tables/orders.ts", `import { table, text, money, time, ref, choice, int, json, bool, num } from 'tent'

// Orders of the shop.
export const orders = table({
  columns: {
    buyer: ref('users'),
    total: money(),
    note: text({ optional: true, private: true }),
    status: choice(['new', 'paid', 'shipped'], { default: 'new' }),
    placedAt: time({ was: 'created' }),
    count: int({ default: -5, unique: true }),
    meta: json({ optional: true, default: { a: [1, null, true] } }),
    'quoted key': bool(),
    ratio: num({ was: ["r1", 'r2'] }),
  },
  indexes: [['buyer', 'placedAt'], 'status'],
  was: ['purchases'],
  removed: ['legacyCode'],
  may: { read: (ctx, row) => ctx.user?.id === row.buyer, write(ctx) { return true } },
})
`},
		{"aliases", "tables/a.ts", `import { table as t, text as str, ref as r } from 'tent'
import * as tent from 'tent'
import * as ui from 'tent/ui'

export const users = t({ columns: { name: str(), boss: r('users', { optional: true }) } })
export const tags = tent.table({ columns: { label: tent.text() } })
export const home = ui.screen({ path: '/', view: () => null })
export const notBuilder = tent.text()
const hidden = t({ columns: {} })
export let notConst = t({ columns: {} })
export const plain = somethingElse({ columns: {} })
`},
		{"unreadable", "tables/b.ts", `import { table, text, ref, fn } from 'tent'
import { base, makeRef } from '../lib/cols'

const tableName = 'users'

export const things = table({
  columns: {
    ...base,
    [computed]: text(),
    owner: ref(tableName),
    maker: makeRef('users'),
    label: text({ default: ` + "`x${tableName}`" + ` }),
    bad: texte({ optional: true }),
    local: helper(),
    short,
    member: cols.text(),
  },
  removed: [...base.removed, 'gone'],
  may: { read: allowAll },
})

function helper() { return text() }

export const viaVariable = table(config)
export const noArg = fn()
`},
		{"fn and flow", "functions/orders.ts", `import { fn, flow, ref, json } from 'tent'

export const placeOrder = fn({
  input: { buyer: ref('users'), items: json() },
  sends: ['mail'],
  may: (ctx) => ctx.user !== null,
  run: async (ctx, input) => {
    return await ctx.db.orders.insert({ buyer: input.buyer })
  },
}), second = fn({ run: runner, sends: 'http' })

export const checkout = flow({
  input: { buyer: ref('users') },
  steps: ['reserveStock', "placeOrder", ` + "`chargeCard`" + `],
})
`},
		{"screen", "screens/orders.tsx", `import { screen, Page, Text } from 'tent/ui'

export const ordersScreen = screen({
  path: '/orders/:status',
  title: 'Orders',
  load: async (ctx, params) => ({ orders: await ctx.db.orders.where({ status: params.status }) }),
  view: ({ orders }) => (
    <Page title="Orders">
      <Text>{orders.length} orders</Text>
    </Page>
  ),
})
`},
		{"project", "project.ts", `import { project } from 'tent'
export default project({ name: 'shop', users: 'people', removed: ['coupons'] })
`},
		{"project defaults", "project.ts", `export default project({ name: "shop" })
`},
		{"engine", "engine.ts", `import { engine } from 'tent'
export default engine({ mail: { from: 'shop@example.com' }, http: { allow: ['api.example.com', 'b.example'] } })
`},
		{"default elsewhere", "lib/x.ts", `import { project } from 'tent'
export default project({ name: 'nope' })
`},
		{"literals", "tables/lit.ts", `import { table, json } from 'tent'
export const lit = table({
  columns: {
    a: json({ default: 0x1F }),
    b: json({ default: 1_000.5e1 }),
    c: json({ default: 'tab\there \u00e9 \u{1F600} \x41' }),
    d: json({ default: (['x', 'y'] as const) }),
    e: json({ default: +3 }),
    f: json({ default: undefined }),
    g: json({ default: -x }),
  },
})
`},
		{"syntax error", "tables/broken.ts", `import { table, text } from 'tent'

export const first = table({ columns: { a: text() } })

export const broken = table({ columns: { b: text( } })

export const last = table({ columns: { c: text() } })
`},
		{"crlf", "tables/crlf.ts", "import { table, text } from 'tent'\r\n\r\nexport const crlf = table({\r\n  columns: {\r\n    é: text({ was: 'ü' }),\r\n    x: y,\r\n  },\r\n})\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readOne(t, tt.path, tt.src)
			name := strings.ReplaceAll(tt.name, " ", "_")
			golden.Check(t, "testdata/declare/"+name+".golden", []byte(dumpFile(f)))
		})
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"1.5", 1.5, true}, {".5", 0.5, true}, {"1e3", 1000, true},
		{"0x1F", 31, true}, {"0o17", 15, true}, {"0b101", 5, true}, {"1_000", 1000, true}, {"10n", 10, true},
		{"1e999", 0, true}, {"0xZZ", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseNumber(tt.in)
		if ok != tt.ok || (ok && tt.in != "1e999" && got != tt.want) {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestUnescapeJS(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`plain`, "plain", true},
		{`a\nb\tc`, "a\nb\tc", true},
		{`\'\"\\`, `'"\`, true},
		{`\x41\u00e9\u{1F600}`, "Aé😀", true},
		{"a\\\nb", "ab", true},
		{`\q`, "q", true},
		{`\u12`, "", false},
		{`\u{110000}`, "", false},
		{`end\`, "", false},
	}
	for _, tt := range tests {
		got, ok := unescapeJS([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("unescapeJS(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPositionString(t *testing.T) {
	cols := &position{key: "columns"}
	idx := &position{parent: &position{key: "indexes"}, index: 1}
	tests := []struct {
		p    *position
		want string
	}{
		{nil, ""},
		{cols, "columns"},
		{&position{parent: cols, key: "note"}, "columns.note"},
		{&position{parent: idx, index: 0}, "indexes[1][0]"},
		{&position{parent: &position{parent: cols, key: "a"}, key: "was"}, "columns.a.was"},
		{&position{index: 2}, "[2]"},
		{&position{key: "table()"}, "table()"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
