package ops

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/change"
	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/rename"
	"github.com/tent-tools/tent-tools/schema"
)

// table is the table named name now (T9103 where there is none).
func (st *state) table(name string) (*definitions.Definition, error) {
	for _, d := range st.index().DefinitionsNamed(name) {
		if d.Kind == definitions.KindTable && d.Table != nil {
			return d, nil
		}
	}
	if d := st.index().Definition(name); d != nil {
		return nil, diag.Errorf(diag.T9103, "%s is a %s, not a table", name, d.Kind).With("name", name)
	}
	return nil, nearest(diag.Errorf(diag.T9103, "no table %s", name).With("name", name), name, st.namesOf(definitions.KindTable))
}

// namesOf are the names of the definitions of a kind now, for a likely
// typo's hint.
func (st *state) namesOf(kind definitions.Kind) []string {
	var names []string
	for _, d := range st.index().Definitions() {
		if d.Kind == kind {
			names = append(names, d.Name)
		}
	}
	return names
}

// columnNames are the names of a table's columns after prefix ("" or
// "orders."), for a likely typo's hint.
func columnNames(d *definitions.Definition, prefix string) []string {
	names := make([]string, 0, len(d.Table.Columns))
	for _, c := range d.Table.Columns {
		names = append(names, prefix+c.Schema.Name)
	}
	return names
}

// typeNames are the column types, for a likely typo's hint.
func typeNames() []string {
	names := make([]string, len(schema.Types))
	for i, t := range schema.Types {
		names[i] = string(t)
	}
	return names
}

// column is the table's column named by full ("orders.buyer").
func (st *state) column(full string) (*definitions.Definition, *definitions.Column, error) {
	tname, cname, ok := strings.Cut(full, ".")
	if !ok {
		return nil, nil, diag.Errorf(diag.T9102, "bad input: a column is named TABLE.COLUMN, not %q", full).With("column", full)
	}
	d, err := st.table(tname)
	if err != nil {
		return nil, nil, err
	}
	if cname == "id" {
		return nil, nil, diag.Errorf(diag.T9107, "`id` is every table's implicit column: it has no text to change").With("column", full)
	}
	c := d.Table.Column(cname)
	if c == nil {
		return nil, nil, nearest(diag.Errorf(diag.T9103, "no column %s", full).With("column", full), full, columnNames(d, tname+"."))
	}
	return d, c, nil
}

// columnsList is the list of a table's `columns` object.
func columnsList(d *definitions.Definition) (change.List, *definitions.Value, error) {
	t := d.Table
	if t.ColumnsProp == nil || t.ColumnsProp.Value == nil || t.ColumnsProp.Value.Kind != definitions.ValObject {
		return change.List{}, nil, diag.Errorf(diag.T2012, "table %s has no columns object to change", d.Name).With("name", d.Name)
	}
	return change.ListOf(t.ColumnsProp.Value), t.ColumnsProp.Value, nil
}

// propIndex is the index of a column's property in its object.
func propIndex(obj *definitions.Value, p *definitions.Prop) int {
	for i, q := range obj.Props {
		if q == p {
			return i
		}
	}
	return -1
}

// tableNameFree refuses a new table's name that is taken.
func (st *state) tableNameFree(name string) error {
	if terr := rename.CheckName(name); terr != nil {
		return terr
	}
	if ds := st.index().DefinitionsNamed(name); len(ds) > 0 {
		return diag.Errorf(diag.T9107, "%s is taken: a %s of %s has that name", name, ds[0].Kind, ds[0].Path).With("name", name)
	}
	if p := st.index().Project(); p != nil && p.Project != nil && hasName(p.Project.Removed, name) {
		return diag.Errorf(diag.T2006, "%s is in the project's removed: a table of that name was removed on purpose", name).With("name", name)
	}
	for _, d := range st.index().Definitions() {
		if d.Kind == definitions.KindTable && d.Table != nil && hasName(d.Table.Was, name) {
			return diag.Errorf(diag.T2007, "%s is an earlier name (was) of table %s", name, d.Name).With("name", name)
		}
	}
	return nil
}

