package projectgen

import (
	"fmt"
	"sort"
	"strings"
)

// builder writes a column's builder call, e.g. `text({ optional: true })`.
func (c column) builder() string {
	var opts []string
	if c.optional {
		opts = append(opts, "optional: true")
	}
	if c.private {
		opts = append(opts, "private: true")
	}
	if c.unique {
		opts = append(opts, "unique: true")
	}
	if c.def != "" {
		opts = append(opts, "default: "+c.def)
	}
	switch len(c.was) {
	case 0:
	case 1:
		opts = append(opts, "was: "+quote(c.was[0]))
	default:
		opts = append(opts, "was: "+quoteList(c.was))
	}
	var args []string
	switch c.typ {
	case "ref":
		args = append(args, quote(c.ref))
	case "choice":
		args = append(args, quoteList(c.choices))
	}
	if len(opts) > 0 {
		args = append(args, "{ "+strings.Join(opts, ", ")+" }")
	}
	return c.typ + "(" + strings.Join(args, ", ") + ")"
}

func quote(s string) string { return "'" + s + "'" }

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = quote(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// builderImports lists the column builders that cols use, sorted, after the
// definition builder itself.
func builderImports(first string, cols []column) string {
	seen := map[string]bool{}
	var names []string
	for _, c := range cols {
		if !seen[c.typ] {
			seen[c.typ] = true
			names = append(names, c.typ)
		}
	}
	sort.Strings(names)
	return strings.Join(append([]string{first}, names...), ", ")
}

// tableFile renders tables/<name>.ts.
func tableFile(t *tableSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { %s } from 'tent'\n\n", builderImports("table", t.cols))
	fmt.Fprintf(&b, "// %s: one row per %s.\n", t.label, t.one)
	fmt.Fprintf(&b, "export const %s = table({\n", t.name)
	b.WriteString("  columns: {\n")
	for _, c := range t.cols {
		fmt.Fprintf(&b, "    %s: %s,\n", c.name, c.builder())
	}
	b.WriteString("  },\n")
	if t.was != "" {
		fmt.Fprintf(&b, "  was: %s,\n", quote(t.was))
	}
	if len(t.indexes) > 0 {
		parts := make([]string, len(t.indexes))
		for i, ix := range t.indexes {
			parts[i] = quoteList(ix)
		}
		fmt.Fprintf(&b, "  indexes: [%s],\n", strings.Join(parts, ", "))
	}
	if len(t.removed) > 0 {
		fmt.Fprintf(&b, "  removed: %s,\n", quoteList(t.removed))
	}
	if t.may {
		b.WriteString("  may: {\n")
		if t.name == hub {
			b.WriteString("    read: (ctx, row) => ctx.user?.id === row.id || ctx.user?.role === 'staff',\n")
			b.WriteString("    write: (ctx, row) => ctx.user?.id === row.id,\n")
		} else if t.col("owner") != nil {
			b.WriteString("    read: (ctx, row) => ctx.user?.id === row.owner || ctx.user?.role === 'staff',\n")
			b.WriteString("    write: (ctx, row) => ctx.user?.id === row.owner,\n")
		} else {
			b.WriteString("    write: (ctx) => ctx.user !== null,\n")
		}
		b.WriteString("  },\n")
	}
	b.WriteString("})\n")
	return b.String()
}

// tablesIndex renders tables/index.ts: re-exports of the hub and of the
// first few tables, one of them renamed on the way.
func tablesIndex(specs []*tableSpec) string {
	var b strings.Builder
	b.WriteString("// The tables most code needs, in one place.\n")
	for i, t := range specs {
		if i >= 4 {
			break
		}
		if i == 0 {
			fmt.Fprintf(&b, "export { %s } from './%s'\n", t.name, t.name)
			fmt.Fprintf(&b, "export { %s as people } from './%s'\n", t.name, t.name)
			continue
		}
		fmt.Fprintf(&b, "export { %s } from './%s'\n", t.name, t.name)
	}
	return b.String()
}
