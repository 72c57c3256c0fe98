package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeCaseProject writes a check case file ("-- path --" sections, as in
// check/testdata) into a new folder.
func writeCaseProject(t *testing.T, casePath string) string {
	t.Helper()
	src, err := os.ReadFile(casePath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var f *os.File
	for _, line := range strings.SplitAfter(string(src), "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			if f != nil {
				f.Close()
			}
			p := filepath.Join(dir, trimmed[3:len(trimmed)-3])
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if f, err = os.Create(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if f != nil {
			f.WriteString(line)
		}
	}
	if f != nil {
		f.Close()
	}
	return dir
}

// TestCheckFormats runs `tent-tools check` on the project of the check's
// format goldens, in each form, and holds the output to the same goldens
// as the Go API's: the faces cannot drift apart.
func TestCheckFormats(t *testing.T) {
	dir := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	for _, format := range []string{"text", "json", "github", "sarif"} {
		t.Run(format, func(t *testing.T) {
			r := tentTools(t, dir, "", "check", "--format", format)
			if r.exit != 1 {
				t.Errorf("exit %d, want 1 (the project has errors); stderr: %s", r.exit, r.stderr)
			}
			if r.stderr != "tent-tools: check: 2 errors, 1 warning\n" {
				t.Errorf("stderr: %q", r.stderr)
			}
			want, err := os.ReadFile("../../check/testdata/formats/" + format + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if format == "sarif" {
				// The version differs (the binary's own); the results do not.
				want, r.stdout = sarifResults(t, want), string(sarifResults(t, []byte(r.stdout)))
			}
			if r.stdout != string(want) {
				t.Errorf("check --format %s differs from the Go API's golden\n--- want\n%s\n--- got\n%s", format, want, r.stdout)
			}
		})
	}
	if r := tentTools(t, dir, "", "--json", "check"); r.stdout != string(mustRead(t, "../../check/testdata/formats/json.golden")) {
		t.Errorf("--json differs from --format json:\n%s", r.stdout)
	}
}

// sarifResults is the results of a SARIF log, as indented JSON.
func sarifResults(t *testing.T, log []byte) []byte {
	t.Helper()
	var l struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(log, &l); err != nil || len(l.Runs) != 1 {
		t.Fatalf("not a SARIF log of one run (%v):\n%s", err, log)
	}
	var b bytes.Buffer
	json.Indent(&b, l.Runs[0].Results, "", "  ")
	return b.Bytes()
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckExitStatus: 0 for a clean project and for warnings only, 1 for
// errors, 2 for bad usage.
func TestCheckExitStatus(t *testing.T) {
	if r := tentTools(t, shop(t), "", "check"); r.exit != 0 || r.stdout != "no findings\n" {
		t.Errorf("shop: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
	warnings := writeCaseProject(t, "../../check/testdata/cases/T2505-sends.txt")
	if r := tentTools(t, warnings, "", "check"); r.exit != 0 || !strings.Contains(r.stdout, "warning T2505") {
		t.Errorf("warnings only: exit %d, stdout %q", r.exit, r.stdout)
	}
	if r := tentTools(t, shop(t), "", "check", "--format", "xml"); r.exit != 2 {
		t.Errorf("--format xml: exit %d, want 2", r.exit)
	}
	if r := tentTools(t, shop(t), "", "check", "extra"); r.exit != 2 {
		t.Errorf("an argument: exit %d, want 2", r.exit)
	}
}
