package projectgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

var (
	firstNames = []string{"Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ines", "Jonas", "Kofi", "Lena"}
	lastNames  = []string{"Martin", "Okafor", "Wei", "Ruiz", "Nwosu", "Haddad", "Petrov", "Sato", "Silva", "Berg", "Mensah", "Vogel"}
	noteTexts  = []string{"Call before delivery.", "Paid in two parts.", "Customer asked for a discount.", "Check the address.", "VIP: answer within a day."}
	epoch      = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

// rowID is the id of row k (1-based) of table t.
func rowID(t *tableSpec, k int) string { return t.one + "-" + strconv.Itoa(k) }

// testDataFile renders testdata/<name>.json: t.rows rows, every required
// column present, every ref naming a row that exists, private values set.
func testDataFile(rng *rand.Rand, t *tableSpec, byName map[string]*tableSpec) string {
	var b strings.Builder
	b.WriteString("[\n")
	for k := 1; k <= t.rows; k++ {
		b.WriteString("  {\n")
		fields := []string{fmt.Sprintf("%q: %q", "id", rowID(t, k))}
		for _, c := range t.cols {
			v, ok := value(rng, t, c, k, byName)
			if !ok {
				continue
			}
			fields = append(fields, fmt.Sprintf("%q: %s", c.name, v))
		}
		for i, f := range fields {
			b.WriteString("    " + f)
			if i < len(fields)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("  }")
		if k < t.rows {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.String()
}

// value is the JSON of column c in row k; ok is false where an optional
// column is left out of the row.
func value(rng *rand.Rand, t *tableSpec, c column, k int, byName map[string]*tableSpec) (string, bool) {
	if c.optional {
		switch rng.IntN(4) {
		case 0:
			return "", false
		case 1:
			if !c.private {
				return "null", true
			}
		}
	}
	first, last := firstNames[(t.index+k)%len(firstNames)], lastNames[(t.index*7+k)%len(lastNames)]
	switch c.typ {
	case "ref":
		target := byName[c.ref]
		return jsonString(rowID(target, 1+rng.IntN(target.rows))), true
	case "money":
		return strconv.Itoa(rng.IntN(200000)), true
	case "int":
		return strconv.Itoa(rng.IntN(100)), true
	case "num":
		return strconv.FormatFloat(float64(rng.IntN(500))/100, 'f', -1, 64), true
	case "bool":
		return strconv.FormatBool(rng.IntN(4) != 0), true
	case "choice":
		return jsonString(c.choices[rng.IntN(len(c.choices))]), true
	case "time":
		at := epoch.Add(time.Duration(rng.IntN(365*24*60)) * time.Minute)
		return jsonString(at.Format(time.RFC3339)), true
	case "json":
		return fmt.Sprintf(`{"source": "import", "batch": %d}`, 1+rng.IntN(9)), true
	}
	switch c.name {
	case "name":
		return jsonString(first + " " + last), true
	case "email":
		return jsonString(strings.ToLower(first) + "." + strconv.Itoa(k) + "@example.com"), true
	case "passwordHash":
		return jsonString(fmt.Sprintf("$2b$10$%016x", rng.Uint64())), true
	case "phone":
		return jsonString(fmt.Sprintf("+44 20 7946 %04d", rng.IntN(10000))), true
	case "title":
		return jsonString(fmt.Sprintf("%s %d for %s", capitalize(t.one), k, first)), true
	case "notes":
		return jsonString(noteTexts[rng.IntN(len(noteTexts))]), true
	case "code":
		return jsonString(fmt.Sprintf("%s-C%03d", strings.ToUpper(t.one[:3]), k)), true
	}
	return jsonString(fmt.Sprintf("%s %d", c.name, k)), true
}

func jsonString(s string) string {
	out, _ := json.Marshal(s)
	return string(out)
}
