package definitions

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/parser"
)

// TestRefQueryAsWalk holds refQuery to resolveScopes: of every identifier
// of every file of the sample projects and of the sources below, it tells
// whether it is an IdentRef exactly where the walk records one: a query
// of its own, and one a worker's scratch lends from file to file (the
// files in turn, so that each reuses what the last left).
func TestRefQueryAsWalk(t *testing.T) {
	sources := map[string]string{
		"lib/hoist.ts": `import { a, b, c } from './x'
function f() { a(); var a = 1; { var b = 2 } b(); c() }
function g(c) { c(); for (var i in a) { i() } try { a() } catch (a) { a() } finally { a() } }
const h = (a) => a() + b()
class K { m(b) { return b() + c() } static c() { return c() } }
const o = { c() { return c() }, d: function c() { return c() } }
switch (a) { case 1: let b = 1; b(); default: c() }
label: for (const a of b) { a() }
export { a as z, b }
export * as ns from './y'
type T = typeof a
namespace N { export const a = 1; a() }
let [x = a(), ...rest] = b(); ({ a: c } = { a })
`,
		// More top-level names than a scope lists (a map), then a file
		// with as many that binds none of them: a query lent from file
		// to file must forget the last file's.
		"lib/many.ts": "import { a1, a2, a3, a4, a5, a6, a7, a8, a9 } from './x'\nconst zz = 1\nfunction yy() { return zz + a1 }\n",
		"lib/none.ts": "import { b1, b2, b3, b4, b5, b6, b7, b8, b9 } from './y'\nzz(); yy(); a1(); b1(); function f() { return zz() }\n",
		"screens/s.tsx": `import { Card, a } from './ui'
export const v = () => <Card a={a()}><div>{a()}</div><svg:rect /></Card>
function Card(props) { return <props.X /> }
`,
		"lib/broken.ts": `import { a } from './x'
function f( { a( ; const = a()
export { a
if (a() { a() }
`,
		"lib/types.ts": `import { T, a } from './x'
interface I<T> { m(a: T): T; (a: T): void; new (a: T): I<T>; [a: string]: T }
type M<T> = { [K in keyof T]: T[K] }
function g<T>(a: T): T { return a() as T }
declare module 'm' { const a: T }
enum E { A = a() }
abstract class C<T> { abstract m(a: T): void }
namespace a.T { }
namespace T.a.T { }
`,
	}
	for name, files := range lazyProjects(t) {
		for p, src := range files {
			if strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx") {
				sources[name+"/"+p] = string(src)
			}
		}
	}
	scratch := &wordScratch{}
	for _, p := range slices.Sorted(maps.Keys(sources)) {
		src := sources[p]
		lang := LangTS
		if strings.HasSuffix(p, ".tsx") {
			lang = LangTSX
		}
		tree, _ := parser.Parse(context.Background(), p, []byte(src))
		st := flatten(tree.RootNode(), []byte(src), lang)
		isRef := map[Span]bool{}
		for _, r := range resolveScopes(st) {
			if !r.Shorthand {
				isRef[r.Span] = true
			}
		}
		asked := 0
		for _, lent := range []*wordScratch{nil, scratch} {
			q := newRefQuery(st, lent)
			asked = 0
			for i := range st.nodes {
				n := &st.nodes[i]
				if n.kind != kindIdentifier {
					continue
				}
				asked++
				sp := Span{int(n.start), int(n.end)}
				if got, want := q.isRef(int32(i)), isRef[sp]; got != want {
					t.Errorf("%s (scratch %v): %q at %d: isRef %v, the walk's %v", p, lent != nil, src[sp.Start:sp.End], sp.Start, got, want)
				}
			}
		}
		if asked == 0 && strings.Contains(src, "import") {
			t.Errorf("%s: no identifier asked", p)
		}
		tree.Close()
	}
}
