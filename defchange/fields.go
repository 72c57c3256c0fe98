package defchange

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
)

// fieldSet is a definition's argument flattened to its leaf fields, in
// source order, with the text of each entity (a column, an input field)
// so that an entity added or removed whole is one field, not one per
// option.
type fieldSet struct {
	paths    []string
	text     map[string]string
	entities map[string]string // "columns.buyer" -> "ref('users')"
	// same holds the paths of the properties read as one field of no
	// text (flattenPair).
	same map[string]bool
}

// entityFolders are the fields whose keys name entities: a table's
// columns and a function's or flow's input fields.
var entityFolders = map[string]bool{"columns": true, "input": true}

// flatten reads a definition's fields from its declarative tree.
func flatten(d *definitions.Definition, src []byte) *fieldSet {
	return flattenSkipping(d, src, nil)
}

// flattenSkipping is flatten with the properties at the paths of same
// (top-level keys, and "columns.buyer" for an entity) each read as one
// field of no text, sameField + the path, instead of their fields.
func flattenSkipping(d *definitions.Definition, src []byte, same map[string]bool) *fieldSet {
	fs := &fieldSet{text: map[string]string{}, entities: map[string]string{}, same: same}
	if d.Arg == nil {
		fs.add("arg", text(src, d.Stmt))
		return fs
	}
	fs.walk(d.Arg, "", src)
	return fs
}

// sameField starts the path of a property that reads the same in both
// versions of a definition (flattenPair). No key starts with it.
const sameField = "\x00"

// flattenPair flattens two versions of a definition for diffFields. A
// property that reads the same in both (sameValue) and stands once in
// each, at the top level or as one entity (a column, an input field), is
// one field of no text on each side rather than its fields: equal on both
// sides, it changes nothing, and its one path stands where its fields
// stood, so that diffFields orders the others as it orders them all. A
// rename changes hundreds of definitions in one property each (a ref, a
// run).
// renamed maps the entities of o renamed (see diffFields): those are
// never one field, since their paths move.
func flattenPair(o, n entry, renamed map[string]string) (*fieldSet, *fieldSet) {
	oa, na := o.def.Arg, n.def.Arg
	if oa == nil || na == nil || oa.Kind != definitions.ValObject || na.Kind != definitions.ValObject {
		return flatten(o.def, o.src), flatten(n.def, n.src)
	}
	same := map[string]bool{}
	sameProps(oa, o.src, na, n.src, "", renamed, same)
	if len(same) == 0 {
		return flatten(o.def, o.src), flatten(n.def, n.src)
	}
	return flattenSkipping(o.def, o.src, same), flattenSkipping(n.def, n.src, same)
}

// leafDiff is diffFields of the two versions of a definition flattened
// (flatten, or flattenPair), for a pair whose field trees have one shape:
// the same kinds, object keys (each once, in the same order), builder
// calls and their arguments, so that both flatten to the same paths in
// the same order. Its fields are then the leaves whose texts differ, in
// that order, found by walking both trees at once without flattening
// either, and without rendering a leaf that reads the same (sameValue).
// A rename changes most definitions so: a name in their code (a run) or
// in a string (ref('orders')). ok is false for any other pair, which
// diffFields compares.
func leafDiff(o, n entry) (fields []Field, ok bool) {
	oa, na := o.def.Arg, n.def.Arg
	if oa == nil || na == nil || oa.Kind != definitions.ValObject || na.Kind != definitions.ValObject {
		return nil, false
	}
	d := &leafDiffer{asrc: o.src, bsrc: n.src}
	if !d.walk(oa, na, "") {
		return nil, false
	}
	return d.fields, true
}

// leafDiffer walks two field trees of one shape (leafDiff).
type leafDiffer struct {
	asrc, bsrc []byte
	fields     []Field
}

// leaf adds the field at path where its texts differ.
func (d *leafDiffer) leaf(path, old, nw string) {
	if old != nw {
		d.fields = append(d.fields, Field{Path: path, Old: old, New: nw})
	}
}

