package runner

import (
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// driftFindings places T2011 findings: a column at its table's name, a
// table at project.ts's removed (or its default export).
func driftFindings(ix *definitions.Index, dr []testdb.Drift) []diag.Finding {
	var out []diag.Finding
	for _, d := range dr {
		if d.Column != "" {
			msg := fmt.Sprintf("the test database has column %s.%s, which no definition names: add %q to removed on %s to drop it, or to was on the column that took its place to keep its data",
				d.Table, d.Column, d.Column, d.Live)
			def := ix.Definition(d.Live)
			if def == nil || ix.File(def.Path) == nil {
				out = append(out, bare(msg, d.Live))
				continue
			}
			f := ix.File(def.Path).Finding(diag.T2011, diag.Error, msg, def.NameSpan)
			f.Definition = d.Live
			out = append(out, f)
			continue
		}
		msg := fmt.Sprintf("the test database has table %s, which no definition names: add %q to removed on project to drop it, or to was on the table that took its place to keep its data", d.Table, d.Table)
		p := ix.Project()
		if p == nil || ix.File(p.Path) == nil {
			out = append(out, bare(msg, ""))
			continue
		}
		span := definitions.Span{Start: p.Stmt.Start, End: min(p.Stmt.End, p.Stmt.Start+len("export default"))}
		if p.Project != nil && p.Project.RemovedProp != nil {
			span = p.Project.RemovedProp.Span
		}
		out = append(out, ix.File(p.Path).Finding(diag.T2011, diag.Error, msg, span))
	}
	diag.Sort(out)
	return out
}

// bare is a T2011 finding with no place to stand but project.ts's first line.
func bare(msg, def string) diag.Finding {
	return diag.Finding{Code: diag.T2011, Severity: diag.Error, Path: "project.ts", Line: 1, Col: 1, EndLine: 1, EndCol: 1, Message: msg, Definition: def}
}

// unreadable is the T4006 warning of a test database that cannot be read.
func unreadable(ix *definitions.Index, err error) diag.Finding {
	f := bare(fmt.Sprintf("the test database cannot be read, so whether it has what no definition names (T2011) is unknown: %v; reset rebuilds it from the test data", err), "")
	f.Code, f.Severity = diag.T4006, diag.Warning
	if p := ix.Project(); p != nil {
		f.Path = p.Path
	}
	return f
}
