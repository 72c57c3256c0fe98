package definitions

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/parser"
)

// parseFile parses src as a file at path and runs analyzeCode on it, with
// the given definitions (nil in plain code).
func parseFile(t testing.TB, path, src string, defs []*Definition) *File {
	t.Helper()
	f := &File{Path: path, Lang: LangTS, Src: []byte(src), Definitions: defs}
	lang := typescript.GetLanguage()
	if strings.HasSuffix(path, ".tsx") {
		f.Lang = LangTSX
		lang = tsx.GetLanguage()
	}
	p := sitter.NewParser()
	p.SetLanguage(lang)
	tree, err := p.ParseCtx(context.Background(), nil, f.Src)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	f.Tree = tree
	analyzeCode(f, flatten(tree.RootNode(), f.Src, f.Lang), false)
	// Read lazily (Options.Lazy), the file's uses are the same, and so
	// are its IdentRefs and words, read from its text when asked for.
	lazy := &File{Path: f.Path, Lang: f.Lang, Src: f.Src, Definitions: defs}
	analyzeCode(lazy, flatten(tree.RootNode(), f.Src, f.Lang), true)
	if !reflect.DeepEqual(lazy.Uses, f.Uses) {
		t.Errorf("%s read lazily: uses %+v, want %+v", path, lazy.Uses, f.Uses)
	}
	if !reflect.DeepEqual(lazy.IdentRefs(), f.IdentRefs()) || !reflect.DeepEqual(lazy.Words(), f.Words()) {
		t.Errorf("%s read lazily: other IdentRefs or words", path)
	}
	return f
}

// at shows a span as its text, for readable expectations.
func at(src []byte, s Span) string { return string(src[s.Start:s.End]) }

