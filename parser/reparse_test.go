package parser

import (
	"context"
	"math/rand/v2"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/tent-tools/tent-tools/internal/soak"
)

func TestEdit(t *testing.T) {
	tests := []struct {
		name, old, new        string
		start, oldEnd, newEnd uint32
		startPt, oldPt, newPt sitter.Point
	}{
		{"insert", "ab\ncd", "ab\nXcd", 3, 3, 4, sitter.Point{Row: 1}, sitter.Point{Row: 1}, sitter.Point{Row: 1, Column: 1}},
		{"delete", "ab\ncd", "ab\nd", 3, 4, 3, sitter.Point{Row: 1}, sitter.Point{Row: 1, Column: 1}, sitter.Point{Row: 1}},
		{"replace with lines", "abc", "a\n\nc", 1, 2, 3, sitter.Point{Column: 1}, sitter.Point{Column: 2}, sitter.Point{Row: 2}},
		{"same", "abc", "abc", 3, 3, 3, sitter.Point{Column: 3}, sitter.Point{Column: 3}, sitter.Point{Column: 3}},
		{"repeated letter", "aaa", "aaaa", 3, 3, 4, sitter.Point{Column: 3}, sitter.Point{Column: 3}, sitter.Point{Column: 4}},
		// é is c3 a9 and è is c3 a8: the shared first byte is no boundary.
		{"utf-8", "xéy", "xèy", 1, 3, 3, sitter.Point{Column: 1}, sitter.Point{Column: 3}, sitter.Point{Column: 3}},
		// ü (c3 bc) to ö (c3 b6) at the end, and the suffix moves to a boundary too.
		{"utf-8 end", "aü", "aö", 1, 3, 3, sitter.Point{Column: 1}, sitter.Point{Column: 3}, sitter.Point{Column: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Edit([]byte(tt.old), []byte(tt.new))
			if e.StartIndex != tt.start || e.OldEndIndex != tt.oldEnd || e.NewEndIndex != tt.newEnd {
				t.Errorf("bytes %d,%d,%d want %d,%d,%d", e.StartIndex, e.OldEndIndex, e.NewEndIndex, tt.start, tt.oldEnd, tt.newEnd)
			}
			if e.StartPoint != tt.startPt || e.OldEndPoint != tt.oldPt || e.NewEndPoint != tt.newPt {
				t.Errorf("points %v,%v,%v want %v,%v,%v", e.StartPoint, e.OldEndPoint, e.NewEndPoint, tt.startPt, tt.oldPt, tt.newPt)
			}
		})
	}
}

const sample = `import { table, text, ref } from 'tent'

// Orders of the shop.
export const orders = table({
  columns: {
    buyer: ref('users'),
    note: text({ optional: true }),
  },
  may: { read: (ctx, row) => ctx.user?.id === row.buyer },
})

export const placeOrder = fn({
  run: async (ctx, input) => {
    const o = await ctx.db.orders.insert({ buyer: input.buyer })
    return o
  },
})
`

// TestReparseMatchesParse makes random edits and checks that the
// incremental parse gives the very tree a fresh parse gives, by type and
// byte range of every node, and that the old tree is left untouched.
func TestReparseMatchesParse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 9))
	inserts := []string{"x", "\n", "\r\n", "}", "(", "'", "é", "  ", "ref('a'),\n", "export const z = 1\n", ""}
	for _, path := range []string{"a.ts", "a.tsx"} {
		src := []byte(sample)
		tree, _ := Parse(ctx, path, src)
		for i := range soak.Rounds(60, 300) {
			start := r.IntN(len(src) + 1)
			end := min(len(src), start+r.IntN(6))
			ins := inserts[r.IntN(len(inserts))]
			next := append(append(append([]byte{}, src[:start]...), ins...), src[end:]...)

			before := dump(tree)
			re, reErrs := Reparse(ctx, path, tree, src, next)
			if after := dump(tree); after != before {
				t.Fatalf("%s edit %d: Reparse changed the old tree", path, i)
			}
			fresh, freshErrs := Parse(ctx, path, next)
			if got, want := dump(re), dump(fresh); got != want {
				t.Fatalf("%s edit %d (%q at %d-%d): incremental tree differs\n--- incremental\n%s\n--- fresh\n%s", path, i, ins, start, end, got, want)
			}
			if len(reErrs) != len(freshErrs) {
				t.Fatalf("%s edit %d: %d errors incrementally, %d fresh", path, i, len(reErrs), len(freshErrs))
			}
			src, tree = next, re
		}
	}
}