// columnNameFree refuses a new column's name that the table uses.
func columnNameFree(d *definitions.Definition, name string) error {
	if terr := rename.CheckName(name); terr != nil {
		return terr
	}
	t := d.Table
	if t.Column(name) != nil {
		return diag.Errorf(diag.T9107, "table %s has a column %s already", d.Name, name).With("name", name)
	}
	if hasName(t.Removed, name) {
		return diag.Errorf(diag.T2006, "%s.%s is in the table's removed: a column of that name was removed on purpose", d.Name, name).With("name", name)
	}
	for _, c := range t.Columns {
		if hasName(c.Was, name) {
			return diag.Errorf(diag.T2007, "%s is an earlier name (was) of %s.%s", name, d.Name, c.Schema.Name).With("name", name)
		}
	}
	return nil
}

func hasName(refs []definitions.NameRef, name string) bool {
	for _, r := range refs {
		if r.Name == name {
			return true
		}
	}
	return false
}

// parseColumn reads a column's fields (addTable's COLUMN, addColumn's).
func (st *state) parseColumn(o *object, name, self string) (column, error) {
	c := column{name: name}
	var err error
	if c.typ, err = o.str("type"); err != nil {
		return c, err
	}
	if !schema.IsType(c.typ) {
		return c, nearest(diag.Errorf(diag.T2002, "unknown column type %q; the types are %s", c.typ, typeList()).With("field", o.at+".type"), c.typ, typeNames())
	}
	if c.ref, err = o.str("ref"); err != nil {
		return c, err
	}
	if c.values, err = o.strings("values"); err != nil {
		return c, err
	}
	if err := st.typeArgs(o, &c, self); err != nil {
		return c, err
	}
	for _, f := range []struct {
		key string
		to  *bool
	}{{"optional", &c.optional}, {"private", &c.private}, {"unique", &c.unique}} {
		v, _, err := o.boolean(f.key)
		if err != nil {
			return c, err
		}
		*f.to = v
	}
	if o.has("default") {
		c.def = o.vals["default"]
	}
	return c, checkDefault(o.at, c)
}

// typeArgs checks what a column's type takes: a ref its table, a choice
// its values, and nothing of the other's.
func (st *state) typeArgs(o *object, c *column, self string) error {
	switch {
	case c.typ == "ref" && c.ref == "":
		return badField(o.at, "ref", "is needed: a ref column names its table")
	case c.typ != "ref" && c.ref != "":
		return badField(o.at, "ref", "is for a ref column, and this one is %s", c.typ)
	case c.typ == "choice" && len(c.values) == 0:
		return badField(o.at, "values", "is needed: a choice column lists its values")
	case c.typ != "choice" && c.values != nil:
		return badField(o.at, "values", "is for a choice column, and this one is %s", c.typ)
	}
	if c.typ == "ref" && c.ref != self {
		if d, _ := st.table(c.ref); d == nil {
			return nearest(diag.Errorf(diag.T2003, "ref('%s'): no table %s", c.ref, c.ref).With("field", o.at+".ref"), c.ref, st.namesOf(definitions.KindTable))
		}
	}
	seen := map[string]bool{}
	for _, v := range c.values {
		if seen[v] {
			return badField(o.at, "values", "holds %q twice", v)
		}
		seen[v] = true
	}
	return nil
}

// checkDefault refuses a default that does not fit its column.
func checkDefault(at string, c column) error {
	if c.def == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(c.def, &v); err != nil {
		return badField(at, "default", "is no JSON value")
	}
	if err := schema.CheckValue(&schema.Column{Name: c.name, Type: schema.Type(c.typ), Choices: c.values, Optional: true}, v); err != nil {
		return badField(at, "default", "does not fit the column: %v", err)
	}
	return nil
}

func typeList() string {
	return strings.Join(typeNames(), ", ")
}

// styleSample is the style new tables are written in: the file's own
// where it exists, else the first table's file.
func (st *state) styleSample(path string) (src []byte, style change.Style, trailing bool) {
	var sample *definitions.Definition
	if f := st.index().File(path); f != nil {
		for _, d := range f.Definitions {
			if d.Kind == definitions.KindTable && d.Table != nil {
				sample = d
				break
			}
		}
		if sample == nil {
			return f.Src, change.DetectStyle(f.Src), true
		}
	}
	if sample == nil {
		for _, d := range st.index().Definitions() {
			if d.Kind == definitions.KindTable && d.Table != nil && d.Table.ColumnsProp != nil {
				sample = d
				break
			}
		}
	}
	if sample == nil {
		return nil, change.Style{Quote: '\'', EOL: "\n", Indent: "  "}, true
	}
	src = st.index().File(sample.Path).Src
	trailing = true
	if l, _, err := columnsList(sample); err == nil && l.Multiline(src) {
		trailing = trailingComma(src, l)
	}
	return src, change.StyleOf(src, sample), trailing
}

