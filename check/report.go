package check

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tent-tools/tent-tools/diag"
)

// Report is one run's findings with what some CI forms print beside them:
// the tool's version (SARIF, rdjson) and the text of the project's files,
// for the lines that fingerprints (GitLab, baselines) and byte columns
// (rdjson) are made of.
type Report struct {
	Findings []diag.Finding
	// Version is tent-tools' version; "" leaves it out.
	Version string
	// Source returns the text of a project file by its project path, or
	// nil where it cannot be read. A nil Source reads nothing: fingerprints
	// then stand on the finding's code, path and message alone, and rdjson
	// columns count characters, not bytes.
	Source func(path string) []byte
	// Fingerprints, where set, holds each finding's fingerprint, in the
	// order of Findings: a report narrowed by Filter keeps the
	// fingerprints its findings had in the whole report. Where it is nil,
	// they are computed from the findings (Fingerprints).
	Fingerprints []string
}

// Filter returns the report with only the findings that keep is true of,
// each keeping the fingerprint it had in r.
func (r Report) Filter(keep func(f diag.Finding, fingerprint string) bool) Report {
	prints := Fingerprints(r)
	out := r
	out.Findings, out.Fingerprints = nil, []string{}
	for i, f := range r.Findings {
		if keep(f, prints[i]) {
			out.Findings = append(out.Findings, f)
			out.Fingerprints = append(out.Fingerprints, prints[i])
		}
	}
	return out
}

// sources reads each file of a report once.
type sources struct {
	read  func(path string) []byte
	texts map[string][]byte
	lines map[string][]string
}

func newSources(read func(string) []byte) *sources {
	return &sources{read: read, texts: map[string][]byte{}, lines: map[string][]string{}}
}

// text returns a file's text, or nil where it cannot be read.
func (s *sources) text(path string) []byte {
	if s.read == nil {
		return nil
	}
	src, ok := s.texts[path]
	if !ok {
		src = s.read(path)
		s.texts[path] = src
	}
	return src
}

// line returns the text of a 1-based line of a file, without its line end,
// or "" where the file or the line is not there.
func (s *sources) line(path string, line int) string {
	lines, ok := s.lines[path]
	if !ok {
		if src := s.text(path); src != nil {
			lines = strings.Split(string(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))), "\n")
		}
		s.lines[path] = lines
	}
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

// byteColumn converts a 1-based column counted in characters to one
// counted in bytes, on the given line of a file; without the line's text it
// is the column as it is.
func (s *sources) byteColumn(path string, line, col int) int {
	text := s.line(path, line)
	if text == "" || col < 1 {
		return col
	}
	b, left := 0, col-1
	for left > 0 && b < len(text) {
		_, size := utf8.DecodeRuneInString(text[b:])
		b += size
		left--
	}
	// A column past the line's end (the end of a finding that takes the
	// line break) counts one byte a character.
	return b + left + 1
}

// places matches a project place written into a message
// ("tables/users.ts:6:5"): its line and column go, the path stays, so that
// a finding that names another place keeps its key when that place moves.
var places = regexp.MustCompile(`(\.[A-Za-z]+):\d+:\d+`)

// Fingerprints gives each finding of a report (or keeps, where the report
// has them already: see Report.Fingerprints) an identity that survives
// moving code: a hash of its code, its message (with any place it names cut
// to the path) and the text of its line with the spaces normalised, and,
// among findings that share all of these, its rank in the report. Neither
// line numbers nor the file's path are part of it, so code moved up or
// down, within its file or into another (a table's file renamed), keeps
// its findings' fingerprints; editing the line itself makes a new one. The
// messages name what they are about (orders.buyer, users row u1), so
// findings in two files rarely share the rest; where they do, the rank
// tells them apart. The same report always gives the same fingerprints.
func Fingerprints(r Report) []string {
	if r.Fingerprints != nil && len(r.Fingerprints) == len(r.Findings) {
		return r.Fingerprints
	}
	src := newSources(r.Source)
	seen := map[string]int{}
	out := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		base := strings.Join([]string{f.Code, places.ReplaceAllString(f.Message, "$1"),
			strings.Join(strings.Fields(src.line(f.Path, f.Line)), " ")}, "\x00")
		// Findings come sorted by path and line within a severity, and a
		// code has one severity, so the rank counts in the order of files
		// and lines.
		rank := seen[base]
		seen[base]++
		sum := sha256.Sum256([]byte(base + "\x00" + strconv.Itoa(rank)))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// byteRange places the byte offsets [start, end) of a file as reviewdog
// positions: 1-based lines, 1-based columns counted in bytes. It is false
// where the file cannot be read or the offsets are not in it.
func (s *sources) byteRange(path string, start, end int) (rdRange, bool) {
	src := s.text(path)
	if src == nil || start < 0 || end < start || end > len(src) {
		return rdRange{}, false
	}
	pos := func(offset int) rdPosition {
		lineStart := bytes.LastIndexByte(src[:offset], '\n') + 1
		return rdPosition{Line: 1 + bytes.Count(src[:offset], []byte{'\n'}), Column: offset - lineStart + 1}
	}
	return rdRange{Start: pos(start), End: pos(end)}, true
}
