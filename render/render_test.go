package render

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/diag"
)

// fakeFiles serves project files from a map; any other path is T9103.
type fakeFiles map[string][]byte

func (f fakeFiles) ReadFile(p string) ([]byte, error) {
	if b, ok := f[p]; ok {
		return b, nil
	}
	return nil, diag.Errorf(diag.T9103, "no file %s", p)
}

// tree decodes a JSON element tree, as the runner hands it over.
func tree(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// body is the part of a page between <body> and </body>.
func body(page []byte) string {
	s := string(page)
	s = s[strings.Index(s, "<body>\n")+len("<body>\n"):]
	return s[:strings.LastIndex(s, "\n</body>")]
}

func el(typ, props, children string) string {
	return `{"type":"` + typ + `","props":` + props + `,"children":` + children + `}`
}

func TestElements(t *testing.T) {
	files := fakeFiles{"images/dot.png": {0x89, 'P', 'N', 'G'}}
	cases := []struct {
		label, tree, want string
	}{
		{"text is escaped", el("Text", `{}`, `["<img src=x onerror=alert(1)>", " & ", 3]`),
			`<main class="t-page"><p class="t-text">&lt;img src=x onerror=alert(1)&gt; &amp; 3</p></main>`},
		{"page with a title", el("Page", `{"title":"A <b>"}`, `["hi"]`),
			`<main class="t-page"><h1 class="t-title">A &lt;b&gt;</h1>hi</main>`},
		{"heading levels", `[` + el("Heading", `{}`, `["two"]`) + `,` + el("Heading", `{"level":4}`, `["four"]`) + `,` + el("Heading", `{"level":9}`, `["nine"]`) + `]`,
			`<main class="t-page"><h2 class="t-heading">two</h2><h4 class="t-heading">four</h4><h2 class="t-heading">nine</h2></main>`},
		{"table with columns; null; numbers right", el("Table", `{"rows":[{"id":"a","n":1.5,"s":"<x>"},{"id":"b","n":null}],"columns":["s","n"]}`, `[]`),
			`<main class="t-page"><div class="t-table-wrap"><table class="t-table"><thead><tr><th>s</th><th class="t-num">n</th></tr></thead><tbody><tr><td>&lt;x&gt;</td><td class="t-num">1.5</td></tr><tr><td class="t-none"></td><td class="t-none"></td></tr></tbody></table></div></main>`},
		{"table without columns: id first", el("Table", `{"rows":[{"z":1,"id":"a","b":true}]}`, `[]`),
			`<main class="t-page"><div class="t-table-wrap"><table class="t-table"><thead><tr><th>id</th><th>b</th><th class="t-num">z</th></tr></thead><tbody><tr><td>a</td><td>true</td><td class="t-num">1</td></tr></tbody></table></div></main>`},
		{"empty table", el("Table", `{"rows":[],"columns":["a"]}`, `[]`),
			`<main class="t-page"><div class="t-table-wrap"><table class="t-table"><thead><tr><th>a</th></tr></thead><tbody></tbody></table></div><p class="t-table-empty">No rows.</p></main>`},
		{"list items, nested lists spread", el("List", `{}`, `["a",["b","c"]]`),
			`<main class="t-page"><ul class="t-list"><li>a</li><li>b</li><li>c</li></ul></main>`},
		{"stats share a row", `[` + el("Stat", `{"label":"L","value":5}`, `[]`) + `,` + el("Stat", `{"label":"M","value":"x"}`, `[]`) + `]`,
			`<main class="t-page"><div class="t-stats"><div class="t-stat"><div class="t-stat-value">5</div><div class="t-stat-label">L</div></div><div class="t-stat"><div class="t-stat-value">x</div><div class="t-stat-label">M</div></div></div></main>`},
		{"form, fields, buttons", el("Form", `{"action":"add\"Note"}`, `[`+el("Field", `{"name":"id","type":"hidden","value":"n1"}`, `[]`)+`,`+el("Field", `{"name":"body","label":"Body","placeholder":"say"}`, `[]`)+`,`+el("Field", `{"name":"n","type":"weird","value":2}`, `[]`)+`,`+el("Field", `{"name":"t","type":"textarea","value":"</textarea>"}`, `[]`)+`,`+el("Field", `{"name":"c","type":"select","options":["a","b"],"value":"b"}`, `[]`)+`,`+el("Field", `{"name":"ok","type":"checkbox","value":true}`, `[]`)+`,`+el("Button", `{"type":"submit"}`, `["Go"]`)+`,`+el("Button", `{}`, `["No"]`)+`]`),
			`<main class="t-page"><form class="t-form" data-action="add&#34;Note"><input type="hidden" name="id" value="n1"><label class="t-field"><span>Body</span><input type="text" name="body" value="" placeholder="say"></label><label class="t-field"><span>n</span><input type="text" name="n" value="2"></label><label class="t-field"><span>t</span><textarea name="t">&lt;/textarea&gt;</textarea></label><label class="t-field"><span>c</span><select name="c"><option value="a">a</option><option value="b" selected>b</option></select></label><label class="t-field t-field-check"><input type="checkbox" name="ok" checked><span>ok</span></label><button class="t-button t-button-primary" type="submit">Go</button><button class="t-button" type="button">No</button></form></main>`},
		{"links: a route keeps its href, anything else loses it", `[` + el("Link", `{"to":"/orders/o1"}`, `["o1"]`) + `,` + el("Link", `{"to":"javascript:alert(1)"}`, `["js"]`) + `,` + el("Link", `{"to":"//evil.example/"}`, `["far"]`) + `,` + el("a", `{"href":"http://127.0.0.1:1/"}`, `["a"]`) + `]`,
			`<main class="t-page"><a class="t-link" href="/orders/o1">o1</a><a class="t-link">js</a><a class="t-link">far</a><a class="t-link">a</a></main>`},
		{"badges: an unknown tone is neutral", `[` + el("Badge", `{"tone":"danger"}`, `["late"]`) + `,` + el("Badge", `{"tone":"\"><script>"}`, `["x"]`) + `]`,
			`<main class="t-page"><span class="t-badge t-badge-danger">late</span><span class="t-badge t-badge-neutral">x</span></main>`},
		{"images: a project file inlined, a data URL kept", `[` + el("Image", `{"src":"images/dot.png","alt":"dot","width":20}`, `[]`) + `,` + el("img", `{"src":"data:image/gif;base64,R0lGODlhAQABAAAAACw=","onerror":"x"}`, `[]`) + `]`,
			`<main class="t-page"><img class="t-image" src="data:image/png;base64,iVBORw==" alt="dot" width="20"><img class="t-image" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt=""></main>`},
		{"plain elements keep safe attributes only", el("div", `{"style":"background:url(http://127.0.0.1:1/)","onclick":"x()","className":"c","title":"t\"q","id":"i"}`, `[`+el("br", `{}`, `[]`)+`,`+el("td", `{"colSpan":2}`, `["x"]`)+`,`+el("details", `{"open":true}`, `[]`)+`]`),
			`<main class="t-page"><div title="t&#34;q"><br><td colspan="2">x</td><details open></details></div></main>`},
		{"an object where a text goes shows as JSON", el("Text", `{}`, `[{"a":"<b>"}]`),
			`<main class="t-page"><p class="t-text">{&#34;a&#34;:&#34;\u003cb\u003e&#34;}</p></main>`},
	}
	for _, c := range cases {
		page, err := Page(tree(t, c.tree), "T", files)
		if err != nil {
			t.Errorf("%s: %v", c.label, err)
			continue
		}
		if got := body(page); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.label, got, c.want)
		}
	}
}