// walk walks a and b at path as fieldSet.walk walks one tree; false
// where their shapes differ, or where walk would give two fields one
// path.
func (d *leafDiffer) walk(a, b *definitions.Value, path string) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case definitions.ValObject:
		if len(a.Props) != len(b.Props) || !plainKeys(a, b, nil) {
			return false
		}
		for i, p := range a.Props {
			q := b.Props[i]
			if p.Shorthand != q.Shorthand || (p.Value == nil) != (q.Value == nil) {
				return false
			}
			if sameProp(p, d.asrc, q, d.bsrc) {
				continue // the same fields at the same paths
			}
			sub := join(path, p.Key)
			if p.Shorthand || p.Value == nil {
				d.leaf(sub, text(d.asrc, p.Span), text(d.bsrc, q.Span))
				continue
			}
			if !d.walk(p.Value, q.Value, sub) {
				return false
			}
		}
	case definitions.ValCall:
		if a.Str != b.Str || len(a.Items) != len(b.Items) {
			return false
		}
		last := len(a.Items) - 1
		for i, x := range a.Items {
			y := b.Items[i]
			if (x.Kind == definitions.ValObject && i == last) != (y.Kind == definitions.ValObject && i == last) {
				return false
			}
			if x.Kind == definitions.ValObject && i == last { // the options
				if len(x.Props) != len(y.Props) || !plainKeys(x, y, func(k string) bool { return callPath(a.Str, last, k) }) {
					return false
				}
				for j, p := range x.Props {
					q := y.Props[j]
					if p.Shorthand != q.Shorthand || (p.Value == nil) != (q.Value == nil) {
						return false
					}
					if p.Shorthand || p.Value == nil {
						d.leaf(join(path, p.Key), text(d.asrc, p.Span), text(d.bsrc, q.Span))
					} else if !sameValue(p.Value, d.asrc, q.Value, d.bsrc) {
						d.leaf(join(path, p.Key), render(p.Value, d.asrc), render(q.Value, d.bsrc))
					}
				}
				continue
			}
			if !sameValue(x, d.asrc, y, d.bsrc) {
				d.leaf(join(path, argName(a.Str, i)), render(x, d.asrc), render(y, d.bsrc))
			}
		}
	default:
		if !sameValue(a, d.asrc, b, d.bsrc) {
			d.leaf(path, render(a, d.asrc), render(b, d.bsrc))
		}
	}
	return true
}

// plainKeys reports whether two objects have the same keys in the same
// order, each once, none empty, none with a dot or sameField's start
// (whose paths could meet another's), and none that taken says is a
// call's own path.
func plainKeys(a, b *definitions.Value, taken func(string) bool) bool {
	for i, p := range a.Props {
		k := p.Key
		if k == "" || k != b.Props[i].Key || strings.Contains(k, ".") || strings.HasPrefix(k, sameField) ||
			keyCount(a, k) != 1 || taken != nil && taken(k) {
			return false
		}
	}
	return true
}

// callPath reports whether key is a path walk gives a builder call's own
// fields: its type, or a positional argument's name (of the args before
// the options at last).
func callPath(callee string, last int, key string) bool {
	if key == "type" {
		return true
	}
	for i := range last {
		if argName(callee, i) == key {
			return true
		}
	}
	return false
}

// sameProps adds to same the paths of the properties of two object
// values (at path) that read the same, each key standing once in each;
// within an entity folder (columns, input) it looks at each entity. A
// level where a key holds a dot is left whole: its paths could meet
// another property's.
func sameProps(a *definitions.Value, asrc []byte, b *definitions.Value, bsrc []byte, path string, renamed map[string]string, same map[string]bool) {
	if dotted(a) || dotted(b) {
		return
	}
	for _, ap := range a.Props {
		if ap.Key == "" || keyCount(a, ap.Key) != 1 || keyCount(b, ap.Key) != 1 {
			continue
		}
		bp := b.Props[slices.IndexFunc(b.Props, func(p *definitions.Prop) bool { return p.Key == ap.Key })]
		sub := join(path, ap.Key)
		moves, holdsMoved := false, false // sub is an entity renamed; sub holds one
		for from, to := range renamed {
			moves = moves || from == sub || to == sub
			holdsMoved = holdsMoved || under(from, sub) || under(to, sub)
		}
		switch {
		case moves:
			// its paths move: never one field
		case !holdsMoved && sameProp(ap, asrc, bp, bsrc):
			same[sub] = true
		case path == "" && entityFolders[ap.Key] && ap.Value != nil && bp.Value != nil &&
			ap.Value.Kind == definitions.ValObject && bp.Value.Kind == definitions.ValObject && !ap.Shorthand && !bp.Shorthand:
			sameProps(ap.Value, asrc, bp.Value, bsrc, ap.Key, renamed, same)
		}
	}
}

// under reports whether path p lies under the path sub (sub + "." + ...).
func under(p, sub string) bool {
	return len(p) > len(sub) && p[len(sub)] == '.' && strings.HasPrefix(p, sub)
}

