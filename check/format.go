package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// Formats names the forms Write can print findings in.
var Formats = []string{"text", "json", "sarif", "github", "gitlab", "rdjson", "junit"}

// Write prints findings in a form of Formats: text for people, json as
// docs/pages/check.md gives it, sarif for code-scanning uploads, github for
// workflow annotations. version is the tool's version, for SARIF. It is
// WriteReport without the files' text.
func Write(w io.Writer, format string, fs []diag.Finding, version string) error {
	return WriteReport(w, format, Report{Findings: fs, Version: version})
}

// WriteReport prints a report's findings in a form of Formats: text for
// people, json as docs/pages/check.md gives it, sarif for code-scanning uploads,
// github for workflow annotations, gitlab for GitLab's Code Quality report,
// rdjson for reviewdog, junit for CI systems that show test reports.
func WriteReport(w io.Writer, format string, r Report) error {
	fs := r.Findings
	var out []byte
	var err error
	switch format {
	case "text":
		out = []byte(Text(fs))
	case "json":
		out, err = JSON(fs)
	case "sarif":
		out, err = SARIF(fs, r.Version)
	case "github":
		out = []byte(GitHub(fs))
	case "gitlab":
		out, err = GitLab(r)
	case "rdjson":
		out, err = RDJSON(r)
	case "junit":
		out, err = JUnit(fs)
	default:
		return diag.Errorf(diag.T9102, "unknown format %q: use %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("write %s findings: %w", format, err)
	}
	return nil
}

// Text prints one finding a line, as compilers do
// (path:line:col: severity code: message), each certain fix on an indented
// line under its finding, then a count.
func Text(fs []diag.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteByte('\n')
		if f.Fix != nil {
			fmt.Fprintf(&b, "\tfix: %s\n", f.Fix.Title)
		}
	}
	b.WriteString(Summary(fs))
	b.WriteByte('\n')
	return b.String()
}

// Summary counts findings by severity: "2 errors, 1 warning", or "no findings".
func Summary(fs []diag.Finding) string {
	if len(fs) == 0 {
		return "no findings"
	}
	counts := map[diag.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []struct {
		sev  diag.Severity
		name string
	}{{diag.Error, "error"}, {diag.Warning, "warning"}, {diag.Info, "info"}} {
		switch n := counts[s.sev]; {
		case n == 1:
			parts = append(parts, "1 "+s.name)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", n, s.name))
		}
	}
	return strings.Join(parts, ", ")
}

// Answer is the check's answer as data (docs/pages/check.md).
type Answer struct {
	Findings []diag.Finding `json:"findings"`
	// Fixed, with the check's fix input, lists the findings whose certain
	// fixes were applied (or, with dryRun, would be); Findings are then
	// those the check finds after them (with dryRun, before them).
	Fixed []Fixed `json:"fixed,omitzero"`
	// Diff, with dryRun, is the unified diff the fixes would make.
	Diff string `json:"diff,omitempty"`
	// DryRun says nothing was written.
	DryRun bool `json:"dryRun,omitempty"`
	// Point is the point the fixes were recorded as (null where nothing
	// was written).
	Point *int `json:"point,omitempty"`
	// More, in an agent's bounded answer, says what Findings and Fixed
	// left out beyond their budgets and how to ask for it.
	More []diag.More `json:"more,omitempty"`
}

// Fixed is a finding whose fix was applied: where it stood and what the
// fix did.
type Fixed struct {
	Code  string `json:"code"`
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	Title string `json:"title"`
}

// NewAnswer wraps findings as the check's answer; no findings is an empty
// list, never null.
func NewAnswer(fs []diag.Finding) Answer {
	if fs == nil {
		fs = []diag.Finding{}
	}
	return Answer{Findings: fs}
}

// JSON prints {"findings": [...]}, indented, with a final newline.
func JSON(fs []diag.Finding) ([]byte, error) {
	b, err := marshal(NewAnswer(fs))
	if err != nil {
		return nil, fmt.Errorf("findings as JSON: %w", err)
	}
	return b, nil
}

// marshal writes v as indented JSON with a final newline, leaving <, > and
// & as they are (messages quote code).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