// addTable writes a new table: a file of its own (tables/NAME.ts by
// default), or appended to the file at path.
func (st *state) addTable(o *object) error {
	ss, err := strs(o, "name", "path")
	if err != nil {
		return err
	}
	name, path := ss[0], ss[1]
	if path == "" {
		path = "tables/" + name + ".ts"
	}
	if !strings.HasSuffix(path, ".ts") && !strings.HasSuffix(path, ".tsx") {
		return badField(o.at, "path", "must name a .ts or .tsx file")
	}
	if err := st.tableNameFree(name); err != nil {
		return err
	}
	colsObj, err := o.sub("columns")
	if err != nil {
		return err
	}
	var cols []column
	for _, k := range colsObj.keys {
		if terr := rename.CheckName(k); terr != nil {
			return terr.With("field", colsObj.at+"."+k)
		}
		co, err := colsObj.sub(k)
		if err != nil {
			return err
		}
		if err := co.only(columnFields.required, columnFields.optional); err != nil {
			return err
		}
		c, err := st.parseColumn(co, k, name)
		if err != nil {
			return err
		}
		cols = append(cols, c)
	}
	src, style, trailing := st.styleSample(path)
	f := st.index().File(path)
	builders := []string{"table"}
	for _, c := range cols {
		builders = append(builders, c.typ)
	}
	builders = slices.Compact(uniq(builders))
	names := map[string]string{}
	for _, b := range builders {
		names[b], _ = callee(f, b)
	}
	text := tableText(name, cols, names, style, trailing, semicolon(src))
	if f == nil {
		if st.src(path) != nil {
			return diag.Errorf(diag.T9107, "%s exists and is not read as a project file", path).With("path", path)
		}
		return st.create(path, importLine(builders, src, style)+style.EOL+style.EOL+text+style.EOL)
	}
	edits := importEdits(f, builders, style)
	at := len(f.Src)
	prefix := style.EOL
	switch {
	case len(f.Src) == 0:
		prefix = ""
	case !bytes.HasSuffix(f.Src, []byte("\n")):
		prefix = style.EOL + style.EOL
	case change.BlankLine(f.Src, max(0, len(f.Src)-len(style.EOL)-1)) && len(f.Src) > len(style.EOL):
		prefix = ""
	}
	return st.edit(path, append(edits, change.Edit{Start: at, End: at, Text: prefix + text + style.EOL})...)
}

// uniq drops repeats, keeping the first of each.
func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// tableText writes a table's statement.
func tableText(name string, cols []column, callees map[string]string, st change.Style, trailing bool, semi string) string {
	in, eol := st.Indent, st.EOL
	comma := ""
	if trailing {
		comma = ","
	}
	var b strings.Builder
	b.WriteString("export const " + name + " = " + callees["table"] + "({" + eol)
	if len(cols) == 0 {
		b.WriteString(in + "columns: {}" + comma + eol)
	} else {
		b.WriteString(in + "columns: {" + eol)
		for i, c := range cols {
			sep := ","
			if i == len(cols)-1 && !trailing {
				sep = ""
			}
			b.WriteString(in + in + c.name + ": " + callText(callees[c.typ], c, st) + sep + eol)
		}
		b.WriteString(in + "}" + comma + eol)
	}
	b.WriteString("})" + semi)
	return b.String()
}

// addColumn adds a column after another (the last by default), and its
// default to the test data rows that lack it where it is required.
func (st *state) addColumn(o *object) error {
	ss, err := strs(o, "table", "name", "after")
	if err != nil {
		return err
	}
	tname, name, after := ss[0], ss[1], ss[2]
	d, err := st.table(tname)
	if err != nil {
		return err
	}
	if err := columnNameFree(d, name); err != nil {
		return err
	}
	c, err := st.parseColumn(o, name, tname)
	if err != nil {
		return err
	}
	list, obj, err := columnsList(d)
	if err != nil {
		return err
	}
	at := len(list.Items) - 1
	if after != "" {
		ac := d.Table.Column(after)
		if ac == nil {
			return nearest(diag.Errorf(diag.T9103, "no column %s.%s to add %s after", tname, after, name).With("field", o.at+".after"), after, columnNames(d, ""))
		}
		at = propIndex(obj, ac.Prop)
	}
	f := st.index().File(d.Path)
	style := change.StyleOf(f.Src, d)
	local, _ := callee(f, c.typ)
	edits := list.InsertAfter(f.Src, at, []string{name + ": " + callText(local, c, style)}, style)
	edits = append(edits, importEdits(f, []string{c.typ}, style)...)
	if err := st.edit(d.Path, edits...); err != nil {
		return err
	}
	if !c.optional && c.def != nil {
		return st.fillRows(tname, name, after, c.def)
	}
	return nil
}

