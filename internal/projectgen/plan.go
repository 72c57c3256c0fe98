package projectgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// column is one generated column (or function input field).
type column struct {
	name     string
	typ      string // a column builder of 'tent'
	ref      string // the target table, for ref
	choices  []string
	optional bool
	private  bool
	unique   bool
	def      string // a TypeScript literal, "" for none
	was      []string
}

// tableSpec is everything the generator decided about one table; the
// renderers only turn it into text, so every file agrees with every other.
type tableSpec struct {
	index    int
	name     string // plural, e.g. invoices12
	one      string // singular, e.g. invoice12
	label    string // for people, e.g. "Invoices 12"
	cols     []column
	refs     []string // the tables its ref columns name, in column order
	was      string
	removed  []string
	indexes  [][]string
	may      bool
	rows     int
	fnMay    bool
	mail     bool   // create sends mail
	mailLib  bool   // ... through the lib/notify helper rather than ctx.mail directly
	http     bool   // create sends http
	calls    string // create ctx.calls this list function ("" for none)
	selfUse  bool   // the functions file imports and uses its own table
	hubUse   bool   // the functions file imports the hub table under another name
	hubName  bool   // the functions file imports the hub table by its name
	close    bool   // the functions file has a third function, close
	screen   bool
	flowHead bool // a flow starts at this table's create function
}

// hub is the table most others name: the app's users.
const hub = "accounts"

var statuses = []string{"draft", "open", "closed"}

// plan decides the tables from the seed.
func plan(n int, seed int64) []*tableSpec {
	if n < 1 {
		n = 1
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7e47))
	specs := make([]*tableSpec, n)
	specs[0] = hubSpec()
	for i := 1; i < n; i++ {
		specs[i] = tableAt(rng, i, specs)
	}
	return specs
}

// tableName gives the plural and singular names of table i.
func tableName(i int) (many, one, label string) {
	nn := nouns[i%len(nouns)]
	gen := i / len(nouns)
	if gen == 0 {
		return nn.many, nn.one, capitalize(nn.many)
	}
	suffix := fmt.Sprint(gen + 1)
	return nn.many + suffix, nn.one + suffix, capitalize(nn.many) + " " + suffix
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// hubSpec is the users table, fixed so that the rename benchmark has a
// stable target.
func hubSpec() *tableSpec {
	return &tableSpec{
		index: 0,
		name:  hub,
		one:   "account",
		label: "Accounts",
		cols: []column{
			{name: "name", typ: "text"},
			{name: "email", typ: "text", unique: true},
			{name: "passwordHash", typ: "text", private: true},
			{name: "role", typ: "choice", choices: []string{"member", "staff", "admin"}, def: "'member'"},
			{name: "phone", typ: "text", optional: true, private: true},
			{name: "joinedAt", typ: "time", was: []string{"createdAt"}},
		},
		indexes: [][]string{{"email"}},
		may:     true,
		rows:    10,
	}
}

// tableAt decides table i (i >= 1) from the tables before it.
func tableAt(rng *rand.Rand, i int, prev []*tableSpec) *tableSpec {
	many, one, label := tableName(i)
	t := &tableSpec{index: i, name: many, one: one, label: label, rows: 5}
	t.cols = append(t.cols, column{name: "title", typ: "text"})

	// One or two refs to earlier tables (not the hub: the hub is named
	// through owner, so its count stays near half the tables).
	if i > 1 {
		first := 1 + rng.IntN(i-1)
		t.cols = append(t.cols, refCol(prev[first]))
		t.refs = append(t.refs, prev[first].name)
		if i > 2 && rng.IntN(10) < 4 {
			second := 1 + rng.IntN(i-1)
			if second != first {
				c := refCol(prev[second])
				c.optional = true
				t.cols = append(t.cols, c)
				t.refs = append(t.refs, prev[second].name)
			}
		}
	}
	if i%5 == 1 {
		t.cols = append(t.cols, column{name: "owner", typ: "ref", ref: hub})
	}
	t.cols = append(t.cols, column{name: "amount", typ: "money"})
	t.cols = append(t.cols, column{name: "status", typ: "choice", choices: statuses, def: "'draft'"})
	if rng.IntN(2) == 0 {
		t.cols = append(t.cols, column{name: "quantity", typ: "int", def: "0"})
	}
	if rng.IntN(3) == 0 {
		t.cols = append(t.cols, column{name: "score", typ: "num", optional: true})
	}
	if rng.IntN(2) == 0 {
		t.cols = append(t.cols, column{name: "active", typ: "bool", def: "true"})
	}
	created := column{name: "createdAt", typ: "time"}
	if i%3 == 0 {
		created.was = []string{"created"}
	}
	t.cols = append(t.cols, created)
	notes := column{name: "notes", typ: "text", optional: true, private: true}
	if i%7 == 2 {
		notes.was = []string{"remarks", "comment"}
	}
	t.cols = append(t.cols, notes)
	if rng.IntN(4) == 0 {
		t.cols = append(t.cols, column{name: "meta", typ: "json", optional: true})
	}
	if len(t.cols) < 6 {
		t.cols = append(t.cols, column{name: "code", typ: "text", unique: true})
	}

	lead := "status"
	if len(t.refs) > 0 {
		lead = t.cols[1].name
	}
	t.indexes = [][]string{{lead, "createdAt"}}
	if i%6 == 4 {
		t.was = "old" + capitalize(many)
	}
	if i%11 == 5 {
		t.removed = []string{"legacyCode"}
	}
	t.may = i%4 == 2
	t.fnMay = i%3 == 1
	t.mail = i%5 == 0
	t.mailLib = i%10 == 5
	t.http = i%13 == 7
	if len(t.refs) > 0 && i%3 == 0 {
		t.calls = "list" + capitalize(t.refs[0])
	}
	t.selfUse = i%7 == 4
	t.hubUse = i%20 == 3
	t.hubName = i%20 == 13
	t.close = i%2 == 0
	t.screen = i%5 == 2
	t.flowHead = i%10 == 9
	return t
}

// refCol is a required ref column named after its target's singular.
func refCol(target *tableSpec) column {
	return column{name: target.one, typ: "ref", ref: target.name}
}

// required reports whether a row or an insert must hold c.
func (c column) required() bool { return !c.optional }

// sends lists what the create function of t declares.
func (t *tableSpec) sends() []string {
	var s []string
	if t.mail {
		s = append(s, "mail")
	}
	if t.http {
		s = append(s, "http")
	}
	return s
}

// col returns the column named name, or nil.
func (t *tableSpec) col(name string) *column {
	for i := range t.cols {
		if t.cols[i].name == name {
			return &t.cols[i]
		}
	}
	return nil
}

func createName(t *tableSpec) string { return "create" + capitalize(t.one) }
func listName(t *tableSpec) string   { return "list" + capitalize(t.name) }