func TestRefused(t *testing.T) {
	cases := []struct {
		label, tree, code, says string
	}{
		{"script", el("script", `{}`, `["alert(1)"]`), "T4012", "<script> is not shown"},
		{"iframe", el("iframe", `{"src":"file:///etc/passwd"}`, `[]`), "T4012", "<iframe> is not shown"},
		{"object", el("object", `{"data":"http://127.0.0.1:1/"}`, `[]`), "T4012", "<object>"},
		{"a component tent/ui lacks", el("Chart", `{}`, `[]`), "T4012", "not a component"},
		{"Image over http", el("Image", `{"src":"http://127.0.0.1:1/x.png"}`, `[]`), "T4012", "project file or a data URL"},
		{"img of a file URL", el("img", `{"src":"file:///etc/passwd"}`, `[]`), "T4012", "project file or a data URL"},
		{"Image of a data URL that is no image", el("Image", `{"src":"data:text/html;base64,PGI+"}`, `[]`), "T4012", "must hold an image"},
		{"Image of bad base64", el("Image", `{"src":"data:image/png;base64,%%%"}`, `[]`), "T4012", "does not decode"},
		{"Image with no src", el("Image", `{}`, `[]`), "T4012", "needs a src"},
		{"Image of a file that is no image", el("Image", `{"src":"notes.txt"}`, `[]`), "T4012", "not an image file"},
		{"Image of a missing file keeps the resolver's code", el("Image", `{"src":"images/none.png"}`, `[]`), "T9103", "no file images/none.png"},
	}
	for _, c := range cases {
		_, err := Page(tree(t, el("Page", `{}`, `[`+c.tree+`]`)), "T", fakeFiles{})
		var te *diag.ToolError
		if !errors.As(err, &te) || te.Code != c.code || !strings.Contains(te.Message, c.says) {
			t.Errorf("%s: err = %v, want %s saying %q", c.label, err, c.code, c.says)
		}
	}
}

func TestPage(t *testing.T) {
	page, err := Page(tree(t, el("Page", `{"title":"Orders & more"}`, `[]`)), "ignored", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"<!doctype html>",
		`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:;`,
		"<title>Orders &amp; more</title>",
		".t-table th",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "<link", "http://", "https://", "@import", "url("} {
		if strings.Contains(s, banned) {
			t.Errorf("the page holds %q", banned)
		}
	}
}