// testData is the test data file of a table now, nil where it has none.
func (st *state) testData(table string) *definitions.File {
	f := st.index().File("testdata/" + table + ".json")
	if f == nil || f.TestData == nil {
		return nil
	}
	return f
}

// jsonStyle is the style of a test data file: double quotes, its line
// ends and indentation.
func jsonStyle(src []byte) change.Style {
	s := change.DetectStyle(src)
	s.Quote = '"'
	return s
}

// fillRows gives each row of a table's test data that lacks the column
// its default, after the key after (at the row's end where it has none).
func (st *state) fillRows(table, col, after string, def json.RawMessage) error {
	f := st.testData(table)
	if f == nil {
		return nil
	}
	style := jsonStyle(f.Src)
	// Rows on one line that stand as a table get the new key at one
	// column where it goes last: past the longest of them.
	at := func(r definitions.Row) int {
		if k := rowKey(r, after); after != "" && k >= 0 {
			return k
		}
		return len(r.Keys) - 1
	}
	list, _ := rowsList(f)
	lay := layoutOf(f.Src, list, f.TestData.Rows)
	last := 0
	if lay.keyCols != nil {
		for _, r := range f.TestData.Rows {
			if i := at(r); i >= 0 && i == len(r.Keys)-1 && rowKey(r, col) < 0 && !oneKeyALine(f.Src, r) {
				last = max(last, utf8.RuneCount(f.Src[r.Span.Start:r.Keys[i].Pair().End])+utf8.RuneCountInString(lay.sep))
			}
		}
	}
	var edits []change.Edit
	for _, r := range f.TestData.Rows {
		if rowKey(r, col) >= 0 {
			continue
		}
		edits = append(edits, insertKey(f.Src, r, at(r), col, jsonText(def), lay, last, style)...)
	}
	if len(edits) == 0 {
		return nil
	}
	return st.edit(f.Path, edits...)
}

// rowKey is the index of a row's key, -1 where it has none.
func rowKey(r definitions.Row, name string) int {
	for i, k := range r.Keys {
		if k.Name.Name == name {
			return i
		}
	}
	return -1
}

