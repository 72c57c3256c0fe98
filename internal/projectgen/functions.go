package projectgen

import (
	"fmt"
	"strings"
)

// inputCols are the fields a create function takes: every column but the
// times, which the function stamps itself.
func inputCols(t *tableSpec) []column {
	var in []column
	for _, c := range t.cols {
		if c.typ == "time" {
			continue
		}
		c.was = nil
		c.unique = false
		in = append(in, c)
	}
	return in
}

// listCols are the fields a list function takes.
var listCols = []column{
	{name: "status", typ: "choice", choices: statuses, optional: true},
	{name: "limit", typ: "int", optional: true},
}

// functionsFile renders functions/<name>.ts: a create and a list function.
func functionsFile(t *tableSpec) string {
	if t.name == hub {
		return hubFunctions
	}
	var b strings.Builder
	in := inputCols(t)
	used := append(append([]column{}, in...), listCols...)
	if t.close {
		used = append(used, column{typ: "ref"})
	}
	fmt.Fprintf(&b, "import { %s } from 'tent'\n", builderImports("fn", used))
	b.WriteString("import { formatMoney, sumCents } from '../lib/money'\n")
	b.WriteString("import { truncate } from '../lib/text'\n")
	b.WriteString("import { requireText, requireNonNegative } from '../lib/validate'\n")
	if t.mailLib {
		b.WriteString("import { notify } from '../lib/notify'\n")
	}
	if t.selfUse {
		fmt.Fprintf(&b, "import { %s } from '../tables/%s'\n", t.name, t.name)
	}
	switch {
	case t.hubUse && t.index%40 == 23:
		b.WriteString("import { people as members } from '../tables'\n")
	case t.hubUse:
		fmt.Fprintf(&b, "import { %s as members } from '../tables/%s'\n", hub, hub)
	case t.hubName:
		fmt.Fprintf(&b, "import { %s } from '../tables/%s'\n", hub, hub)
	}
	b.WriteString("\n")
	writeCreate(&b, t, in)
	b.WriteString("\n")
	writeList(&b, t)
	if t.close {
		b.WriteString("\n")
		writeClose(&b, t)
	}
	return b.String()
}

func writeCreate(b *strings.Builder, t *tableSpec, in []column) {
	fmt.Fprintf(b, "// Adds one %s, after checking that the rows it names exist.\n", t.one)
	fmt.Fprintf(b, "export const %s = fn({\n", createName(t))
	b.WriteString("  input: {\n")
	for _, c := range in {
		fmt.Fprintf(b, "    %s: %s,\n", c.name, c.builder())
	}
	b.WriteString("  },\n")
	if s := t.sends(); len(s) > 0 {
		fmt.Fprintf(b, "  sends: %s,\n", quoteList(s))
	}
	if t.fnMay {
		b.WriteString("  may: (ctx) => ctx.user !== null,\n")
	}
	b.WriteString("  run: async (ctx, input) => {\n")
	b.WriteString("    requireText(input.title, 'title')\n")
	b.WriteString("    requireNonNegative(input.amount, 'amount')\n")
	for _, c := range in {
		if c.typ != "ref" {
			continue
		}
		if c.optional {
			fmt.Fprintf(b, "    if (input.%s && !(await ctx.db.%s.get(input.%s))) {\n", c.name, c.ref, c.name)
		} else {
			fmt.Fprintf(b, "    const %s = await ctx.db.%s.get(input.%s)\n", c.name, c.ref, c.name)
			fmt.Fprintf(b, "    if (!%s) {\n", c.name)
		}
		fmt.Fprintf(b, "      throw new Error(`no %s row ${input.%s}`)\n", c.ref, c.name)
		b.WriteString("    }\n")
	}
	if t.calls != "" {
		fmt.Fprintf(b, "    const related = await ctx.call('%s', { status: 'open', limit: 5 })\n", t.calls)
		b.WriteString("    ctx.log('open related rows', related)\n")
	}
	if t.selfUse {
		fmt.Fprintf(b, "    ctx.log('inserting into a table of', Object.keys(%s.columns).length, 'columns')\n", t.name)
	}
	if t.hubUse {
		b.WriteString("    ctx.log('members have', Object.keys(members.columns).join(', '))\n")
	}
	if t.hubName {
		fmt.Fprintf(b, "    ctx.log('%s have', Object.keys(%s.columns).length, 'columns')\n", hub, hub)
	}
	fmt.Fprintf(b, "    const row = await ctx.db.%s.insert({\n", t.name)
	for _, c := range t.cols {
		switch {
		case c.typ == "time":
			fmt.Fprintf(b, "      %s: ctx.now(),\n", c.name)
		case c.optional:
			fmt.Fprintf(b, "      %s: input.%s ?? null,\n", c.name, c.name)
		default:
			fmt.Fprintf(b, "      %s: input.%s,\n", c.name, c.name)
		}
	}
	b.WriteString("    })\n")
	fmt.Fprintf(b, "    ctx.log('added %s', row.id, formatMoney(row.amount))\n", t.one)
	if t.mail {
		to := "'ops@example.com'"
		if t.col("owner") != nil {
			to = "owner.email"
		}
		subject := fmt.Sprintf("`New %s ${row.id}`", t.one)
		text := fmt.Sprintf("`${input.title} was added for ${formatMoney(input.amount)}.`")
		if t.mailLib {
			fmt.Fprintf(b, "    await notify(ctx, %s, %s, %s)\n", to, subject, text)
		} else {
			fmt.Fprintf(b, "    await ctx.mail.send({ to: %s, subject: %s, text: %s })\n", to, subject, text)
		}
	}
	if t.http {
		fmt.Fprintf(b, "    const res = await ctx.http.fetch('https://api.example.com/v1/%s', {\n", t.name)
		b.WriteString("      method: 'POST',\n")
		b.WriteString("      headers: { 'content-type': 'application/json' },\n")
		b.WriteString("      body: JSON.stringify({ id: row.id, amount: row.amount }),\n")
		b.WriteString("    })\n")
		b.WriteString("    ctx.log('synced', row.id, res.status)\n")
	}
	b.WriteString("    return { id: row.id, title: row.title }\n")
	b.WriteString("  },\n")
	b.WriteString("})\n")
}

