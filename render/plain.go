package render

import (
	"encoding/base64"
	"fmt"
	"html"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// plainElements are the HTML elements a view may use besides the
// components: text, lists, tables and layout, nothing that loads. An
// element not listed (iframe, script, object, video, link, style, ...) is
// refused (T4012) rather than dropped, so the view's author learns of it.
var plainElements = map[string]bool{
	"div": true, "span": true, "p": true, "strong": true, "em": true, "b": true, "i": true, "u": true,
	"s": true, "small": true, "mark": true, "sub": true, "sup": true, "abbr": true, "time": true,
	"code": true, "pre": true, "kbd": true, "blockquote": true, "q": true, "cite": true,
	"br": true, "hr": true, "ul": true, "ol": true, "li": true, "dl": true, "dt": true, "dd": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"table": true, "thead": true, "tbody": true, "tfoot": true, "tr": true, "th": true, "td": true, "caption": true,
	"header": true, "footer": true, "nav": true, "article": true, "aside": true, "section": true, "main": true,
	"figure": true, "figcaption": true, "details": true, "summary": true,
	"label": true, "input": true, "textarea": true, "select": true, "option": true, "button": true, "form": true,
	"a": true, "img": true,
}

// voidElements have no children and no end tag.
var voidElements = map[string]bool{"br": true, "hr": true, "input": true, "img": true}

// plainAttributes are the attributes a plain element keeps; any other
// (style, class, id, on..., src, href, action) is left out, so nothing in
// them can load or run. a's href and img's src are judged on their own.
var plainAttributes = map[string]bool{
	"title": true, "alt": true, "colSpan": true, "colspan": true, "rowSpan": true, "rowspan": true,
	"lang": true, "dir": true, "dateTime": true, "datetime": true, "name": true, "type": true,
	"value": true, "placeholder": true, "checked": true, "disabled": true, "open": true,
	"selected": true, "htmlFor": true, "for": true,
}

// plain renders a plain HTML element.
func (r *renderer) plain(b *strings.Builder, e element) error {
	tag := e.typ
	if !plainElements[tag] {
		if strings.ToLower(tag) != tag || !isTagName(tag) {
			return errorAt("<%s> is not a component of 'tent/ui' nor an HTML element a screen may use", tag).With("element", tag)
		}
		return errorAt("<%s> is not shown by shot: a screen's page loads nothing from outside itself and runs no script; use the components of 'tent/ui' and plain elements such as <div>, <p>, <ul>", tag).With("element", tag)
	}
	switch tag {
	case "img":
		return r.image(b, "<img>", e.props)
	case "a":
		return r.link(b, text(e.props["href"]), e.children)
	}
	b.WriteString("<" + tag)
	keys := make([]string, 0, len(e.props))
	for k := range e.props {
		if plainAttributes[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.ToLower(k)
		if k == "htmlFor" {
			name = "for"
		}
		switch v := e.props[k].(type) {
		case bool:
			if v {
				b.WriteString(" " + name)
			}
		case nil:
		default:
			fmt.Fprintf(b, ` %s="%s"`, name, html.EscapeString(text(v)))
		}
	}
	b.WriteString(">")
	if voidElements[tag] {
		return nil
	}
	if err := r.nodes(b, e.children); err != nil {
		return err
	}
	b.WriteString("</" + tag + ">")
	return nil
}

// isTagName says whether s reads as an HTML tag name.
func isTagName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// imageTypes are the media types an image may have, by a file's extension.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml", ".avif": "image/avif", ".bmp": "image/bmp",
}

// MaxImage bounds the bytes of one project image inlined into a page.
const MaxImage = 4 << 20

// image renders an Image (or a plain img): its src a project file, inlined
// as a data URL, or a data URL of an image; nothing else (T4012).
func (r *renderer) image(b *strings.Builder, what string, props map[string]any) error {
	src := text(props["src"])
	url, err := r.imageURL(src)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, `<img class="t-image" src="%s" alt="%s"`, html.EscapeString(url), html.EscapeString(text(props["alt"])))
	for _, k := range []string{"width", "height"} {
		if n, ok := props[k].(float64); ok && n > 0 && n < 10000 {
			fmt.Fprintf(b, ` %s="%d"`, k, int(n))
		}
	}
	b.WriteString(">")
	return nil
}

// imageURL answers the data URL of an image source, or T4012 for a source
// that is neither a project file nor a data URL of an image.
func (r *renderer) imageURL(src string) (string, error) {
	if src == "" {
		return "", errorAt("an image needs a src: a project file (images/logo.png) or a data URL")
	}
	if rest, ok := strings.CutPrefix(src, "data:"); ok {
		mediaType, payload, ok := strings.Cut(rest, ",")
		mt, isBase64 := strings.CutSuffix(mediaType, ";base64")
		if !ok || !slices.Contains(mapValues(imageTypes), strings.ToLower(mt)) {
			return "", errorAt("image src %s: a data URL must hold an image (data:image/png;base64,...)", short(src)).With("src", short(src))
		}
		if isBase64 {
			if _, err := base64.StdEncoding.DecodeString(payload); err != nil {
				return "", errorAt("image src %s: the data URL's base64 does not decode: %v", short(src), err).With("src", short(src))
			}
		}
		return src, nil
	}
	if i := strings.IndexAny(src, ":"); i >= 0 && !strings.ContainsAny(src[:i], "/") {
		return "", errorAt("image src %s: an image is a project file or a data URL; a screen's page loads nothing from elsewhere", short(src)).With("src", short(src))
	}
	mime, ok := imageTypes[strings.ToLower(path.Ext(src))]
	if !ok {
		return "", errorAt("image src %s: not an image file (.png, .jpg, .gif, .webp, .svg, .avif, .bmp)", short(src)).With("src", short(src))
	}
	if r.files == nil {
		return "", errorAt("image src %s: no project files to read it from", short(src))
	}
	data, err := r.files.ReadFile(src)
	if err != nil {
		code := diag.T4012
		if te, ok := err.(*diag.ToolError); ok {
			code = te.Code
		}
		return "", diag.Errorf(code, "image src %s: %v", short(src), err).With("src", short(src))
	}
	if len(data) > MaxImage {
		return "", diag.Errorf(diag.T9104, "image src %s is %d bytes; a screen inlines at most %d", short(src), len(data), MaxImage).With("src", short(src))
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// mapValues lists a map's values.
func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// short cuts a long source for a message.
func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