// setColumn changes a column's type and options, each as a step of its
// own, leaving the rest of the column's text as it was.
func (st *state) setColumn(o *object) error {
	full, err := o.str("column")
	if err != nil {
		return err
	}
	d, col, err := st.column(full)
	if err != nil {
		return err
	}
	cur := col.Schema
	next := column{name: cur.Name, typ: string(cur.Type), ref: cur.Ref, values: cur.Choices, optional: cur.Optional, private: cur.Private, unique: cur.Unique}
	if cur.Default != nil {
		next.def, _ = json.Marshal(cur.Default)
	}
	if o.given("type") {
		if o.null("type") {
			return badField(o.at, "type", "cannot be dropped: a column has a type")
		}
		if next.typ, err = o.str("type"); err != nil {
			return err
		}
		if !schema.IsType(next.typ) {
			return nearest(diag.Errorf(diag.T2002, "unknown column type %q; the types are %s", next.typ, typeList()).With("field", o.at+".type"), next.typ, typeNames())
		}
	}
	if o.given("ref") {
		if next.ref, err = o.str("ref"); err != nil {
			return err
		}
	}
	if o.given("values") {
		if next.values, err = o.strings("values"); err != nil {
			return err
		}
	}
	if next.typ != "ref" && !o.has("ref") {
		next.ref = ""
	}
	if next.typ != "choice" && !o.has("values") {
		next.values = nil
	}
	if err := st.typeArgs(o, &next, d.Name); err != nil {
		return err
	}
	for _, f := range []struct {
		key string
		to  *bool
	}{{"optional", &next.optional}, {"private", &next.private}, {"unique", &next.unique}} {
		if o.given(f.key) {
			v, _, err := o.boolean(f.key)
			if err != nil {
				return err
			}
			*f.to = v
		}
	}
	if o.given("default") {
		next.def = nil
		if o.has("default") {
			next.def = o.vals["default"]
		}
	}
	if err := checkDefault(o.at, next); err != nil {
		return err
	}
	if col.Call == nil || col.Call.Kind != definitions.ValCall {
		return diag.Errorf(diag.T2010, "%s is not written as a builder call; it cannot be changed by parts", full).With("column", full)
	}
	name := d.Name + "." + cur.Name
	if next.typ != string(cur.Type) || next.ref != cur.Ref || !slices.Equal(next.values, cur.Choices) {
		if err := st.setHead(name, next); err != nil {
			return err
		}
	}
	opts := []struct {
		key   string
		was   bool
		set   bool
		value string
	}{
		{"optional", cur.Optional, next.optional, "true"},
		{"private", cur.Private, next.private, "true"},
		{"unique", cur.Unique, next.unique, "true"},
	}
	for _, op := range opts {
		if op.was == op.set {
			continue
		}
		if err := st.setOption(name, op.key, op.value, !op.set); err != nil {
			return err
		}
	}
	if o.given("default") {
		if next.def == nil {
			return st.setOption(name, "default", "", true)
		}
		d, _, err := st.column(name)
		if err != nil {
			return err
		}
		return st.setOption(name, "default", literal(next.def, change.StyleOf(st.src(d.Path), d)), false)
	}
	return nil
}

// setHead writes a column's builder and its arguments before the options
// (`text(` of `text({ optional: true })`, `ref('users', ` of `ref('users',
// { optional: true })`) anew, keeping the options as they are written.
func (st *state) setHead(name string, c column) error {
	d, col, err := st.column(name)
	if err != nil {
		return err
	}
	f := st.index().File(d.Path)
	style := change.StyleOf(f.Src, d)
	local, _ := callee(f, c.typ)
	var args []string
	switch c.typ {
	case "ref":
		args = append(args, style.Quoted(c.ref))
	case "choice":
		args = append(args, listText(c.values, style))
	}
	call := col.Call
	var e change.Edit
	if col.Options != nil {
		head := local + "(" + strings.Join(args, ", ")
		if len(args) > 0 {
			head += ", "
		}
		e = change.Edit{Start: call.Span.Start, End: col.Options.Span.Start, Text: head}
	} else {
		e = change.Edit{Start: call.Span.Start, End: call.Span.End, Text: local + "(" + strings.Join(args, ", ") + ")"}
	}
	if err := st.edit(d.Path, append(importEdits(f, []string{c.typ}, style), e)...); err != nil {
		return err
	}
	return st.dropUnused(d.Path, string(col.Schema.Type))
}

// dropUnused drops the import of a builder from 'tent' that the file no
// longer uses (a column's type changed from the last money() to int()),
// with its comma; an import's last name stays.
func (st *state) dropUnused(path, builder string) error {
	f := st.index().File(path)
	local, ok := callee(f, builder)
	if !ok {
		return nil
	}
	for _, r := range f.IdentRefs() {
		if r.Name == local {
			return nil
		}
	}
	var im definitions.Import
	for _, i := range f.Imports {
		if i.Module == "tent" && i.Local == local {
			im = i
		}
	}
	same := 0
	for _, i := range f.Imports {
		if i.ModuleSpan == im.ModuleSpan {
			same++
		}
	}
	if same < 2 {
		return nil
	}
	src := f.Src
	start, end := im.ImportedSpan.Start, im.LocalSpan.End
	if ls := change.LineStart(src, start); change.Blank(src, ls, start) {
		// One name a line: the line goes.
		i := change.SkipSpace(src, end)
		if i < len(src) && src[i] == ',' {
			i = change.SkipSpace(src, i+1)
		}
		if change.LineEnd(src, i) == i {
			return st.edit(path, change.Edit{Start: ls, End: change.NextLine(src, i)})
		}
	}
	if i := change.SkipSpace(src, end); i < len(src) && src[i] == ',' {
		end = change.SkipSpace(src, i+1)
	} else {
		j := start - 1
		for j > 0 && (src[j] == ' ' || src[j] == '\t') {
			j--
		}
		if src[j] != ',' {
			return nil
		}
		start = j
	}
	return st.edit(path, change.Edit{Start: start, End: end})
}

