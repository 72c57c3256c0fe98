package check

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/tent-tools/tent-tools/diag"
)

// SARIFSchema is the URI of the SARIF 2.1.0 JSON Schema that the log names.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// The SARIF 2.1.0 objects the check writes: one run of the tool
// tent-tools, its rules (each code, with its help text and default level),
// and a result per finding with its region and, where the finding has one,
// its fix. Columns count code points, as the findings' do.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string      `json:"id"`
		Name                 string      `json:"name"`
		ShortDescription     sarifText   `json:"shortDescription"`
		FullDescription      sarifText   `json:"fullDescription"`
		Help                 sarifText   `json:"help"`
		DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifResult struct {
		RuleID     string          `json:"ruleId"`
		RuleIndex  int             `json:"ruleIndex"`
		Level      string          `json:"level"`
		Message    sarifText       `json:"message"`
		Locations  []sarifLocation `json:"locations"`
		Fixes      []sarifFix      `json:"fixes,omitempty"`
		Properties map[string]any  `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	sarifFix struct {
		Description     sarifText        `json:"description"`
		ArtifactChanges []sarifArtChange `json:"artifactChanges"`
	}
	sarifArtChange struct {
		ArtifactLocation sarifArtifact      `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifBytes `json:"deletedRegion"`
		InsertedContent sarifText  `json:"insertedContent"`
	}
	sarifBytes struct {
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
	}
)

// SARIF prints findings as a SARIF 2.1.0 log for code-scanning uploads.
// Paths stay relative to the project's root. version is tent-tools'
// version ("" leaves it out).
func SARIF(fs []diag.Finding, version string) ([]byte, error) {
	rules := Rules()
	index := map[string]int{}
	driver := sarifDriver{Name: "tent-tools", Version: version, Rules: make([]sarifRule, len(rules))}
	for i, r := range rules {
		index[r.Code] = i
		driver.Rules[i] = sarifRule{
			ID:                   r.Code,
			Name:                 ruleName(r.Title),
			ShortDescription:     sarifText{r.Title},
			FullDescription:      sarifText{r.Help},
			Help:                 sarifText{r.Help},
			DefaultConfiguration: sarifConfig{sarifLevel(r.Severity)},
		}
	}
	results := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		i, known := index[f.Code]
		if !known {
			// A code no rule describes (a newer runner's) still gets a rule,
			// so the log stays valid.
			i = len(driver.Rules)
			index[f.Code] = i
			driver.Rules = append(driver.Rules, sarifRule{ID: f.Code, Name: f.Code,
				ShortDescription: sarifText{f.Code}, FullDescription: sarifText{f.Code}, Help: sarifText{f.Code},
				DefaultConfiguration: sarifConfig{sarifLevel(f.Severity)}})
		}
		res := sarifResult{
			RuleID:    f.Code,
			RuleIndex: i,
			Level:     sarifLevel(f.Severity),
			Message:   sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: uri(f.Path)},
				Region:           region(f),
			}}},
		}
		if f.Definition != "" {
			res.Properties = map[string]any{"definition": f.Definition}
		}
		if f.Fix != nil {
			res.Fixes = []sarifFix{{
				Description: sarifText{f.Fix.Title},
				ArtifactChanges: []sarifArtChange{{
					ArtifactLocation: sarifArtifact{URI: uri(f.Fix.Path)},
					Replacements: []sarifReplacement{{
						DeletedRegion:   sarifBytes{ByteOffset: f.Fix.Start, ByteLength: f.Fix.End - f.Fix.Start},
						InsertedContent: sarifText{f.Fix.Text},
					}},
				}},
			}}
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  SARIFSchema,
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results, ColumnKind: "unicodeCodePoints"}},
	}
	b, err := marshal(log)
	if err != nil {
		return nil, fmt.Errorf("findings as SARIF: %w", err)
	}
	return b, nil
}

// ruleName makes a rule's SARIF name from its title, in the form SARIF
// suggests: "ref to an unknown table" is RefToAnUnknownTable.
func ruleName(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// uri writes a project path as a relative URI reference (spaces and other
// letters percent-encoded), as SARIF's artifactLocation.uri wants it.
func uri(path string) string {
	return (&url.URL{Path: path}).EscapedPath()
}

// region is a finding's place; SARIF lines and columns start at 1, so a
// finding without a position (a missing file) points at the start.
func region(f diag.Finding) sarifRegion {
	r := sarifRegion{StartLine: max(f.Line, 1), StartColumn: max(f.Col, 1), EndLine: f.EndLine, EndColumn: f.EndCol}
	if r.EndLine < r.StartLine || (r.EndLine == r.StartLine && r.EndColumn < r.StartColumn) {
		r.EndLine, r.EndColumn = r.StartLine, r.StartColumn
	}
	return r
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}