// keyCount counts the properties of an object with the key.
func keyCount(v *definitions.Value, key string) int {
	n := 0
	for _, p := range v.Props {
		if p.Key == key {
			n++
		}
	}
	return n
}

// dotted reports whether a key of an object holds a dot or starts as the
// path of a same field does.
func dotted(v *definitions.Value) bool {
	for _, p := range v.Props {
		if strings.Contains(p.Key, ".") || strings.HasPrefix(p.Key, sameField) {
			return true
		}
	}
	return false
}

// sameProp reports whether two properties flatten alike: walk and render
// read a property's shorthand text, or its value.
func sameProp(a *definitions.Prop, asrc []byte, b *definitions.Prop, bsrc []byte) bool {
	if a.Shorthand || a.Value == nil || b.Shorthand || b.Value == nil {
		return a.Shorthand == b.Shorthand && (a.Value == nil) == (b.Value == nil) && sameText2(asrc, a.Span, bsrc, b.Span)
	}
	return sameValue(a.Value, asrc, b.Value, bsrc)
}

// sameValue reports whether two values flatten alike: of one kind, with
// the same strings, numbers' and code's texts, items and properties, as
// walk and render read them.
func sameValue(a *definitions.Value, asrc []byte, b *definitions.Value, bsrc []byte) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case definitions.ValString:
		return a.Str == b.Str
	case definitions.ValBool:
		return a.Bool == b.Bool
	case definitions.ValNull:
		return true
	case definitions.ValArray, definitions.ValCall:
		if a.Str != b.Str || len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !sameValue(a.Items[i], asrc, b.Items[i], bsrc) {
				return false
			}
		}
		return true
	case definitions.ValObject:
		if len(a.Props) != len(b.Props) {
			return false
		}
		for i, p := range a.Props {
			q := b.Props[i]
			if p.Key != q.Key || !sameProp(p, asrc, q, bsrc) {
				return false
			}
		}
		return true
	}
	return sameText2(asrc, a.Span, bsrc, b.Span) // numbers as written, code, unreadable values
}

// sameText2 reports whether two spans hold the same text (text's), without
// copying either.
func sameText2(asrc []byte, a definitions.Span, bsrc []byte, b definitions.Span) bool {
	return string(textBytes(asrc, a)) == string(textBytes(bsrc, b))
}

func (fs *fieldSet) add(path, s string) {
	if _, ok := fs.text[path]; !ok {
		fs.paths = append(fs.paths, path)
	}
	fs.text[path] = s
}

// walk flattens v at path: an object into its properties, a builder call
// into its type and its arguments (the options object into the call's own
// path), anything else into one leaf.
func (fs *fieldSet) walk(v *definitions.Value, path string, src []byte) {
	switch v.Kind {
	case definitions.ValObject:
		if len(v.Props) == 0 {
			fs.add(path, "{}")
			return
		}
		folder := entityFolders[path]
		for _, p := range v.Props {
			sub := join(path, p.Key)
			if fs.same[sub] && (path == "" || folder) {
				fs.add(sameField+sub, "")
				continue
			}
			if folder {
				fs.entities[sub] = render(p.Value, src)
			}
			if p.Shorthand || p.Value == nil {
				fs.add(sub, text(src, p.Span))
				continue
			}
			fs.walk(p.Value, sub, src)
		}
	case definitions.ValCall:
		fs.add(join(path, "type"), v.Str)
		for i, a := range v.Items {
			if a.Kind == definitions.ValObject && i == len(v.Items)-1 { // the options
				for _, p := range a.Props {
					if p.Shorthand || p.Value == nil {
						fs.add(join(path, p.Key), text(src, p.Span))
						continue
					}
					fs.add(join(path, p.Key), render(p.Value, src))
				}
				continue
			}
			fs.add(join(path, argName(v.Str, i)), render(a, src))
		}
	default:
		fs.add(path, render(v, src))
	}
}

// argName names a builder call's positional argument as a field:
// ref('users') has a ref, choice([...]) its values.
func argName(callee string, i int) string {
	switch {
	case callee == "ref" && i == 0:
		return "ref"
	case callee == "choice" && i == 0:
		return "values"
	case i == 0:
		return "arg"
	}
	return "arg" + strconv.Itoa(i+1)
}

