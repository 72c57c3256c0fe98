package check

import (
	"fmt"

	"github.com/tent-tools/tent-tools/diag"
)

// The objects of GitLab's Code Quality report (a subset of the Code
// Climate issue): one issue per finding.
type (
	gitlabIssue struct {
		Type        string         `json:"type"`
		CheckName   string         `json:"check_name"`
		Description string         `json:"description"`
		Categories  []string       `json:"categories"`
		Severity    string         `json:"severity"`
		Fingerprint string         `json:"fingerprint"`
		Location    gitlabLocation `json:"location"`
	}
	gitlabLocation struct {
		Path  string      `json:"path"`
		Lines gitlabLines `json:"lines"`
	}
	gitlabLines struct {
		Begin int `json:"begin"`
		End   int `json:"end"`
	}
)

// GitLab prints a report's findings as a GitLab Code Quality report: a
// JSON array with an issue per finding, its check_name the finding's code,
// its description "CODE: message", its severity critical for an error
// (the check fails), minor for a warning and info for an info, its place
// the project path and lines, and its fingerprint Fingerprints' (stable
// across runs and when code moves, so that GitLab's merge request widget
// shows only what a change brings or fixes). No findings is [].
func GitLab(r Report) ([]byte, error) {
	prints := Fingerprints(r)
	issues := make([]gitlabIssue, len(r.Findings))
	for i, f := range r.Findings {
		begin := max(f.Line, 1)
		issues[i] = gitlabIssue{
			Type:        "issue",
			CheckName:   f.Code,
			Description: f.Code + ": " + f.Message,
			Categories:  []string{"Bug Risk"},
			Severity:    gitlabSeverity(f.Severity),
			Fingerprint: prints[i],
			Location:    gitlabLocation{Path: f.Path, Lines: gitlabLines{Begin: begin, End: max(f.EndLine, begin)}},
		}
	}
	b, err := marshal(issues)
	if err != nil {
		return nil, fmt.Errorf("findings as a GitLab Code Quality report: %w", err)
	}
	return b, nil
}

// gitlabSeverity maps a severity to a Code Climate one.
func gitlabSeverity(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "critical"
	case diag.Warning:
		return "minor"
	}
	return "info"
}
