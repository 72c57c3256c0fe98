package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// The objects of reviewdog's Diagnostic Format as JSON (rdjson, the
// DiagnosticResult message): the source, and a diagnostic per finding with
// its range, severity, code and, where the finding has a certain fix in its
// own file, the fix as a suggestion. Columns count bytes, as the format
// says.
type (
	rdResult struct {
		Source      rdSource       `json:"source"`
		Severity    string         `json:"severity,omitempty"`
		Diagnostics []rdDiagnostic `json:"diagnostics"`
	}
	rdSource struct {
		Name string `json:"name"`
	}
	rdDiagnostic struct {
		Message     string         `json:"message"`
		Location    rdLocation     `json:"location"`
		Severity    string         `json:"severity"`
		Source      rdSource       `json:"source"`
		Code        rdCode         `json:"code"`
		Suggestions []rdSuggestion `json:"suggestions,omitempty"`
	}
	rdLocation struct {
		Path  string  `json:"path"`
		Range rdRange `json:"range"`
	}
	rdRange struct {
		Start rdPosition `json:"start"`
		End   rdPosition `json:"end"`
	}
	rdPosition struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	rdCode struct {
		Value string `json:"value"`
	}
	rdSuggestion struct {
		Range rdRange `json:"range"`
		Text  string  `json:"text"`
	}
)

// RDJSON prints a report's findings in reviewdog's rdjson form, for
// `reviewdog -f=rdjson`. The result's severity is its worst finding's.
// Without the files' text (a nil Source), columns count characters and no
// fix is offered as a suggestion, since its range could not be placed.
func RDJSON(r Report) ([]byte, error) {
	src := newSources(r.Source)
	out := rdResult{Source: rdSource{Name: "tent-tools"}, Diagnostics: make([]rdDiagnostic, 0, len(r.Findings))}
	for _, f := range r.Findings {
		start := rdPosition{Line: max(f.Line, 1), Column: src.byteColumn(f.Path, f.Line, max(f.Col, 1))}
		end := rdPosition{Line: max(f.EndLine, 1), Column: src.byteColumn(f.Path, f.EndLine, max(f.EndCol, 1))}
		if end.Line < start.Line || (end.Line == start.Line && end.Column < start.Column) {
			end = start
		}
		d := rdDiagnostic{
			Message:  f.Message,
			Location: rdLocation{Path: f.Path, Range: rdRange{Start: start, End: end}},
			Severity: rdSeverity(f.Severity),
			Source:   rdSource{Name: "tent-tools"},
			Code:     rdCode{Value: f.Code},
		}
		if f.Fix != nil && f.Fix.Path == f.Path {
			if rng, ok := src.byteRange(f.Fix.Path, f.Fix.Start, f.Fix.End); ok {
				d.Suggestions = []rdSuggestion{{Range: rng, Text: f.Fix.Text}}
			}
		}
		out.Diagnostics = append(out.Diagnostics, d)
	}
	if len(r.Findings) > 0 {
		// Findings come worst first.
		out.Severity = rdSeverity(r.Findings[0].Severity)
	}
	b, err := marshal(out)
	if err != nil {
		return nil, fmt.Errorf("findings as rdjson: %w", err)
	}
	return b, nil
}

// rdSeverity maps a severity to reviewdog's.
func rdSeverity(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "ERROR"
	case diag.Warning:
		return "WARNING"
	}
	return "INFO"
}