// render writes a value in the canonical form: declarative values
// normalized, code as written.
func render(v *definitions.Value, src []byte) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case definitions.ValString:
		return quote(v.Str)
	case definitions.ValBool:
		return strconv.FormatBool(v.Bool)
	case definitions.ValNull:
		return "null"
	case definitions.ValArray:
		items := make([]string, len(v.Items))
		for i, it := range v.Items {
			items[i] = render(it, src)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case definitions.ValObject:
		if len(v.Props) == 0 {
			return "{}"
		}
		props := make([]string, len(v.Props))
		for i, p := range v.Props {
			if p.Shorthand || p.Value == nil {
				props[i] = text(src, p.Span)
				continue
			}
			props[i] = p.Key + ": " + render(p.Value, src)
		}
		return "{ " + strings.Join(props, ", ") + " }"
	case definitions.ValCall:
		args := make([]string, len(v.Items))
		for i, a := range v.Items {
			args[i] = render(a, src)
		}
		return v.Str + "(" + strings.Join(args, ", ") + ")"
	}
	return text(src, v.Span) // numbers as written, code, unreadable values
}

// quote writes a string in single quotes, as the framework's files do.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// text is the source text of a span, or "" where the span does not fit.
func text(src []byte, sp definitions.Span) string {
	return string(textBytes(src, sp))
}

// textBytes is text's bytes, in src.
func textBytes(src []byte, sp definitions.Span) []byte {
	if sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End {
		return nil
	}
	return src[sp.Start:sp.End]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// diffFields lists the fields that differ between a and b, in a's order
// and then b's. An entity (a column, an input field) that only one side
// has is one field, with the entity's whole text. renamed maps an entity
// of a (by its path) to its path in b, so that a renamed column is held to
// its old self: its fields are compared under the new name, and a field
// `<entity>.name` says the name changed.
func diffFields(a, b *fieldSet, renamed map[string]string) []Field {
	// moved rewrites a's paths through the renames.
	moved := func(p string) string {
		for from, to := range renamed {
			if p == from || strings.HasPrefix(p, from+".") {
				return to + p[len(from):]
			}
		}
		return p
	}
	aText := map[string]string{}
	aPaths := make([]string, len(a.paths))
	aAt := map[string]int{}
	for i, p := range a.paths {
		q := moved(p)
		aText[q], aPaths[i], aAt[q] = a.text[p], q, i
	}
	// The order is b's, with a's own paths where they stood in a.
	var order []string
	next := 0 // a's paths before next are placed
	for _, p := range b.paths {
		if i, ok := aAt[p]; ok {
			for ; next <= i; next++ {
				if _, inB := b.text[aPaths[next]]; !inB {
					order = append(order, aPaths[next])
				}
			}
		}
		order = append(order, p)
	}
	for ; next < len(aPaths); next++ {
		if _, inB := b.text[aPaths[next]]; !inB {
			order = append(order, aPaths[next])
		}
	}
	aEntities := map[string]string{}
	for p, t := range a.entities {
		aEntities[moved(p)] = t
	}
	// entity in b -> its path in a; where two name one (a hint that does
	// not fit), the first by name, so that every diff of the pair agrees.
	renamedFrom := map[string]string{}
	for _, from := range slices.Sorted(maps.Keys(renamed)) {
		if _, ok := renamedFrom[renamed[from]]; !ok {
			renamedFrom[renamed[from]] = from
		}
	}
	var out []Field
	emitted := map[string]bool{}
	for _, p := range order {
		if ent := entityOf(p); ent != "" {
			_, inA := aEntities[ent]
			_, inB := b.entities[ent]
			if inA != inB {
				if !emitted[ent] {
					emitted[ent] = true
					out = append(out, Field{Path: ent, Old: aEntities[ent], New: b.entities[ent]})
				}
				continue
			}
			if from, ok := renamedFrom[ent]; ok && !emitted[ent+".name"] {
				emitted[ent+".name"] = true
				out = append(out, Field{Path: ent + ".name", Old: lastName(from), New: lastName(ent)})
			}
		}
		old, okA := aText[p]
		nw, okB := b.text[p]
		if okA && okB && old == nw {
			continue
		}
		out = append(out, Field{Path: p, Old: old, New: nw})
	}
	return out
}

// entityOf returns the entity a field path lies in ("columns.buyer" for
// "columns.buyer.type"), or "".
func entityOf(p string) string {
	folder, rest, ok := strings.Cut(p, ".")
	if !ok || !entityFolders[folder] {
		return ""
	}
	name, _, _ := strings.Cut(rest, ".")
	return folder + "." + name
}

// lastName is the last dot-separated name of a path.
func lastName(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return p
}