// setOption sets an option of a column's builder call to value, or drops
// it: the option's value is replaced where it is written, added to the
// options (made where there are none) where it is not.
func (st *state) setOption(name, key, value string, drop bool) error {
	d, col, err := st.column(name)
	if err != nil {
		return err
	}
	f := st.index().File(d.Path)
	call := change.CallOf(col.Call)
	idx := -1
	var prop *definitions.Prop
	if col.Options != nil {
		for i, p := range col.Options.Props {
			if p.Key == key {
				idx, prop = i, p
			}
		}
	}
	var edits []change.Edit
	switch {
	case drop && prop == nil:
		return nil
	case drop:
		edits = change.DropOption(f.Src, call, idx)
	case prop != nil && prop.Value != nil:
		if string(f.Src[prop.Value.Span.Start:prop.Value.Span.End]) == value {
			return nil
		}
		edits = []change.Edit{{Start: prop.Value.Span.Start, End: prop.Value.Span.End, Text: value}}
	default:
		edits = change.AddOption(f.Src, call, key, value, change.StyleOf(f.Src, d))
	}
	return st.edit(d.Path, edits...)
}

// moveColumn moves a column's property after or before another: taken
// out of the list, then put back in its new place, in the list's layout.
func (st *state) moveColumn(o *object) error {
	ss, err := strs(o, "column", "after", "before")
	if err != nil {
		return err
	}
	full, after, before := ss[0], ss[1], ss[2]
	if (after == "") == (before == "") {
		return diag.Errorf(diag.T9102, "bad input: moveColumn takes after or before, one of them").With("field", o.at)
	}
	d, col, err := st.column(full)
	if err != nil {
		return err
	}
	target := after + before
	bare := strings.TrimPrefix(target, d.Name+".")
	tc := d.Table.Column(bare)
	if tc == nil {
		prefix := "" // the hint in the form given: bare or TABLE.COLUMN
		if bare != target {
			prefix = d.Name + "."
		}
		return nearest(diag.Errorf(diag.T9103, "no column %s.%s to move %s next to", d.Name, bare, full).With("field", o.at), target, columnNames(d, prefix))
	}
	if tc == col {
		return diag.Errorf(diag.T9102, "bad input: %s cannot move next to itself", full).With("field", o.at)
	}
	list, obj, err := columnsList(d)
	if err != nil {
		return err
	}
	f := st.index().File(d.Path)
	text := string(f.Src[col.Prop.Span.Start:col.Prop.Span.End])
	edits := list.Remove(f.Src, []int{propIndex(obj, col.Prop)})
	trailing := trailerComment(f.Src, col.Prop.Span.End)
	// The comment lines right above a column on lines of its own are its
	// own: they move with it.
	if ls := change.LineStart(f.Src, col.Prop.Span.Start); change.Blank(f.Src, ls, col.Prop.Span.Start) && list.Multiline(f.Src) {
		if from := commentsAbove(f.Src, ls); from < ls {
			var lines []string
			for off := from; off < ls; off = change.NextLine(f.Src, off) {
				lines = append(lines, strings.TrimLeft(change.LineText(f.Src, off), " \t"))
			}
			indent := change.Indent(f.Src, col.Prop.Span.Start)
			text = strings.Join(lines, change.EOL(f.Src)+indent) + change.EOL(f.Src) + indent + text
			edits = append(edits, change.Edit{Start: from, End: ls})
		}
	}
	if err := st.edit(d.Path, edits...); err != nil {
		return err
	}
	d, err = st.table(d.Name)
	if err != nil {
		return err
	}
	list, obj, err = columnsList(d)
	if err != nil {
		return err
	}
	at := propIndex(obj, d.Table.Column(tc.Schema.Name).Prop)
	if before != "" {
		at--
	}
	f = st.index().File(d.Path)
	if err := st.edit(d.Path, list.InsertAfter(f.Src, at, []string{text}, change.StyleOf(f.Src, d))...); err != nil {
		return err
	}
	if trailing == "" {
		return nil
	}
	// A comment after the column on its line goes to the end of its new
	// line (after the comma the list gives it).
	d, moved, err := st.column(full)
	if err != nil {
		return err
	}
	f = st.index().File(d.Path)
	end := change.LineEnd(f.Src, moved.Prop.Span.End)
	return st.edit(d.Path, change.Edit{Start: end, End: end, Text: " " + trailing})
}

