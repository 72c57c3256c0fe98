package check

import (
	"bytes"
	"fmt"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/schema"
)

// builderNames are the builders a definition may use.
var builderNames = []string{"table", "fn", "flow", "screen"}

// unknownBuilders reports T2002: a definition built with something 'tent'
// or 'tent/ui' exports that is no builder, and a column (or input field)
// built with something that is no column type.
func unknownBuilders(p *pass) []diag.Finding {
	var out []diag.Finding
	for _, d := range p.defs {
		if d.Kind == definitions.KindUnknown {
			out = append(out, p.on(d, diag.T2002, diag.Error,
				fmt.Sprintf("%s is no builder: a definition uses table, fn, flow or screen%s", d.Builder, didYouMean(d.Builder, builderNames)),
				builderSpan(p, d)))
		}
		for _, c := range columnsOf(d) {
			if c.Call == nil || c.Call.Kind != definitions.ValCall || schema.IsType(c.Call.Str) {
				continue
			}
			out = append(out, p.on(d, diag.T2002, diag.Error,
				fmt.Sprintf("%s.%s: %s is no column type%s", d.Name, c.Schema.Name, c.Call.Str, didYouMean(c.Call.Str, typeNames())),
				calleeSpan(p, d, c.Call)))
		}
	}
	return out
}

// didYouMean is "; did you mean x?" for the one likely candidate, or "".
func didYouMean(name string, candidates []string) string {
	if s := suggest(name, candidates); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// typeNames lists the column builders.
func typeNames() []string {
	names := make([]string, len(schema.Types))
	for i, t := range schema.Types {
		names[i] = string(t)
	}
	return names
}

// calleeSpan is the span of a call's callee as written (txt, t.txt): the
// call's text up to its opening parenthesis.
func calleeSpan(p *pass, d *definitions.Definition, call *definitions.Value) definitions.Span {
	f := p.ix.File(d.Path)
	if f == nil || call.Span.End > len(f.Src) {
		return call.Span
	}
	text := f.Src[call.Span.Start:call.Span.End]
	if i := bytes.IndexByte(text, '('); i > 0 {
		return definitions.Span{Start: call.Span.Start, End: call.Span.Start + len(bytes.TrimRight(text[:i], " \t\r\n"))}
	}
	return call.Span
}

// builderSpan finds the builder's name after the exported name, falling
// back to the name itself.
func builderSpan(p *pass, d *definitions.Definition) definitions.Span {
	f := p.ix.File(d.Path)
	if f == nil || d.Builder == "" || d.NameSpan.End > d.Stmt.End || d.Stmt.End > len(f.Src) {
		return d.NameSpan
	}
	if i := bytes.Index(f.Src[d.NameSpan.End:d.Stmt.End], []byte(d.Builder)); i >= 0 {
		start := d.NameSpan.End + i
		return definitions.Span{Start: start, End: start + len(d.Builder)}
	}
	return d.NameSpan
}
