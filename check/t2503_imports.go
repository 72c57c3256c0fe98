package check

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
)

// unresolvedImports reports T2503: an import (or re-export) of a relative
// module that names no project file, and an import of a package other than
// 'tent' and 'tent/ui'. App code runs with nothing but ctx (docs/pages/format.md §6):
// the bundle it runs as holds the project's own files and the framework, so
// a package import could never load.
func unresolvedImports(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, file := range p.files {
		// The spans reported, looked through one by one: a file has a
		// few imports (a map for each file was most of the rule's time).
		var seen []definitions.Span
		report := func(module string, span definitions.Span) {
			if slices.Contains(seen, span) {
				return
			}
			seen = append(seen, span)
			if msg := p.importProblem(file.Path, module); msg != "" {
				out = append(out, p.at(file.Path, "", diag.T2503, diag.Error, msg, span))
			}
		}
		for _, im := range file.Imports {
			report(im.Module, im.ModuleSpan)
		}
		for _, ex := range file.Exports {
			if ex.Module != "" {
				report(ex.Module, moduleSpan(file, ex))
			}
		}
	}
	return out
}

// importProblem says what is wrong with importing module from the file at
// from, or "" when nothing is.
func (p *pass) importProblem(from, module string) string {
	switch {
	case module == "tent" || module == "tent/ui":
		return ""
	case strings.HasPrefix(module, "./") || strings.HasPrefix(module, "../") || module == "." || module == "..":
		if p.resolve(from, module) != "" {
			return ""
		}
		return fmt.Sprintf("import '%s' names no file of the project", module)
	case strings.HasPrefix(module, "/"):
		return fmt.Sprintf("import '%s' is an absolute path: import project files by a relative path", module)
	}
	return fmt.Sprintf("import '%s': app code imports only 'tent', 'tent/ui' and project files", module)
}

// moduleSpan finds the module text of a re-export after its specifier (the
// index keeps no span for it), falling back to the specifier.
func moduleSpan(f *definitions.File, ex definitions.Export) definitions.Span {
	from := max(ex.LocalSpan.End, ex.ExportedSpan.End)
	if from <= len(f.Src) {
		if i := bytes.Index(f.Src[from:], []byte(ex.Module)); i >= 0 {
			return definitions.Span{Start: from + i, End: from + i + len(ex.Module)}
		}
	}
	return ex.ExportedSpan
}
