package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/internal/testneed"
)

// ciTool finds a program the CI tests run for real (git, reviewdog,
// actionlint): on the PATH, or where `go install` puts it (GOBIN or
// GOPATH/bin), where .ci/setup.d/50-ci-tools.sh installs the pinned ones.
// Without it the test skips on a developer's machine, and fails under
// CI=true, where the setup script has run.
func ciTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, v := range []string{"GOBIN", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		dir := strings.TrimSpace(string(out))
		if err != nil || dir == "" {
			continue
		}
		if v == "GOPATH" {
			dir = filepath.Join(filepath.SplitList(dir)[0], "bin")
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p
		}
	}
	testneed.Missing(t, "%s is not installed: .ci/setup.d/50-ci-tools.sh installs it", name)
	return ""
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// TestCheckCIFormats runs `check --format gitlab|rdjson|junit` through the
// binary on the project of the check's format goldens: the CLI reads the
// files' text, so gitlab and rdjson are the Go API's goldens exactly;
// junit is the Go API's report of the same findings.
func TestCheckCIFormats(t *testing.T) {
	dir := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	for _, format := range []string{"gitlab", "rdjson", "junit"} {
		t.Run(format, func(t *testing.T) {
			r := tentTools(t, dir, "", "check", "--format", format)
			if r.exit != 1 || r.stderr != "tent-tools: check: 2 errors, 1 warning\n" {
				t.Errorf("exit %d, stderr %q; want 1 and the summary", r.exit, r.stderr)
			}
			var want []byte
			if format == "junit" {
				var ans check.Answer
				if err := json.Unmarshal(mustRead(t, "../../check/testdata/formats/json.golden"), &ans); err != nil {
					t.Fatal(err)
				}
				var err error
				if want, err = check.JUnit(ans.Findings); err != nil {
					t.Fatal(err)
				}
			} else {
				want = mustRead(t, "../../check/testdata/formats/"+format+".golden")
			}
			if r.stdout != string(want) {
				t.Errorf("check --format %s differs from the Go API's\n--- want\n%s\n--- got\n%s", format, want, r.stdout)
			}
		})
	}
}