func writeList(b *strings.Builder, t *tableSpec) {
	fmt.Fprintf(b, "// Lists %s, oldest first, of one status or of all.\n", t.label)
	fmt.Fprintf(b, "export const %s = fn({\n", listName(t))
	b.WriteString("  input: {\n")
	for _, c := range listCols {
		fmt.Fprintf(b, "    %s: %s,\n", c.name, c.builder())
	}
	b.WriteString("  },\n")
	b.WriteString("  run: async (ctx, input) => {\n")
	b.WriteString("    const limit = input.limit ?? 50\n")
	b.WriteString("    const rows = input.status\n")
	fmt.Fprintf(b, "      ? await ctx.db.%s.where({ status: input.status }, { limit, order: 'createdAt' })\n", t.name)
	fmt.Fprintf(b, "      : await ctx.db.%s.all({ limit, order: 'createdAt' })\n", t.name)
	b.WriteString("    const total = sumCents(rows.map((row) => row.amount))\n")
	fmt.Fprintf(b, "    ctx.log('listed', rows.length, '%s worth', formatMoney(total))\n", t.name)
	b.WriteString("    return rows.map((row) => ({\n")
	b.WriteString("      id: row.id,\n")
	b.WriteString("      title: truncate(row.title, 40),\n")
	b.WriteString("      amount: formatMoney(row.amount),\n")
	b.WriteString("      status: row.status,\n")
	b.WriteString("    }))\n")
	b.WriteString("  },\n")
	b.WriteString("})\n")
}

func writeClose(b *strings.Builder, t *tableSpec) {
	fmt.Fprintf(b, "// Closes one %s: the row is kept, but no longer counts as open.\n", t.one)
	fmt.Fprintf(b, "export const %s = fn({\n", "close"+capitalize(t.one))
	fmt.Fprintf(b, "  input: { %s: ref('%s') },\n", t.one, t.name)
	b.WriteString("  run: async (ctx, input) => {\n")
	fmt.Fprintf(b, "    const row = await ctx.db.%s.get(input.%s)\n", t.name, t.one)
	b.WriteString("    if (!row) {\n")
	fmt.Fprintf(b, "      throw new Error(`no %s ${input.%s}`)\n", t.one, t.one)
	b.WriteString("    }\n")
	b.WriteString("    if (row.status === 'closed') {\n")
	b.WriteString("      return { id: row.id, changed: false }\n")
	b.WriteString("    }\n")
	fmt.Fprintf(b, "    await ctx.db.%s.update(row.id, { status: 'closed' })\n", t.name)
	b.WriteString("    return { id: row.id, changed: true }\n")
	b.WriteString("  },\n")
	b.WriteString("})\n")
}

// hubFunctions are the functions of the users table: sign-up (which mails
// a welcome through lib/notify) and a list.
const hubFunctions = `import { fn, text, int, choice } from 'tent'
import { notify } from '../lib/notify'
import { truncate } from '../lib/text'

// Signs a new member up and mails them a welcome.
export const createAccount = fn({
  input: {
    name: text(),
    email: text(),
    phone: text({ optional: true, private: true }),
  },
  sends: ['mail'],
  run: async (ctx, input) => {
    const taken = await ctx.db.accounts.where({ email: input.email }, { limit: 1 })
    if (taken.length > 0) {
      throw new Error(` + "`${input.email} already has an account`" + `)
    }
    const row = await ctx.db.accounts.insert({
      name: input.name,
      email: input.email,
      passwordHash: '',
      role: 'member',
      phone: input.phone ?? null,
      joinedAt: ctx.now(),
    })
    await notify(ctx, row.email, 'Welcome', ` + "`Hello ${row.name}, your account is ready.`" + `)
    return { id: row.id, name: row.name }
  },
})

// Lists the members of one role, or all of them.
export const listAccounts = fn({
  input: {
    role: choice(['member', 'staff', 'admin'], { optional: true }),
    limit: int({ optional: true }),
  },
  may: (ctx) => ctx.user !== null,
  run: async (ctx, input) => {
    const limit = input.limit ?? 50
    const rows = input.role
      ? await ctx.db.accounts.where({ role: input.role }, { limit, order: 'joinedAt' })
      : await ctx.db.accounts.all({ limit, order: 'joinedAt' })
    return rows.map((row) => ({ id: row.id, name: truncate(row.name, 40), role: row.role }))
  },
})
`
