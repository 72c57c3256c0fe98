// Package render turns the element tree of a screen's view (the objects
// that 'tent/ui' builds; runner.Screen) into one self-contained HTML page:
// every component of 'tent/ui' has one HTML form, styled by the one
// stylesheet shipped in the binary (style.css), so every app looks the
// same. The page loads nothing: no script, no link, no frame; an image is
// inlined as a data URL, read from the project through the workspace's
// resolver (Files) or given as a data URL by the view; a Content Security
// Policy says the same to the browser. Every text is escaped.
//
// It imports diag only: the tree comes as plain JSON values, cleaned of
// private values by the runner.
package render

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// Stylesheet is the one stylesheet of every screen.
//
//go:embed style.css
var Stylesheet string

// Files reads a project file by its path in the project, through the
// workspace's resolver (which refuses a path out of the project, into
// .tent/, ...). Its errors are tool errors.
type Files interface {
	ReadFile(path string) ([]byte, error)
}

// contentPolicy forbids the page every load but its inline style and
// data-URL images, so a browser given the page fetches nothing else.
const contentPolicy = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-src 'none'"

// Page renders a view's tree to a whole HTML page, with title (the
// screen's title, where the tree's Page has none) as its title. It answers
// T4012 for what the page would have to load from outside (an image that is
// no project file nor data URL, a frame, a script), T4011 for a tree with
// no element, and the errors of files.
func Page(tree any, title string, files Files) ([]byte, error) {
	r := &renderer{files: files}
	if t := pageTitle(tree); t != "" {
		title = t
	}
	var body strings.Builder
	root, isPage := tree.(map[string]any)
	if isPage && root["type"] == "Page" {
		if err := r.element(&body, root); err != nil {
			return nil, err
		}
	} else {
		body.WriteString(`<main class="t-page">`)
		if err := r.nodes(&body, tree); err != nil {
			return nil, err
		}
		body.WriteString(`</main>`)
	}
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", html.EscapeString(contentPolicy))
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", html.EscapeString(title), Stylesheet)
	b.WriteString(body.String())
	b.WriteString("\n</body>\n</html>\n")
	return []byte(b.String()), nil
}

// pageTitle is the title prop of a tree's Page, "" where none.
func pageTitle(tree any) string {
	if m, ok := tree.(map[string]any); ok && m["type"] == "Page" {
		if p, ok := m["props"].(map[string]any); ok {
			return text(p["title"])
		}
	}
	return ""
}

// renderer renders one page.
type renderer struct {
	files Files
}

// element is one element of the tree.
type element struct {
	typ      string
	props    map[string]any
	children []any
}

// asElement reads an element of the tree, false for a text or a list.
func asElement(v any) (element, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return element{}, false
	}
	typ, ok := m["type"].(string)
	if !ok {
		return element{}, false
	}
	props, _ := m["props"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	kids, _ := m["children"].([]any)
	return element{typ: typ, props: props, children: kids}, true
}