// TestCheckReviewdog pipes `check --format rdjson` into reviewdog v0.21.0
// (-f=rdjson -reporter=local), as a workflow does, and reads what
// reviewdog understood: each finding with its path, its place in bytes,
// its severity, code and message, and the fix as a suggestion.
func TestCheckReviewdog(t *testing.T) {
	reviewdog := ciTool(t, "reviewdog")
	dir := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	r := tentTools(t, dir, "", "check", "--format", "rdjson")
	if r.exit != 1 {
		t.Fatalf("check: exit %d, stderr %s", r.exit, r.stderr)
	}
	runReviewdog := func(args ...string) (string, int) {
		cmd := exec.Command(reviewdog, append([]string{"-f=rdjson", "-reporter=local"}, args...)...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(r.stdout)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String() + errOut.String(), code
	}
	out, code := runReviewdog()
	if code != 0 {
		t.Fatalf("reviewdog exit %d:\n%s", code, out)
	}
	// reviewdog's local reporter prints each diagnostic as it parsed it, in
	// protobuf's text form, whose spacing varies from build to build on
	// purpose: spaces are compared as one.
	out = regexp.MustCompile(`[ \t]+`).ReplaceAllString(out, " ")
	for _, want := range []string{
		`message:"orders.buyer: ref('user') names no table; did you mean users?"`,
		`path:"tables/orders.ts" range:{start:{line:4 column:26} end:{line:4 column:30}}`,
		`severity:ERROR source:{name:"tent-tools"} code:{value:"T2003"}`,
		`suggestions:{range:{start:{line:4 column:26} end:{line:4 column:30}} text:"users"}`,
		// Zoë: the column counts the ë's two bytes.
		`path:"testdata/users.json" range:{start:{line:2 column:41} end:{line:2 column:48}}`,
		`severity:WARNING source:{name:"tent-tools"} code:{value:"T2505"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("reviewdog's output lacks %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "message:"); n != 3 {
		t.Errorf("reviewdog read %d diagnostics, want 3:\n%s", n, out)
	}
	// reviewdog judges the severities it read: errors fail -fail-level=error.
	if out, code := runReviewdog("-fail-level=error"); code != 1 {
		t.Errorf("reviewdog -fail-level=error: exit %d, want 1:\n%s", code, out)
	}
}

// gitRepo makes a git repository in a new folder with the files given,
// committed on the branch main.
func gitRepo(t *testing.T, files map[string]string) (dir string, git func(args ...string) string) {
	t.Helper()
	gitBin := ciTool(t, "git")
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	writeFiles(t, dir, files)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	return dir, git
}

// writeFiles writes files into dir; an empty text removes the file.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if text == "" {
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The project the diff tests change: two old findings (orders.buyer's ref
// to user, items.order's ref to ordr).
var (
	ciProject = map[string]string{
		"project.ts": "import { project } from 'tent'\n\nexport default project({ name: 'shop' })\n",
		"tables/orders.ts": `import { table, text, ref } from 'tent'

export const orders = table({
  columns: {
    buyer: ref('user'),
    note: text(),
    status: text(),
  },
})
`,
		"tables/items.ts": `import { table, ref } from 'tent'

export const items = table({
  columns: { order: ref('ordr') },
})
`,
	}
	// On the branch: orders.buyer moved below two columns (git shows its
	// line removed and added again), a new column with a
	// new finding; items moved into another file, under new lines.
	ciBranch = map[string]string{
		"tables/orders.ts": `import { table, text, ref } from 'tent'

export const orders = table({
  columns: {
    note: text(),
    status: text(),
    buyer: ref('user'),
    seller: ref('sellers'),
  },
})
`,
		"tables/items.ts": "",
		"tables/lineItems.ts": `import { table, ref } from 'tent'

// The lines of an order.
// Each names its order.
export const items = table({
  columns: { order: ref('ordr') },
})
`,
	}
)

const newFinding = "tables/orders.ts:8:18: error T2003: orders.seller: ref('sellers') names no table\n"

// TestCheckChangedSince: on a branch, a finding added is reported, the old
// ones are not, also where their code moved (within its file, and into a
// renamed file); a new file not yet added to git counts as changed whole;
// the exit rule stays.
func TestCheckChangedSince(t *testing.T) {
	dir, git := gitRepo(t, ciProject)
	git("checkout", "-q", "-b", "feature")
	writeFiles(t, dir, ciBranch)
	git("add", "-A")
	git("commit", "-q", "-m", "on the branch")
	// main moves on after the branch left it: what it gained is no change
	// of the branch.
	git("checkout", "-q", "main")
	writeFiles(t, dir, map[string]string{"lib/late.ts": "export const late = 1\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "later on main")
	git("checkout", "-q", "feature")

	all := tentTools(t, dir, "", "check")
	if strings.Count(all.stdout, "error T2003") != 3 {
		t.Fatalf("the whole check should find 3 errors:\n%s", all.stdout)
	}
	r := tentTools(t, dir, "", "check", "--changed-since", "main")
	if r.exit != 1 || r.stdout != newFinding+"1 error\n" {
		t.Errorf("--changed-since main: exit %d\n%s", r.exit, r.stdout)
	}
	if want := "tent-tools: check: 1 error (2 on lines not changed since main)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	// Since the branch's own commit, nothing changed: no finding, exit 0.
	if r := tentTools(t, dir, "", "check", "--changed-since", "HEAD"); r.exit != 0 || r.stdout != "no findings\n" {
		t.Errorf("--changed-since HEAD: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	// A file git does not track yet is new whole.
	writeFiles(t, dir, map[string]string{"tables/tags.ts": "import { table, ref } from 'tent'\n\nexport const tags = table({ columns: { item: ref('item') } })\n"})
	r = tentTools(t, dir, "", "check", "--changed-since", "HEAD", "--format", "json")
	var ans check.Answer
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil || len(ans.Findings) != 1 || ans.Findings[0].Path != "tables/tags.ts" {
		t.Errorf("an untracked file: exit %d, %v\n%s", r.exit, err, r.stdout)
	}
}

// TestCheckChangedSinceSubfolder: a project in a folder of the repository
// (-C app) gets the paths of its own findings right.
func TestCheckChangedSinceSubfolder(t *testing.T) {
	files := map[string]string{"README.md": "a repository with the app in app/\n"}
	for p, text := range ciProject {
		files["app/"+p] = text
	}
	dir, git := gitRepo(t, files)
	branch := map[string]string{}
	for p, text := range ciBranch {
		branch["app/"+p] = text
	}
	writeFiles(t, dir, branch)
	git("add", "-A")
	r := tentTools(t, dir, "", "-C", "app", "check", "--changed-since", "HEAD")
	if r.exit != 1 || r.stdout != newFinding+"1 error\n" {
		t.Errorf("-C app --changed-since HEAD: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
}

// TestCheckBaseline: a baseline written on main knows its findings; on
// the branch, the new finding is reported and the old ones are not, also
// moved (within their file, into a renamed one); the exit rule stays.
func TestCheckBaseline(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ciProject)
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	w := tentTools(t, dir, "", "check", "--write-baseline", baseline)
	if w.exit != 0 || w.stdout != fmt.Sprintf("wrote the baseline %s: 2 errors\n", baseline) {
		t.Fatalf("--write-baseline: exit %d\n%s%s", w.exit, w.stdout, w.stderr)
	}
	b, err := check.ReadBaseline(mustRead(t, baseline))
	if err != nil || len(b.Findings) != 2 {
		t.Fatalf("the baseline: %v, %+v", err, b)
	}
	if r := tentTools(t, dir, "", "check", "--baseline", baseline); r.exit != 0 || r.stdout != "no findings\n" ||
		r.stderr != fmt.Sprintf("tent-tools: check: no findings (2 known in %s)\n", baseline) {
		t.Errorf("the same project: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	writeFiles(t, dir, ciBranch)
	r := tentTools(t, dir, "", "check", "--baseline", baseline)
	if r.exit != 1 || r.stdout != newFinding+"1 error\n" {
		t.Errorf("the branch: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	// Without the new finding, the moved old ones pass.
	writeFiles(t, dir, map[string]string{"tables/orders.ts": strings.Replace(ciBranch["tables/orders.ts"], "    seller: ref('sellers'),\n", "", 1)})
	if r := tentTools(t, dir, "", "check", "--baseline", baseline, "--format", "gitlab"); r.exit != 0 || r.stdout != "[]\n" {
		t.Errorf("old findings moved: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
}

// TestCheckCIUsage: --fail-on moves the exit rule; bad flags are usage
// (exit 2); a bad ref or baseline is a tool error with its code (exit 1).
func TestCheckCIUsage(t *testing.T) {
	warnings := writeCaseProject(t, "../../check/testdata/cases/T2505-sends.txt")
	errs := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	notBaseline := filepath.Join(t.TempDir(), "other.json")
	writeFiles(t, filepath.Dir(notBaseline), map[string]string{"other.json": `{"name": "not a baseline"}`})
	tests := []struct {
		name   string
		dir    string
		args   []string
		exit   int
		stderr string
	}{
		{"warnings pass by default", warnings, []string{"check"}, 0, ""},
		{"--fail-on warning", warnings, []string{"check", "--fail-on", "warning"}, 1, "tent-tools: check: 4 warnings\n"},
		{"--fail-on never", errs, []string{"check", "--fail-on", "never", "--format", "github"}, 0, ""},
		{"--fail-on error", errs, []string{"check", "--fail-on", "error", "--format", "junit"}, 1, "tent-tools: check: 2 errors, 1 warning\n"},
		{"--fail-on bad", errs, []string{"check", "--fail-on", "sometimes"}, 2, "unknown --fail-on"},
		{"--format bad", errs, []string{"check", "--format", "checkstyle"}, 2, "unknown --format"},
		{"--path-prefix out of the repository", errs, []string{"check", "--path-prefix", "../app"}, 2, "--path-prefix"},
		{"--path-prefix", errs, []string{"check", "--path-prefix", "./app/", "--format", "github", "--fail-on", "never"}, 0, ""},
		{"write and read a baseline", errs, []string{"check", "--write-baseline", "b.json", "--baseline", "b.json"}, 2, "--write-baseline records every finding"},
		{"no baseline file", errs, []string{"check", "--baseline", "nothing.json"}, 1, "T9136: read the baseline"},
		{"a baseline in no folder", errs, []string{"check", "--write-baseline", "no/such/folder/b.json"}, 1, "T9136: write the baseline no/such/folder/b.json"},
		{"not a baseline", errs, []string{"check", "--baseline", notBaseline}, 1, "T9136: " + notBaseline + ": not a baseline of the check"},
		{"not a git repository", errs, []string{"check", "--changed-since", "main"}, 1, "T9135: --changed-since: the project is not in a git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tentTools(t, tt.dir, "", tt.args...)
			if r.exit != tt.exit || (tt.stderr == "" && r.stderr != "") || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", r.exit, tt.exit, r.stderr, tt.stderr)
			}
		})
	}
	dir, _ := gitRepo(t, ciProject)
	if r := tentTools(t, dir, "", "check", "--changed-since", "mian"); r.exit != 1 || !strings.Contains(r.stderr, "T9135: --changed-since mian: git knows no such commit") {
		t.Errorf("an unknown ref: exit %d, stderr %q", r.exit, r.stderr)
	}
}