// trailerComment is the line comment after an item on its line (after
// its comma), "" where there is none or something else follows it.
func trailerComment(src []byte, end int) string {
	i := change.SkipSpace(src, end)
	if i < len(src) && src[i] == ',' {
		i = change.SkipSpace(src, i+1)
	}
	if i+1 < len(src) && src[i] == '/' && src[i+1] == '/' {
		return string(src[i:change.LineEnd(src, i)])
	}
	return ""
}

// indexColumns reads an index's columns, each a column of the table.
func indexColumns(o *object, d *definitions.Definition) ([]string, error) {
	cols, err := o.strings("columns")
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, badField(o.at, "columns", "is empty: an index names one column or more")
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c] {
			return nil, badField(o.at, "columns", "holds %q twice", c)
		}
		seen[c] = true
		if d.Table.Column(c) == nil && c != "id" {
			return nil, nearest(diag.Errorf(diag.T2004, "the index names %s, which table %s has no column of", c, d.Name).With("field", o.at+".columns"), c, columnNames(d, ""))
		}
	}
	return cols, nil
}

// indexAt is the index of an entry of indexes naming exactly cols, -1.
func indexAt(d *definitions.Definition, cols []string) int {
	for i, ix := range d.Table.Indexes {
		if slices.Equal(names(ix), cols) {
			return i
		}
	}
	return -1
}

func names(refs []definitions.NameRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// addIndex adds an entry to a table's indexes (making `indexes` after
// `columns` where the table has none).
func (st *state) addIndex(o *object) error {
	tname, err := o.str("table")
	if err != nil {
		return err
	}
	d, err := st.table(tname)
	if err != nil {
		return err
	}
	cols, err := indexColumns(o, d)
	if err != nil {
		return err
	}
	if indexAt(d, cols) >= 0 {
		return diag.Errorf(diag.T9107, "table %s has the index %s already", tname, strings.Join(cols, ", ")).With("field", o.at+".columns")
	}
	f := st.index().File(d.Path)
	style := change.StyleOf(f.Src, d)
	entry := listText(cols, style)
	t := d.Table
	if t.IndexesProp != nil && t.IndexesProp.Value != nil && t.IndexesProp.Value.Kind == definitions.ValArray {
		return st.edit(d.Path, change.ListOf(t.IndexesProp.Value).Append(f.Src, []string{entry}, style)...)
	}
	if d.Arg == nil || t.ColumnsProp == nil {
		return diag.Errorf(diag.T2012, "table %s has no columns object to put indexes after", tname).With("name", tname)
	}
	return st.edit(d.Path, change.ListOf(d.Arg).InsertAfter(f.Src, propIndex(d.Arg, t.ColumnsProp), []string{"indexes: [" + entry + "]"}, style)...)
}

// removeIndex drops an entry of a table's indexes (and `indexes` with its
// last entry).
func (st *state) removeIndex(o *object) error {
	tname, err := o.str("table")
	if err != nil {
		return err
	}
	d, err := st.table(tname)
	if err != nil {
		return err
	}
	cols, err := o.strings("columns")
	if err != nil {
		return err
	}
	i := indexAt(d, cols)
	if i < 0 {
		return diag.Errorf(diag.T9103, "table %s has no index %s", tname, strings.Join(cols, ", ")).With("field", o.at+".columns")
	}
	f := st.index().File(d.Path)
	t := d.Table
	if len(t.Indexes) == 1 {
		return st.edit(d.Path, change.ListOf(d.Arg).Remove(f.Src, []int{propIndex(d.Arg, t.IndexesProp)})...)
	}
	return st.edit(d.Path, change.ListOf(t.IndexesProp.Value).Remove(f.Src, []int{i})...)
}

// commentsAbove is where the line comments directly above the line that
// starts at ls begin (ls where there are none).
func commentsAbove(src []byte, ls int) int {
	for ls > 0 {
		prev := change.LineStart(src, ls-1)
		if !strings.HasPrefix(strings.TrimSpace(change.LineText(src, prev)), "//") {
			return ls
		}
		ls = prev
	}
	return ls
}
