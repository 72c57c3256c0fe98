package check

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// BaselineVersion is the version of the baseline file's form; a file of
// another version is refused (T9136) rather than read wrongly.
const BaselineVersion = 1

// baselineTool names what wrote a baseline, so that another tool's JSON is
// not taken for one.
const baselineTool = "tent-tools check"

// Baseline is a project's known findings, written by
// `check --write-baseline` and read by `check --baseline`, which then
// reports only the findings it does not hold. Findings are matched by
// their fingerprint (Fingerprints), which leaves out line numbers: code
// moved within its file keeps its findings known. Code, path and message
// are there for the people who read the file.
type Baseline struct {
	Tool     string          `json:"tool"`
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one known finding.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Code        string `json:"code"`
	Path        string `json:"path"`
	Message     string `json:"message"`
}

// NewBaseline makes the baseline of every finding of a report.
func NewBaseline(r Report) Baseline {
	prints := Fingerprints(r)
	b := Baseline{Tool: baselineTool, Version: BaselineVersion, Findings: make([]BaselineEntry, len(r.Findings))}
	for i, f := range r.Findings {
		b.Findings[i] = BaselineEntry{Fingerprint: prints[i], Code: f.Code, Path: f.Path, Message: f.Message}
	}
	return b
}

// Marshal writes the baseline as indented JSON with a final newline.
func (b Baseline) Marshal() ([]byte, error) {
	out, err := marshal(b)
	if err != nil {
		return nil, fmt.Errorf("baseline as JSON: %w", err)
	}
	return out, nil
}

// ReadBaseline reads a baseline written by Marshal; what is not one (other
// JSON, another version, an entry without a fingerprint) is T9136.
func ReadBaseline(data []byte) (Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return Baseline{}, diag.Errorf(diag.T9136, "not a baseline of the check: %v (write one with check --write-baseline FILE)", err)
	}
	if b.Tool != baselineTool {
		return Baseline{}, diag.Errorf(diag.T9136, "not a baseline of the check: its tool is %q, not %q (write one with check --write-baseline FILE)", b.Tool, baselineTool)
	}
	if b.Version != BaselineVersion {
		return Baseline{}, diag.Errorf(diag.T9136, "baseline version %d: this tent-tools reads version %d; write it again with check --write-baseline FILE", b.Version, BaselineVersion)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return Baseline{}, diag.Errorf(diag.T9136, "baseline finding %d has no fingerprint", i+1)
		}
	}
	return b, nil
}

// New returns the report without the findings the baseline knows.
func (b Baseline) New(r Report) Report {
	known := make(map[string]bool, len(b.Findings))
	for _, e := range b.Findings {
		known[e.Fingerprint] = true
	}
	return r.Filter(func(_ diag.Finding, fingerprint string) bool { return !known[fingerprint] })
}