func TestImportsExports(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"named", `import { a, b as c } from './x'`, []string{
			"import ./x@./x a@a a@a", "import ./x@./x b@b c@c"}},
		{"default and namespace", `import d, * as ns from "../lib/y"`, []string{
			"import ../lib/y@../lib/y default@d d@d", "import ../lib/y@../lib/y *@* as ns ns@ns"}},
		{"type import", `import type { T } from './t'; import { type U } from './u'`, []string{
			"import ./t@./t T@T T@T", "import ./u@./u U@U U@U"}},
		{"side effect", `import './polyfill'`, nil},
		{"local export", `const a = 1; export { a as b, a }`, []string{
			"export  a@a b@b", "export  a@a a@a"}},
		{"re-export", `export { orders } from '../tables/orders'; export * from './z'; export * as q from './w'`, []string{
			"export ../tables/orders orders@orders orders@orders", "export ./z *@* *@*", "export ./w *@* as q q@q"}},
		{"nested import is no import", `function f() { return import('./x') }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseFile(t, "lib/a.ts", tt.src, nil)
			var got []string
			for _, im := range f.Imports {
				got = append(got, fmt.Sprintf("import %s@%s %s@%s %s@%s", im.Module, at(f.Src, im.ModuleSpan),
					im.Imported, at(f.Src, im.ImportedSpan), im.Local, at(f.Src, im.LocalSpan)))
			}
			for _, ex := range f.Exports {
				got = append(got, fmt.Sprintf("export %s %s@%s %s@%s", ex.Module, ex.Local, at(f.Src, ex.LocalSpan),
					ex.Exported, at(f.Src, ex.ExportedSpan)))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// codeDef makes a definition for a test: the statement is the text from
// stmt to the end of the first `})` after it, the argument the object
// literal after `(`, and each of the named props an arrow function (code)
// that ends at the next `,\n  ` or at the argument's end.
func codeDef(src, name string, k Kind, code ...string) *Definition {
	start := strings.Index(src, "export const "+name+" =")
	argStart := start + strings.Index(src[start:], "({") + 1
	end := argStart + strings.Index(src[argStart:], "\n})") + 3
	d := &Definition{Name: name, Kind: k, Stmt: Span{start, end},
		Arg: &Value{Kind: ValObject, Span: Span{argStart, end - 1}}}
	for _, c := range code {
		ks := argStart + strings.Index(src[argStart:], "\n  "+c+":") + 3
		vs := ks + len(c) + 2
		ve := vs + strings.Index(src[vs:], ",\n  ")
		if ve < vs || ve > end {
			ve = end - 3
		}
		d.Arg.Props = append(d.Arg.Props, &Prop{Key: c, KeySpan: Span{ks, ks + len(c)}, Span: Span{ks, ve},
			Value: &Value{Kind: ValCode, Span: Span{vs, ve}}})
	}
	return d
}

// showCode renders what analyzeCode found in f, one line each, in source
// order: words, then uses.
func showCode(f *File) string {
	var b strings.Builder
	pos := func(s Span) string {
		line := 1 + strings.Count(string(f.Src[:s.Start]), "\n")
		col := s.Start - strings.LastIndex(string(f.Src[:s.Start]), "\n")
		return fmt.Sprintf("%d:%d", line, col)
	}
	var words []Word
	for _, ws := range f.Words() {
		words = append(words, ws...)
	}
	sort.Slice(words, func(i, j int) bool { return words[i].Span.Start < words[j].Span.Start })
	for _, w := range words {
		fmt.Fprintf(&b, "word %s %s %q", pos(w.Span), w.Why, at(f.Src, w.Span))
		if w.Table != "" {
			fmt.Fprintf(&b, " table=%s", w.Table)
		}
		b.WriteByte('\n')
	}
	for _, u := range f.Uses.DB {
		fmt.Fprintf(&b, "db %s def=%q table=%s method=%q keys=", pos(u.TableSpan), u.Def, at(f.Src, u.TableSpan), u.Method)
		for _, k := range u.Keys {
			fmt.Fprintf(&b, "%s(%s) ", at(f.Src, k.Span), at(f.Src, k.Lit))
		}
		b.WriteByte('\n')
	}
	for _, c := range f.Uses.Calls {
		fmt.Fprintf(&b, "call %s def=%q name=%s lit=%s\n", pos(c.Name.Span), c.Def, at(f.Src, c.Name.Span), at(f.Src, c.Name.Lit))
	}
	for _, s := range f.Uses.Sends {
		fmt.Fprintf(&b, "send %s def=%q %s %q\n", pos(s.Span), s.Def, s.Kind, at(f.Src, s.Span))
	}
	var keys []string
	for k := range f.Uses.LibCalls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "libcalls %q %v\n", k, f.Uses.LibCalls[k])
	}
	keys = keys[:0]
	for k := range f.Uses.SendsOf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "sendsof %q %v\n", k, f.Uses.SendsOf[k])
	}
	return b.String()
}

func TestWordsAndUses(t *testing.T) {
	fnSrc := `import { fn, ref, json } from 'tent'
import { notify } from '../lib/notify'
import * as fmt from '../lib/fmt'

// placeOrder makes an order for a buyer.
export const placeOrder = fn({
  input: { buyer: ref('users'), items: json() },
  sends: ['mail'],
  run: async (ctx, input) => {
    const order = await ctx.db.orders.insert({ buyer: input.buyer, 'total': 0, placedAt: ctx.now() })
    await ctx.db.orders.update(order.id, { status: 'paid', note })
    const rows = await ctx.db['users'].where({ email: 'a' }, { limit: 1 })
    const all = ctx.db.orders
    await ctx.call('chargeCard', { order: order.id })
    await ctx.call("not a name")
    await ctx.mail.send({ to: 'ops@example.com', subject: 'New order', text: fmt.money(order.total) })
    await notify(ctx, order)
    const { buyer, total: t } = order
    return { order, label: ` + "`placeOrder`" + `, tag: "x-y", 'orders': row['buyer'] }
  },
})

export async function helper(ctx) {
  await ctx.http.fetch('https://api.example.com')
  local()
}

const local = () => helper(null)
`
	libSrc := `// notify sends mail about an order
export async function notify(ctx, order) {
  await ctx.mail.send({ to: order.buyer })
  await format(order)
}
export const format = (o) => fetchIt(o)
function fetchIt(o) { return o.http.fetch('x') }
`
	tableSrc := `import { table, text, ref } from 'tent'

export const orders = table({
  columns: {
    buyer: ref('users'), // who placed it
    note: text({ optional: true }),
  },
  may: { read: (ctx, row) => ctx.user?.id === row.buyer },
})
`
	screenSrc := `import { screen, Page, Table } from 'tent/ui'

export const ordersScreen = screen({
  path: '/orders/:status',
  load: async (ctx, params) => ({ orders: await ctx.db.orders.where({ status: params.status }) }),
  view: ({ orders }) => (
    <Page title="Orders">
      <Table rows={orders} columns={['buyer', 'total']} />
    </Page>
  ),
})
`
	tableDef := codeDef(tableSrc, "orders", KindTable)
	// The table's may is an object of code values.
	mayStart := strings.Index(tableSrc, "{ read:")
	tableDef.Arg.Props = append(tableDef.Arg.Props, &Prop{Key: "may", Value: &Value{Kind: ValObject,
		Span:  Span{mayStart, strings.Index(tableSrc, "},\n})") + 1},
		Props: []*Prop{{Key: "read", Value: &Value{Kind: ValCode, Span: Span{strings.Index(tableSrc, "(ctx, row)"), strings.Index(tableSrc, " },\n})")}}}}}})
	tests := []struct {
		name, path, src string
		defs            []*Definition
	}{
		{"fn", "functions/placeOrder.ts", fnSrc, []*Definition{codeDef(fnSrc, "placeOrder", KindFn, "run")}},
		{"lib", "lib/notify.ts", libSrc, nil},
		{"table", "tables/orders.ts", tableSrc, []*Definition{tableDef}},
		{"screen", "screens/orders.tsx", screenSrc, []*Definition{codeDef(screenSrc, "ordersScreen", KindScreen, "load", "view")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseFile(t, tt.path, tt.src, tt.defs)
			golden.Check(t, "testdata/code/words_"+tt.name+".golden", []byte(showCode(f)))
		})
	}
}

// BenchmarkAnalyzeCode measures the code analysis of every file of a
// generated project of 1,000 tables, on one goroutine (the parse is not
// counted), in CPU time per op (cpu-ms/op) as well as wall time: whole,
// and lazy (Options.Lazy: no IdentRefs nor words).
func BenchmarkAnalyzeCode(b *testing.B) {
	for _, lazy := range []bool{false, true} {
		b.Run(map[bool]string{false: "full", true: "lazy"}[lazy], func(b *testing.B) { benchAnalyzeCode(b, lazy) })
	}
}

func benchAnalyzeCode(b *testing.B, lazy bool) {
	ix := bigProject()
	var files []*File
	lines := 0
	for _, f := range ix.Files() {
		if f.Tree != nil {
			files = append(files, &File{Path: f.Path, Lang: f.Lang, Src: f.Src, Definitions: f.Definitions, Tree: f.Tree})
			lines += len(f.Lines())
		}
	}
	b.ReportAllocs()
	cpu := startCPU(b)
	for b.Loop() {
		for _, f := range files {
			analyzeCode(f, flatten(f.Tree.RootNode(), f.Src, f.Lang), lazy)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(lines), "lines")
}

// TestFlattenMatchesBinding checks the one-call C walk of flatten against
// a walk with go-tree-sitter's own API: the same nodes (less the tokens
// flatten leaves out), in the same order, with the same kinds, parents,
// children and siblings.
func TestFlattenMatchesBinding(t *testing.T) {
	srcs := map[string]string{
		"a.tsx": `import { a } from './x'
export const v = ({ orders }) => <Page title="x">{orders.map((o) => <Row key={o.id} />)}</Page>
function f(a, { b = [1, 2] }) { for (const x of a) { try { g(x) } catch (e) { h` + "`t${e}`" + ` } } }
`,
		"b.ts":   "class C<T> extends B { m(x: T): T { return x } }\nlet broken = (\n",
		"c.ts":   "",
		"big.ts": strings.Repeat("export const t = table({ columns: { a: text(), b: ref('t') } })\n", 300), // more nodes than bytes/2: flatten retries
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			lang := typescript.GetLanguage()
			flang := LangTS
			if strings.HasSuffix(name, ".tsx") {
				lang, flang = tsx.GetLanguage(), LangTSX
			}
			p := sitter.NewParser()
			p.SetLanguage(lang)
			tree, err := p.ParseCtx(context.Background(), nil, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			st := flatten(tree.RootNode(), []byte(src), flang)
			ts, tsxg := grammars()
			g := ts
			if flang == LangTSX {
				g = tsxg
			}
			// Walk with the binding, in pre-order, numbering the nodes.
			i := 0
			var walk func(n *sitter.Node, parent int) int
			walk = func(n *sitter.Node, parent int) int {
				if n.ChildCount() == 0 && !g.keeps(n.Symbol()) {
					return -1 // a token no reader reads (keptTokens)
				}
				me := i
				i++
				if me >= len(st.nodes) {
					t.Fatalf("flatten has %d nodes, the binding more", len(st.nodes))
				}
				got := st.nodes[me]
				name := "ERROR"
				if int(got.sym) < len(g.names) {
					name = g.names[got.sym]
				}
				if name != n.Type() || int(got.start) != int(n.StartByte()) || int(got.end) != int(n.EndByte()) || int(got.parent) != parent {
					t.Fatalf("node %d: flatten %s [%d,%d] parent %d, binding %s [%d,%d] parent %d",
						me, name, got.start, got.end, got.parent, n.Type(), n.StartByte(), n.EndByte(), parent)
				}
				if int(got.sym) < len(g.info) && (got.kind != g.info[got.sym].kind || got.named != g.info[got.sym].named) {
					t.Fatalf("node %d: kind %d named %v, want %d %v", me, got.kind, got.named, g.info[got.sym].kind, g.info[got.sym].named)
				}
				prev := -1
				for c := 0; c < int(n.ChildCount()); c++ {
					ci := walk(n.Child(c), me)
					if ci < 0 {
						continue
					}
					if prev < 0 && int(st.nodes[me].first) != ci {
						t.Fatalf("node %d: first child %d, want %d", me, st.nodes[me].first, ci)
					}
					if prev >= 0 && int(st.nodes[prev].next) != ci {
						t.Fatalf("node %d: next sibling %d, want %d", prev, st.nodes[prev].next, ci)
					}
					prev = ci
				}
				if prev < 0 && st.nodes[me].first != -1 {
					t.Fatalf("node %d: first child %d, want none", me, st.nodes[me].first)
				}
				if prev >= 0 && st.nodes[prev].next != -1 {
					t.Fatalf("node %d: next sibling %d, want none", prev, st.nodes[prev].next)
				}
				return me
			}
			walk(tree.RootNode(), -1)
			if i != len(st.nodes) {
				t.Fatalf("flatten has %d nodes, the binding %d", len(st.nodes), i)
			}
		})
	}
}

// BenchmarkReadTrees is what a lazy cold check's build reads of each
// file of the 1,000-table project after its parse and flatten, on one
// goroutine: the definitions and the code (Options.Lazy), from trees
// flattened beforehand, each op with a new worker as a build reads. The
// collector is off, as it is for most of a cold check (cmd/tent-tools),
// so that each op allocates in memory fresh from the system as the check
// does (some 50 MB an op: 20 ops take 1 GB). It is the part of a cold check above
// the parse floor that this package's readers own, flatten aside (a
// profile of BenchmarkColdBuildVsFloor shows that).
//
//	go test ./definitions -run XXX -bench ReadTrees -benchtime 20x
func BenchmarkReadTrees(b *testing.B) {
	type flat struct {
		f  *File
		st *stree
	}
	var trees []flat
	files := benchProject(b)
	for p, src := range files {
		lang, ok := langOf(p)
		if !ok || lang == LangJSON {
			continue
		}
		tree, errs := parser.Parse(context.Background(), p, src)
		if len(errs) > 0 {
			b.Fatalf("%s: %v", p, errs)
		}
		st := flatten(tree.RootNode(), src, lang)
		tree.Close()
		trees = append(trees, flat{&File{Path: p, Lang: lang, Src: src, lines: LineStarts(src)}, st})
	}
	slices.SortFunc(trees, func(a, b flat) int { return strings.Compare(a.f.Path, b.f.Path) })
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	b.ReportAllocs()
	cpu := startCPU(b)
	for b.Loop() {
		w := &worker{lazy: true} // as a build's, new: no scratch of the last op
		for _, t := range trees {
			f := &File{Path: t.f.Path, Lang: t.f.Lang, Src: t.f.Src, lines: t.f.lines}
			t.st.words = &w.words
			readDefinitions(f, t.st, nil, nil)
			analyzeCode(f, t.st, w.lazy)
		}
	}
	reportCPU(b, cpu)
}

// TestLazyCallees holds the calls a build without IdentRefs reads
// (usesOnly: refQuery, and plainNames where no scope below the top level
// can bind a callee) to those of a full read, where names of imports and
// top-level functions are shadowed in every way a scope binds a name.
func TestLazyCallees(t *testing.T) {
	srcs := []string{
		"import { h } from './h'\nexport function f() { h(); g() }\nfunction g() {}\n",
		"import { h } from './h'\nexport function f(h) { h() }\nexport function k() { h() }\n",
		"import { h } from './h'\nexport function f() { const h = 1; h() }\nexport const k = () => h()\n",
		"import { h } from './h'\nexport function f() { try {} catch (h) { h() } }\n",
		"import { h } from './h'\nexport const f = function h() { h() }\n",
		"import { h } from './h'\nexport function f() { class h {}; h() }\n",
		"import { h } from './h'\nexport function f({ h }) { h() }\nexport function k([h]) { h() }\n",
		"import { h } from './h'\nexport function f() { if (1) { var h = 2 } h() }\n",
		"import type { h } from './h'\nexport function f() { h() }\n",
		"import * as ns from './h'\nexport function f(ns) { ns.g() }\nexport function k() { ns.g() }\n",
		"import * as ns from './h'\nexport function f() { ns.g(); for (const ns of []) { ns.g() } }\n",
		"export function g() {}\nexport function f() { function g() {}; g() }\nexport const k = () => g()\n",
		"import { h } from './h'\nexport function f() { h(); }\nexport const x = [h].map((h) => h())\n",
		"import { h } from './h'\nexport function f() { h() }\nnamespace N { export const h = 1 }\n",
		"import { h } from './h'\nfor (let h of []) { h() }\nh()\n",
		"import { h } from './h'\nexport function f(x = h()) { h(); return x }\n",
		"import { h } from './h'\nlet broken = (\nexport function f() { h() }\n",
		"import { h as hh } from './h'\nexport function f() { hh(); const h = 1 }\n",
	}
	for i, src := range srcs {
		p := fmt.Sprintf("lib/f%d.ts", i)
		tree, _ := parser.Parse(context.Background(), p, []byte(src))
		st := flatten(tree.RootNode(), []byte(src), LangTS)
		tree.Close()
		f := &File{Path: p, Lang: LangTS, Src: []byte(src)}
		readDefinitions(f, st, nil, nil)
		f.Imports, f.Exports = readModuleLinks(st)
		_, full, _ := readWords(f, st, resolveScopes(st), false)
		_, lazy, _ := readWords(f, st, nil, true)
		if !reflect.DeepEqual(lazy.LibCalls, full.LibCalls) {
			t.Errorf("%q: lazy calls %v, full %v", src, lazy.LibCalls, full.LibCalls)
		}
	}
}