// nodes renders a child: an element, a text, a number, or a list of them.
// Consecutive Stat elements share one row.
func (r *renderer) nodes(b *strings.Builder, v any) error {
	switch x := v.(type) {
	case nil, bool:
		return nil
	case []any:
		for i := 0; i < len(x); i++ {
			if isType(x[i], "Stat") {
				j := i
				for j < len(x) && isType(x[j], "Stat") {
					j++
				}
				b.WriteString(`<div class="t-stats">`)
				for _, s := range x[i:j] {
					if err := r.nodes(b, s); err != nil {
						return err
					}
				}
				b.WriteString(`</div>`)
				i = j - 1
				continue
			}
			if err := r.nodes(b, x[i]); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if _, ok := asElement(x); ok {
			return r.element(b, x)
		}
		// An object that is no element shows as its JSON, so a view that
		// puts a row where a text goes shows what it put.
		b.WriteString(html.EscapeString(text(x)))
		return nil
	}
	b.WriteString(html.EscapeString(text(v)))
	return nil
}

// isType says whether v is an element of that type.
func isType(v any, typ string) bool {
	e, ok := asElement(v)
	return ok && e.typ == typ
}

// element renders one element: a component of 'tent/ui' or a plain HTML
// element.
func (r *renderer) element(b *strings.Builder, v map[string]any) error {
	e, _ := asElement(v)
	kids := func() error { return r.nodes(b, e.children) }
	switch e.typ {
	case "Page":
		b.WriteString(`<main class="t-page">`)
		if t := text(e.props["title"]); t != "" {
			fmt.Fprintf(b, `<h1 class="t-title">%s</h1>`, html.EscapeString(t))
		}
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</main>`)
	case "Section":
		b.WriteString(`<section class="t-section">`)
		if t := text(e.props["title"]); t != "" {
			fmt.Fprintf(b, `<h2>%s</h2>`, html.EscapeString(t))
		}
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</section>`)
	case "Heading":
		level := 2
		if n, ok := e.props["level"].(float64); ok && n >= 1 && n <= 6 && n == math.Trunc(n) {
			level = int(n)
		}
		fmt.Fprintf(b, `<h%d class="t-heading">`, level)
		if err := kids(); err != nil {
			return err
		}
		fmt.Fprintf(b, `</h%d>`, level)
	case "Text":
		b.WriteString(`<p class="t-text">`)
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</p>`)
	case "Table":
		return r.table(b, e)
	case "List":
		b.WriteString(`<ul class="t-list">`)
		for _, c := range flatten(e.children) {
			b.WriteString(`<li>`)
			if err := r.nodes(b, c); err != nil {
				return err
			}
			b.WriteString(`</li>`)
		}
		b.WriteString(`</ul>`)
	case "Form":
		// No action attribute: the picture submits nothing. The action
		// the form names is kept for the reader of the HTML.
		b.WriteString(`<form class="t-form"`)
		if a := text(e.props["action"]); a != "" {
			fmt.Fprintf(b, ` data-action="%s"`, html.EscapeString(a))
		}
		b.WriteString(`>`)
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</form>`)
	case "Field":
		r.field(b, e)
	case "Button":
		kind := "button"
		class := "t-button"
		if text(e.props["type"]) == "submit" {
			kind, class = "submit", "t-button t-button-primary"
		}
		fmt.Fprintf(b, `<button class="%s" type="%s">`, class, kind)
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</button>`)
	case "Link":
		return r.link(b, text(e.props["to"]), e.children)
	case "Badge":
		tone := text(e.props["tone"])
		if !slices.Contains([]string{"info", "success", "warning", "danger"}, tone) {
			tone = "neutral"
		}
		fmt.Fprintf(b, `<span class="t-badge t-badge-%s">`, tone)
		if err := kids(); err != nil {
			return err
		}
		b.WriteString(`</span>`)
	case "Stat":
		b.WriteString(`<div class="t-stat"><div class="t-stat-value">`)
		if err := r.nodes(b, e.props["value"]); err != nil {
			return err
		}
		b.WriteString(`</div><div class="t-stat-label">`)
		if err := r.nodes(b, e.props["label"]); err != nil {
			return err
		}
		b.WriteString(`</div></div>`)
	case "Image":
		return r.image(b, "Image", e.props)
	default:
		return r.plain(b, e)
	}
	return nil
}

// flatten lists the children of a list, nested lists spread.
func flatten(kids []any) []any {
	var out []any
	for _, k := range kids {
		if l, ok := k.([]any); ok {
			out = append(out, flatten(l)...)
			continue
		}
		if k != nil {
			out = append(out, k)
		}
	}
	return out
}

// link renders a Link (or a plain a): an href only for a route of the app
// ("/..."), since the picture follows no link and a link elsewhere would
// only tell the page's reader of a place outside.
func (r *renderer) link(b *strings.Builder, to string, kids []any) error {
	b.WriteString(`<a class="t-link"`)
	if strings.HasPrefix(to, "/") && !strings.HasPrefix(to, "//") {
		fmt.Fprintf(b, ` href="%s"`, html.EscapeString(to))
	}
	b.WriteString(`>`)
	if err := r.nodes(b, kids); err != nil {
		return err
	}
	b.WriteString(`</a>`)
	return nil
}

// fieldTypes are the input types a Field may have; any other is text.
var fieldTypes = []string{"text", "number", "email", "password", "date", "datetime-local", "time", "url", "tel", "search", "checkbox", "hidden", "textarea", "select"}

// field renders a Field: a label over its input, textarea or select.
func (r *renderer) field(b *strings.Builder, e element) {
	name := text(e.props["name"])
	kind := text(e.props["type"])
	if !slices.Contains(fieldTypes, kind) {
		kind = "text"
	}
	value := ""
	if v, ok := e.props["value"]; ok && v != nil {
		value = text(v)
	}
	if kind == "hidden" {
		fmt.Fprintf(b, `<input type="hidden" name="%s" value="%s">`, html.EscapeString(name), html.EscapeString(value))
		return
	}
	label := text(e.props["label"])
	if label == "" {
		label = name
	}
	if kind == "checkbox" {
		checked := ""
		if v, _ := e.props["value"].(bool); v {
			checked = " checked"
		}
		fmt.Fprintf(b, `<label class="t-field t-field-check"><input type="checkbox" name="%s"%s><span>%s</span></label>`,
			html.EscapeString(name), checked, html.EscapeString(label))
		return
	}
	fmt.Fprintf(b, `<label class="t-field"><span>%s</span>`, html.EscapeString(label))
	placeholder := ""
	if p := text(e.props["placeholder"]); p != "" {
		placeholder = fmt.Sprintf(` placeholder="%s"`, html.EscapeString(p))
	}
	switch kind {
	case "textarea":
		fmt.Fprintf(b, `<textarea name="%s"%s>%s</textarea>`, html.EscapeString(name), placeholder, html.EscapeString(value))
	case "select":
		fmt.Fprintf(b, `<select name="%s">`, html.EscapeString(name))
		opts, _ := e.props["options"].([]any)
		for _, o := range opts {
			ov := text(o)
			sel := ""
			if ov == value {
				sel = " selected"
			}
			fmt.Fprintf(b, `<option value="%s"%s>%s</option>`, html.EscapeString(ov), sel, html.EscapeString(ov))
		}
		b.WriteString(`</select>`)
	default:
		fmt.Fprintf(b, `<input type="%s" name="%s" value="%s"%s>`, kind, html.EscapeString(name), html.EscapeString(value), placeholder)
	}
	b.WriteString(`</label>`)
}

// table renders a Table: a header of its columns, a row per row. Columns
// left out are every key of the rows, id first, then in the order of the
// alphabet (the tree keeps no order of keys).
func (r *renderer) table(b *strings.Builder, e element) error {
	rows, _ := e.props["rows"].([]any)
	var cols []string
	if given, ok := e.props["columns"].([]any); ok {
		for _, c := range given {
			cols = append(cols, text(c))
		}
	} else {
		seen := map[string]bool{}
		for _, row := range rows {
			if m, ok := row.(map[string]any); ok {
				for k := range m {
					if !seen[k] {
						seen[k] = true
						cols = append(cols, k)
					}
				}
			}
		}
		sort.Slice(cols, func(i, j int) bool {
			if (cols[i] == "id") != (cols[j] == "id") {
				return cols[i] == "id"
			}
			return cols[i] < cols[j]
		})
	}
	b.WriteString(`<div class="t-table-wrap"><table class="t-table"><thead><tr>`)
	for _, c := range cols {
		if numericColumn(rows, c) {
			fmt.Fprintf(b, `<th class="t-num">%s</th>`, html.EscapeString(c))
			continue
		}
		fmt.Fprintf(b, `<th>%s</th>`, html.EscapeString(c))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, row := range rows {
		m, _ := row.(map[string]any)
		b.WriteString(`<tr>`)
		for _, c := range cols {
			v, has := m[c]
			switch {
			case !has || v == nil:
				b.WriteString(`<td class="t-none"></td>`)
			case isNumber(v):
				fmt.Fprintf(b, `<td class="t-num">%s</td>`, html.EscapeString(text(v)))
			case v == true || v == false:
				// A child true or false shows nothing (as in JSX); a cell shows its value.
				fmt.Fprintf(b, `<td>%s</td>`, text(v))
			default:
				b.WriteString(`<td>`)
				if err := r.nodes(b, v); err != nil {
					return err
				}
				b.WriteString(`</td>`)
			}
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
	if len(rows) == 0 {
		b.WriteString(`<p class="t-table-empty">No rows.</p>`)
	}
	return nil
}

// numericColumn says whether a column holds numbers only (and at least
// one), so its header stands right, over its numbers.
func numericColumn(rows []any, col string) bool {
	seen := false
	for _, row := range rows {
		m, _ := row.(map[string]any)
		switch v := m[col]; {
		case v == nil:
		case isNumber(v):
			seen = true
		default:
			return false
		}
	}
	return seen
}

// isNumber says whether a JSON value is a number.
func isNumber(v any) bool {
	_, ok := v.(float64)
	return ok
}

// text is how a JSON value reads in a page: a string as it is, a whole
// number without a point, true and false as words, null as nothing, and an
// object or a list as its JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// errorAt is T4012 for what the page refuses.
func errorAt(format string, args ...any) *diag.ToolError {
	return diag.Errorf(diag.T4012, format, args...)
}
