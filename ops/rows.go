package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/internal/spelling"
	"github.com/tent-tools/tent-tools/schema"
)

// rowsList is the list of a test data file's array: its brackets and its
// rows; ok is false where the text holds no array.
func rowsList(f *definitions.File) (change.List, bool) {
	open := bytes.IndexByte(f.Src, '[')
	closing := bytes.LastIndexByte(f.Src, ']')
	if open < 0 || closing < open {
		return change.List{}, false
	}
	l := change.List{Open: open, Close: closing}
	for _, r := range f.TestData.Rows {
		l.Items = append(l.Items, change.SpanOf(r.Span))
	}
	return l, true
}

// rowIndex is the index of the row whose id is id, -1.
func rowIndex(f *definitions.File, id string) int {
	for i, r := range f.TestData.Rows {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// rowIDs are the ids of a test data file's rows (none for no file) one
// edit away from id, for a likely typo's hint: ids are short and alike
// (u1, u2, u99), so a looser rule would name a row at random.
func rowIDs(f *definitions.File, id string) []string {
	if f == nil || f.TestData == nil {
		return nil
	}
	var ids []string
	for _, r := range f.TestData.Rows {
		if spelling.Distance(strings.ToLower(id), strings.ToLower(r.ID)) <= 1 {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// checkValue holds a value of a row to its column: the test data codes of
// the check (T2602 an unknown column, T2603 a wrong type, T2604 a
// required column set to null, T2606 a ref to no row).
func (st *state) checkValue(d *definitions.Definition, at, key string, raw json.RawMessage) error {
	field := at + "." + key
	c := d.Table.Column(key)
	if c == nil {
		return nearest(diag.Errorf(diag.T2602, "table %s has no column %s", d.Name, key).With("field", field), key, columnNames(d, ""))
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return badField(at, key, "is no JSON value")
	}
	s := c.Schema
	if v == nil && !s.Optional {
		return diag.Errorf(diag.T2604, "%s.%s is required (%s): it cannot be null", d.Name, key, s.Type).With("field", field)
	}
	if err := schema.CheckValue(s, v); err != nil {
		return diag.Errorf(diag.T2603, "%s.%s: %v", d.Name, key, err).With("field", field)
	}
	if id, ok := v.(string); ok && s.Type == schema.Ref {
		if t, _ := st.table(s.Ref); t != nil {
			if tf := st.testData(s.Ref); tf == nil || rowIndex(tf, id) < 0 {
				return nearest(diag.Errorf(diag.T2606, "%s.%s refers to %s row %s, which the test data of %s does not have", d.Name, key, s.Ref, id, s.Ref).With("field", field), id, rowIDs(tf, id))
			}
		}
	}
	return nil
}

// addRow adds a row to a table's test data (making testdata/T.json where
// there is none), held to the table's columns; a row without an id gets
// the next of the ids the rows have (o4 after o3).
func (st *state) addRow(o *object) error {
	tname, err := o.str("table")
	if err != nil {
		return err
	}
	d, err := st.table(tname)
	if err != nil {
		return err
	}
	row, err := o.sub("row")
	if err != nil {
		return err
	}
	f := st.testData(tname)
	id := ""
	if row.given("id") {
		if id, err = row.str("id"); err != nil || id == "" {
			return badField(row.at, "id", "must be a string, not empty")
		}
		if f != nil && rowIndex(f, id) >= 0 {
			return diag.Errorf(diag.T2605, "the test data of %s has a row %s already", tname, id).With("field", row.at+".id")
		}
	} else {
		id = nextID(f, tname)
	}
	keys := []string{"id"}
	vals := map[string]string{"id": jsonKey(id)}
	for _, k := range row.keys {
		if k == "id" {
			continue
		}
		if err := st.checkValue(d, row.at, k, row.vals[k]); err != nil {
			return err
		}
		keys = append(keys, k)
		vals[k] = jsonText(row.vals[k])
	}
	for _, c := range d.Table.Columns {
		s := c.Schema
		if !s.Optional && s.Default == nil && !row.given(s.Name) {
			return diag.Errorf(diag.T2604, "the row lacks %s (%s, required)", s.Name, s.Type).With("field", row.at+"."+s.Name)
		}
	}
	path := "testdata/" + tname + ".json"
	if f == nil {
		if st.src(path) != nil {
			return diag.Errorf(diag.T1002, "%s is not a JSON array of rows", path).With("path", path)
		}
		// A new file is written as the project's other test data is,
		// without the columns of that file's own keys.
		lay := st.sampleLayout()
		lay.keyCols, lay.width, lay.valueCol = nil, 0, 0
		return st.create(path, "["+lay.eol+lay.rowIndent+lay.rowText(keys, vals)+lay.eol+"]"+lay.eol)
	}
	list, ok := rowsList(f)
	if !ok {
		return diag.Errorf(diag.T1002, "%s is not a JSON array of rows", path).With("path", path)
	}
	lay := layoutOf(f.Src, list, f.TestData.Rows)
	if len(f.TestData.Rows) == 0 {
		lay = st.sampleLayout()
		lay.keyCols, lay.width, lay.valueCol = nil, 0, 0
	}
	return st.edit(path, appendRow(f.Src, list, f.TestData.Rows, lay, lay.rowText(lay.ordered(keys), vals)))
}

// sampleLayout is the row layout of the project's test data: that of the
// first file whose rows are laid out as most files' are (over lines or
// one a line), or a row over lines indented two spaces.
func (st *state) sampleLayout() rowLayout {
	var found [2]*rowLayout
	var count [2]int
	for _, f := range st.index().Files() {
		if f.TestData == nil || len(f.TestData.Rows) == 0 {
			continue
		}
		if l, ok := rowsList(f); ok {
			lay := layoutOf(f.Src, l, f.TestData.Rows)
			k := 0
			if lay.multiline {
				k = 1
			}
			count[k]++
			if found[k] == nil {
				found[k] = &lay
			}
		}
	}
	switch {
	case found[1] != nil && count[1] >= count[0]:
		return *found[1]
	case found[0] != nil:
		return *found[0]
	}
	return defaultRowLayout("  ", change.Style{Quote: '"', EOL: "\n", Indent: "  "})
}

// idPattern is an id that ends in a number: its prefix and the number.
var idPattern = regexp.MustCompile(`^(.*?)(\d+)$`)

// nextID is a new row's id: the prefix most ids of the rows share with
// one more than their highest number, or the table's first letter and 1.
func nextID(f *definitions.File, table string) string {
	prefix, high := strings.ToLower(table[:1]), 0
	taken := map[string]bool{}
	if f != nil {
		counts := map[string]int{}
		for _, r := range f.TestData.Rows {
			taken[r.ID] = true
			if m := idPattern.FindStringSubmatch(r.ID); m != nil {
				counts[m[1]]++
			}
		}
		best := -1
		for p, n := range counts {
			if n > best || (n == best && p < prefix) {
				prefix, best = p, n
			}
		}
		for _, r := range f.TestData.Rows {
			if m := idPattern.FindStringSubmatch(r.ID); m != nil && m[1] == prefix {
				n, _ := strconv.Atoi(m[2])
				high = max(high, n)
			}
		}
	}
	for n := high + 1; ; n++ {
		if id := fmt.Sprintf("%s%d", prefix, n); !taken[id] {
			return id
		}
	}
}

// setRow sets values of a row, each as a step of its own: a key it has
// gets its new value in place, one it lacks is added at its end; null
// drops the key (an optional column's value is then missing).
func (st *state) setRow(o *object) error {
	ss, err := strs(o, "table", "id")
	if err != nil {
		return err
	}
	tname, id := ss[0], ss[1]
	d, err := st.table(tname)
	if err != nil {
		return err
	}
	set, err := o.sub("set")
	if err != nil {
		return err
	}
	path := "testdata/" + tname + ".json"
	if f := st.testData(tname); f == nil || rowIndex(f, id) < 0 {
		return nearest(diag.Errorf(diag.T9103, "no row %s in %s", id, path).With("field", o.at+".id"), id, rowIDs(f, id))
	}
	for _, k := range set.keys {
		if k == "id" {
			return badField(set.at, "id", "cannot be set: a row's id is how others name it")
		}
		if err := st.checkValue(d, set.at, k, set.vals[k]); err != nil {
			return err
		}
		f := st.testData(tname)
		r := f.TestData.Rows[rowIndex(f, id)]
		l := change.RowList(r)
		i := rowKey(r, k)
		var edits []change.Edit
		switch {
		case set.null(k) && i < 0:
			continue
		case set.null(k):
			edits = l.Remove(f.Src, []int{i})
		case i >= 0:
			list, _ := rowsList(f)
			edits = setValue(f.Src, r, i, jsonText(set.vals[k]), layoutOf(f.Src, list, f.TestData.Rows))
		default:
			list, _ := rowsList(f)
			edits = insertKey(f.Src, r, len(r.Keys)-1, k, jsonText(set.vals[k]), layoutOf(f.Src, list, f.TestData.Rows), 0, jsonStyle(f.Src))
		}
		if err := st.edit(path, edits...); err != nil {
			return err
		}
	}
	return nil
}

// removeRow drops a row of a table's test data; a row that other rows
// refer to stays (T2606 names the first that does).
func (st *state) removeRow(o *object) error {
	ss, err := strs(o, "table", "id")
	if err != nil {
		return err
	}
	tname, id := ss[0], ss[1]
	if _, err := st.table(tname); err != nil {
		return err
	}
	path := "testdata/" + tname + ".json"
	f := st.testData(tname)
	i := -1
	if f != nil {
		i = rowIndex(f, id)
	}
	if i < 0 {
		return nearest(diag.Errorf(diag.T9103, "no row %s in %s", id, path).With("field", o.at+".id"), id, rowIDs(f, id))
	}
	if by := st.referrer(tname, id); by != "" {
		return diag.Errorf(diag.T2606, "%s row %s is referred to by %s; change or remove that first", tname, id, by).With("field", o.at+".id")
	}
	list, ok := rowsList(f)
	if !ok {
		return diag.Errorf(diag.T1002, "%s is not a JSON array of rows", path).With("path", path)
	}
	return st.edit(path, list.Remove(f.Src, []int{i})...)
}

// referrer names the first row of the test data whose ref names the row
// id of table ("orders row o1 (buyer)"), "" where none does.
func (st *state) referrer(table, id string) string {
	for _, d := range st.index().Definitions() {
		if d.Kind != definitions.KindTable || d.Table == nil {
			continue
		}
		var refs []string
		for _, c := range d.Table.Columns {
			if c.Schema.Type == schema.Ref && c.Schema.Ref == table {
				refs = append(refs, c.Schema.Name)
			}
		}
		f := st.testData(d.Name)
		if len(refs) == 0 || f == nil {
			continue
		}
		for _, r := range f.TestData.Rows {
			for _, k := range r.Keys {
				if v, ok := k.Value.(string); ok && v == id && contains(refs, k.Name.Name) && !(d.Name == table && r.ID == id) {
					return fmt.Sprintf("%s row %s (%s)", d.Name, r.ID, k.Name.Name)
				}
			}
		}
	}
	return ""
}
