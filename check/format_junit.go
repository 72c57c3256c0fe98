package check

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
)

// The elements of a JUnit XML report, as Jenkins, GitLab and most CI
// systems read it: one suite, a test case per rule, a failure per finding.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		ClassName string         `xml:"classname,attr"`
		Name      string         `xml:"name,attr"`
		Failures  []junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// junitSuiteName names the one suite, and the class of its cases.
const junitSuiteName = "tent-tools check"

// JUnit prints findings as a JUnit XML report: one test case per rule of
// the check ("T2003 ref to an unknown table"; a code that no rule
// describes gets a case too), which passes where the rule found nothing
// and has a failure per finding otherwise: its type the finding's severity,
// its message "path:line:col: message", its text the finding as the text
// form prints it, with its fix. The counts (tests, failures) count test
// cases, as JUnit readers do.
func JUnit(fs []diag.Finding) ([]byte, error) {
	return junitXML(fs, Rules())
}

// junitXML is JUnit with the rules given.
func junitXML(fs []diag.Finding, rules []Rule) ([]byte, error) {
	cases := make([]junitCase, 0, len(rules))
	index := map[string]int{}
	for _, r := range rules {
		index[r.Code] = len(cases)
		cases = append(cases, junitCase{ClassName: junitSuiteName, Name: r.Code + " " + r.Title})
	}
	for _, f := range fs {
		i, known := index[f.Code]
		if !known {
			i = len(cases)
			index[f.Code] = i
			cases = append(cases, junitCase{ClassName: junitSuiteName, Name: f.Code})
		}
		text := f.String()
		if f.Fix != nil {
			text += "\nfix: " + f.Fix.Title
		}
		cases[i].Failures = append(cases[i].Failures, junitFailure{
			Message: f.Path + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col) + ": " + f.Message,
			Type:    string(f.Severity),
			Text:    text,
		})
	}
	failed := 0
	for _, c := range cases {
		if len(c.Failures) > 0 {
			failed++
		}
	}
	report := junitSuites{
		Name: junitSuiteName, Tests: len(cases), Failures: failed,
		Suites: []junitSuite{{Name: junitSuiteName, Tests: len(cases), Failures: failed, Cases: cases}},
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return nil, fmt.Errorf("findings as JUnit XML: %w", err)
	}
	b.WriteByte('\n')
	return []byte(b.String()), nil
}
