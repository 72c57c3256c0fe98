package definitions

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// parseFile parses src as a file at path and runs analyzeCode on it, with
// the given definitions (nil in plain code).
func parseFile(t testing.TB, path, src string, defs []*Definition) *File {
	t.Helper()
	f := &File{Path: path, Lang: LangTS, Src: []byte(src), Definitions: defs}
	lang := typescript.GetLanguage()
	if strings.HasSuffix(path, ".tsx") {
		f.Lang = LangTSX
		lang = tsx.GetLanguage()
	}
	p := sitter.NewParser()
	p.SetLanguage(lang)
	tree, err := p.ParseCtx(context.Background(), nil, f.Src)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	f.Tree = tree
	analyzeCode(f, tree.RootNode())
	return f
}

// at shows a span as its text, for readable expectations.
func at(src []byte, s Span) string { return string(src[s.Start:s.End]) }

func TestImportsExports(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"named", `import { a, b as c } from './x'`, []string{
			"import ./x@./x a@a a@a", "import ./x@./x b@b c@c"}},
		{"default and namespace", `import d, * as ns from "../lib/y"`, []string{
			"import ../lib/y@../lib/y default@d d@d", "import ../lib/y@../lib/y *@* as ns ns@ns"}},
		{"type import", `import type { T } from './t'; import { type U } from './u'`, []string{
			"import ./t@./t T@T T@T", "import ./u@./u U@U U@U"}},
		{"side effect", `import './polyfill'`, nil},
		{"local export", `const a = 1; export { a as b, a }`, []string{
			"export  a@a b@b", "export  a@a a@a"}},
		{"re-export", `export { orders } from '../tables/orders'; export * from './z'; export * as q from './w'`, []string{
			"export ../tables/orders orders@orders orders@orders", "export ./z *@* *@*", "export ./w *@* as q q@q"}},
		{"nested import is no import", `function f() { return import('./x') }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseFile(t, "lib/a.ts", tt.src, nil)
			var got []string
			for _, im := range f.Imports {
				got = append(got, fmt.Sprintf("import %s@%s %s@%s %s@%s", im.Module, at(f.Src, im.ModuleSpan),
					im.Imported, at(f.Src, im.ImportedSpan), im.Local, at(f.Src, im.LocalSpan)))
			}
			for _, ex := range f.Exports {
				got = append(got, fmt.Sprintf("export %s %s@%s %s@%s", ex.Module, ex.Local, at(f.Src, ex.LocalSpan),
					ex.Exported, at(f.Src, ex.ExportedSpan)))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
