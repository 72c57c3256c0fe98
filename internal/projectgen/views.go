package projectgen

import (
	"fmt"
	"strings"
)

// flowFile renders flows/<name>Flow.ts: add a row, then list it and the
// table it names.
func flowFile(t *tableSpec) string {
	in := inputCols(t)
	var b strings.Builder
	fmt.Fprintf(&b, "import { %s } from 'tent'\n\n", builderImports("flow", in))
	fmt.Fprintf(&b, "// Adds one %s, then lists what it joined.\n", t.one)
	fmt.Fprintf(&b, "export const %sFlow = flow({\n", t.name)
	b.WriteString("  input: {\n")
	for _, c := range in {
		fmt.Fprintf(&b, "    %s: %s,\n", c.name, c.builder())
	}
	b.WriteString("  },\n")
	steps := []string{createName(t), listName(t)}
	if len(t.refs) > 0 {
		steps = append(steps, "list"+capitalize(t.refs[0]))
	}
	fmt.Fprintf(&b, "  steps: %s,\n", quoteList(steps))
	b.WriteString("})\n")
	return b.String()
}

// screenFile renders screens/<name>.tsx: a table's rows of one status.
func screenFile(t *tableSpec) string {
	var b strings.Builder
	b.WriteString("import { screen, Page, Section, Heading, Text, Table, Stat, Badge, Link } from 'tent/ui'\n")
	b.WriteString("import { formatMoney, sumCents } from '../lib'\n\n")
	fmt.Fprintf(&b, "// %s of one status, with what they are worth.\n", t.label)
	fmt.Fprintf(&b, "export const %sScreen = screen({\n", t.name)
	fmt.Fprintf(&b, "  path: '/%s/:status',\n", t.name)
	fmt.Fprintf(&b, "  title: '%s',\n", t.label)
	b.WriteString("  load: async (ctx, params) => {\n")
	fmt.Fprintf(&b, "    const rows = await ctx.db.%s.where({ status: params.status }, { limit: 100, order: 'createdAt' })\n", t.name)
	b.WriteString("    return { status: params.status, rows, total: sumCents(rows.map((row) => row.amount)) }\n")
	b.WriteString("  },\n")
	b.WriteString("  view: ({ status, rows, total }) => (\n")
	fmt.Fprintf(&b, "    <Page title=\"%s\">\n", t.label)
	b.WriteString("      <Section>\n")
	fmt.Fprintf(&b, "        <Heading>%s</Heading>\n", t.label)
	b.WriteString("        <Badge>{status}</Badge>\n")
	b.WriteString("        <Stat label=\"Rows\" value={rows.length} />\n")
	b.WriteString("        <Stat label=\"Worth\" value={formatMoney(total)} />\n")
	b.WriteString("      </Section>\n")
	b.WriteString("      <Section>\n")
	b.WriteString("        {rows.length === 0 ? <Text>Nothing here yet.</Text> : null}\n")
	cols := []string{"title", "amount", "status", "createdAt"}
	if len(t.refs) > 0 {
		cols = append([]string{"title", t.cols[1].name}, cols[1:]...)
	}
	fmt.Fprintf(&b, "        <Table rows={rows} columns={%s} />\n", quoteList(cols))
	b.WriteString("      </Section>\n")
	for _, s := range statuses {
		fmt.Fprintf(&b, "      <Link to=\"/%s/%s\">%s</Link>\n", t.name, s, capitalize(s))
	}
	b.WriteString("    </Page>\n")
	b.WriteString("  ),\n")
	b.WriteString("})\n")
	return b.String()
}
