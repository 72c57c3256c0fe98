package definitions

import (
	"strings"
	"testing"
)

// markRefs writes the source with each IdentRef marked: «name» or, for a
// shorthand property, «^name».
func markRefs(f *File) string {
	var b strings.Builder
	last := 0
	for _, r := range f.IdentRefs() {
		b.Write(f.Src[last:r.Span.Start])
		b.WriteString("«")
		if r.Shorthand {
			b.WriteByte('^')
		}
		b.Write(f.Src[r.Span.Start:r.Span.End])
		b.WriteString("»")
		last = r.Span.End
	}
	b.Write(f.Src[last:])
	return b.String()
}

func TestScopes(t *testing.T) {
	tests := []struct {
		name string
		path string
		want string // the source, with the expected IdentRefs marked as markRefs does
	}{
		{"imports and their uses", "lib/a.ts", `
import { orders, users as u } from './t'
import def, * as ns from './x'
«orders».insert(«u», «def», «ns».y)
export { orders, u as users }
export default «orders»
`},
		{"parameters and locals shadow", "lib/a.ts", `
import { orders } from './t'
function f(orders) { return orders }
const g = (x, { orders }) => orders + x
const h = orders => orders
function k() { const orders = 1; return orders }
function m() { return «orders» }
`},
		{"a scope with many names", "lib/a.ts", `
import { orders, users, total } from './t'
function f(orders, a, b, c, d, e, g, h, k, m, n) { return orders + «users» + a + n }
function p(a, b, c, d, e, g, h, k) { const users = 1; return «orders» + users + «total» }
`},
		{"block scope", "lib/a.ts", `
import { orders } from './t'
{ let orders = 1; orders++ }
«orders»
if (true) { const orders = 2 } else { «orders» }
for (const orders of []) { orders }
for (let i = 0, orders = 1; i < orders; i++) {}
for («orders» of []) {}
`},
		{"var and function hoisting", "lib/a.ts", `
import { orders, users } from './t'
function f() { if (x) { var orders = 1 } return orders }
function g() { users(); { users() } function users() {} }
function h() { { users(); function users() {} } return «users» }
`},
		{"catch, destructuring and defaults", "lib/a.ts", `
import { orders, users } from './t'
try {} catch (orders) { orders }
try {} catch ({ orders }) { orders } finally { «orders» }
const { a = «orders», b: [users2 = «users»], ...rest } = {}
function p({ q = «orders» } = «users») { return q }
`},
		{"top-level declarations", "tables/orders.ts", `
import { table, text, ref } from 'tent'
export const orders = «table»({ columns: { buyer: «ref»('users'), note: «text»() } })
export function helper() { return «orders» }
class Box { m() { return «helper»() } }
const b = new «Box»()
let later = «early»()
function early() { return «later» }
`},
		{"shorthand and destructuring assignment", "lib/a.ts", `
import { orders } from './t'
const a = { «^orders», orders: 1, [«orders»]: 2 }
;({ «^orders» } = «a»)
const { orders: o } = «a»
`},
		{"members and keys are no refs", "lib/a.ts", `
import { orders } from './t'
x.orders; x?.orders; obj = { orders() {} }; class C { orders = 1 }
label: for (;;) { break label }
`},
		{"jsx", "screens/s.tsx", `
import { Page, Orders } from 'tent/ui'
import { orders } from '../tables/orders'
const div = 1
export const v = () => <«Page» title="x"><«Orders» rows={«orders»}/><div>{«div»}</div></«Page»>
const w = (Page) => <Page/>
const svg = <svg:rect div={1} />
`},
		{"types", "lib/a.ts", `
import { orders, Row } from './t'
type T = typeof «orders»
let r: «Row» = null
function f(orders: «Row»): typeof orders { return orders }
function g<Row>(x: Row): Row { return x }
type orders2 = number
const orders2 = 1
let o: «orders2» = «orders2»
interface I { orders: «Row»; (orders: «Row»): void; [k: string]: «Row» }
type M = { [K in keyof «I»]: K }
let n: ns.Row
`},
		{"function and class expression names", "lib/a.ts", `
import { orders, Box } from './t'
const f = function orders() { return orders }
const g = class Box { m() { return Box } }
«orders»(«Box»)
`},
		{"broken code", "lib/a.ts", `
import { orders } from './t'
function f( { return «orders»
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.NewReplacer("«^", "", "«", "", "»", "").Replace(tt.want)
			f := parseFile(t, tt.path, src, nil)
			if got := markRefs(f); got != tt.want {
				t.Errorf("got%s\nwant%s", got, tt.want)
			}
		})
	}
}
