package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// action is the part of action.yml the tests read.
type action struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string           `yaml:"using"`
		Steps []map[string]any `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) action {
	t.Helper()
	var a action
	if err := yaml.Unmarshal(mustRead(t, "../../action.yml"), &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// yamlBlocks returns the ```yaml blocks of a markdown file that hold a
// whole workflow (a jobs: key), and those that hold a job's steps (a list)
// made the steps of a workflow's job.
func yamlBlocks(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(mustRead(t, path)), -1) {
		switch {
		case strings.Contains(m[1], "\njobs:"):
			out = append(out, m[1])
		case strings.HasPrefix(m[1], "- "):
			steps := "      " + strings.ReplaceAll(strings.TrimSuffix(m[1], "\n"), "\n", "\n      ")
			out = append(out, "on: push\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"+steps+"\n")
		}
	}
	return out
}

// TestActionlint lints with actionlint v1.7.12, in a repository made of
// action.yml: the workflows that docs/pages/ci.md, check.md, performance.md
// and the README show (the action used as ./, so that actionlint holds their inputs to
// action.yml's; steps alone made a job), and the action's own steps as the job of a reusable
// workflow whose inputs are the action's (actionlint reads no action
// metadata file on its own), their scripts through shellcheck. A workflow
// that names an input the action lacks, with an unquoted variable in a
// script, shows that both lints can fail.
func TestActionlint(t *testing.T) {
	actionlint := ciTool(t, "actionlint")
	shellcheck := ciTool(t, "shellcheck")
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", a.Runs.Using)
	}
	for _, name := range []string{"path", "version", "sarif", "fail-on", "changed-since"} {
		if _, ok := a.Inputs[name]; !ok || a.Inputs[name].Description == "" {
			t.Errorf("action.yml: no input %s, or no description", name)
		}
	}
	workflows := map[string]string{}
	var shown []string
	for _, page := range []string{"../../docs/pages/ci.md", "../../README.md", "../../docs/pages/check.md", "../../docs/pages/performance.md"} {
		shown = append(shown, yamlBlocks(t, page)...)
	}
	for i, w := range shown {
		if !strings.Contains(w, "tent-tools") {
			t.Errorf("workflow %d does not use tent-tools:\n%s", i, w)
		}
		workflows["doc-"+string(rune('a'+i))+".yml"] = regexp.MustCompile(`tent-tools/tent-tools@\S+`).ReplaceAllString(w, "./")
	}
	if len(workflows) < 4 {
		t.Fatalf("%d workflows found in docs/pages/ci.md, check.md, performance.md and README.md, want the example, the README's and the pages' steps", len(workflows))
	}
	callInputs := map[string]any{}
	for name, in := range a.Inputs {
		callInputs[name] = map[string]any{"description": in.Description, "required": in.Required, "default": in.Default, "type": "string"}
	}
	steps, err := yaml.Marshal(map[string]any{
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": callInputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": a.Runs.Steps}},
	})
	if err != nil {
		t.Fatal(err)
	}
	workflows["action-steps.yml"] = string(steps)

	lint := func(workflows map[string]string) (string, int) {
		dir, _ := gitRepo(t, map[string]string{"action.yml": string(mustRead(t, "../../action.yml"))})
		files := map[string]string{}
		for name, text := range workflows {
			files[filepath.Join(".github/workflows", name)] = text
		}
		writeFiles(t, dir, files)
		cmd := exec.Command(actionlint, "-no-color", "-shellcheck", shellcheck)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); ok {
			return string(out), exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := lint(workflows); code != 0 {
		t.Errorf("actionlint: exit %d\n%s", code, out)
	}
	bad := map[string]string{"bad.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          paht: app\n      - run: cd $HOME/$X\n"}
	out, code := lint(bad)
	if code != 1 || !strings.Contains(out, `input "paht" is not defined`) {
		t.Errorf("actionlint passed a workflow with an input the action lacks: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "SC2086") {
		t.Errorf("actionlint ran no shellcheck on the scripts: an unquoted variable passed\n%s", out)
	}
}

// TestActionCheckStep runs the action's check step, its script as the
// runner would (bash -e -o pipefail, the inputs in its env, tent-tools on
// the PATH), on a repository with the project in app/: annotations with
// paths from the repository's root, a SARIF log named in the step's
// outputs, and the exit rule of fail-on.
func TestActionCheckStep(t *testing.T) {
	var script string
	var env map[string]any
	for _, s := range readAction(t).Runs.Steps {
		if s["id"] == "check" {
			script, _ = s["run"].(string)
			env, _ = s["env"].(map[string]any)
		}
	}
	if script == "" {
		t.Fatal("action.yml has no step with id check")
	}
	for name, value := range env {
		if v, _ := value.(string); !strings.HasPrefix(v, "${{ inputs.") {
			t.Errorf("the check step's %s is %q, not an input", name, v)
		}
	}
	pathDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(pathDir, "tent-tools")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for p, text := range ciProject {
		files["app/"+p] = text
	}
	repo, _ := gitRepo(t, files)
	writeFiles(t, repo, map[string]string{"app/tables/orders.ts": ciBranch["tables/orders.ts"]})
	run := func(inputs map[string]string) (stdout, outputs string, code int) {
		t.Helper()
		githubOutput := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "PATH="+pathDir+string(os.PathListSeparator)+os.Getenv("PATH"), "GITHUB_OUTPUT="+githubOutput,
			"PROJECT="+inputs["path"], "SARIF="+inputs["sarif"], "FAIL_ON="+inputs["fail-on"], "CHANGED_SINCE="+inputs["changed-since"])
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		o, _ := os.ReadFile(githubOutput)
		return out.String(), string(o), code
	}

	out, outputs, code := run(map[string]string{"path": "app", "sarif": "check.sarif", "fail-on": "error"})
	if code != 1 || strings.Count(out, "::error file=app/tables/") != 3 || !strings.Contains(out, "::error file=app/tables/orders.ts,line=8,col=18,") {
		t.Errorf("fail-on error: exit %d\n%s", code, out)
	}
	if outputs != "sarif=check.sarif\n" {
		t.Errorf("the step's outputs: %q", outputs)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(repo, "check.sarif")), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 {
		t.Fatalf("the SARIF log: %v %+v", err, log)
	}
	for _, r := range log.Runs[0].Results {
		if uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(uri, "app/tables/") {
			t.Errorf("a SARIF result at %s, not from the repository's root", uri)
		}
	}

	out, outputs, code = run(map[string]string{"path": "app", "fail-on": "never"})
	if code != 0 || strings.Count(out, "::error ") != 3 || outputs != "" {
		t.Errorf("fail-on never: exit %d, outputs %q\n%s", code, outputs, out)
	}
	out, _, code = run(map[string]string{"path": "app", "fail-on": "error", "changed-since": "HEAD"})
	if code != 1 || strings.Count(out, "::error ") != 1 || !strings.Contains(out, "::error file=app/tables/orders.ts,line=8,col=18,") {
		t.Errorf("changed-since HEAD: exit %d\n%s", code, out)
	}
	if _, _, code = run(map[string]string{"path": "app", "fail-on": "often"}); code != 2 {
		t.Errorf("fail-on often: exit %d, want 2 (bad usage)", code)
	}
}

// TestPreCommitHooks runs each hook of .pre-commit-hooks.yaml the way
// pre-commit does: in a repository with a change staged and another one
// not, the unstaged one set aside (pre-commit saves `git diff` of the work
// tree and checks the files out), the hook's files pattern matched against
// the staged paths, then its entry run from the repository's root with its
// args (and no file names: pass_filenames is false), tent-tools on the
// PATH as `go install` puts it there.
func TestPreCommitHooks(t *testing.T) {
	var hooks []struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		Files         string   `yaml:"files"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		Args          []string `yaml:"args"`
	}
	if err := yaml.Unmarshal(mustRead(t, "../../.pre-commit-hooks.yaml"), &hooks); err != nil {
		t.Fatal(err)
	}
	pathDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(pathDir, "tent-tools")); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		exit   int
		stdout string
	}{
		// The whole staged project: the two old errors and the staged one.
		"tent-tools-check": {1, "tables/items.ts:4:26: error T2003: items.order: ref('ordr') names no table; did you mean orders?\n\tfix: Refer to orders\n" +
			"tables/orders.ts:7:17: error T2003: orders.buyer: ref('user') names no table\n" + newFinding + "3 errors\n"},
		// Only the staged line.
		"tent-tools-check-changed": {1, newFinding + "1 error\n"},
	}
	if len(hooks) != len(want) {
		t.Fatalf("%d hooks, want %d", len(hooks), len(want))
	}
	for _, h := range hooks {
		t.Run(h.ID, func(t *testing.T) {
			if h.Name == "" || h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames {
				t.Fatalf("hook %+v: want a name, language golang, pass_filenames false", h)
			}
			dir, git := gitRepo(t, ciProject)
			writeFiles(t, dir, map[string]string{"tables/orders.ts": ciBranch["tables/orders.ts"]})
			git("add", "tables/orders.ts")
			// An unstaged change with an error of its own, which the
			// commit does not hold.
			writeFiles(t, dir, map[string]string{"tables/items.ts": strings.Replace(ciProject["tables/items.ts"], "ref('ordr') },", "ref('ordr'), shipper: ref('shippers') },", 1)})
			staged := strings.Fields(git("diff", "--cached", "--name-only"))
			files := regexp.MustCompile(h.Files)
			matched := false
			for _, p := range staged {
				matched = matched || files.MatchString(p)
			}
			if !matched {
				t.Fatalf("files %q matches none of the staged %v: pre-commit would not run the hook", h.Files, staged)
			}
			patch := git("diff", "--binary", "--no-color", "--no-ext-diff", "--ignore-submodules")
			git("checkout", "--", ".")
			fields := strings.Fields(h.Entry)
			program := filepath.Join(pathDir, fields[0])
			if !isExecutable(program) {
				t.Fatalf("the entry runs %s, which go install of the repository does not make", fields[0])
			}
			cmd := exec.Command(program, append(fields[1:], h.Args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+pathDir+string(os.PathListSeparator)+os.Getenv("PATH"))
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			code := 0
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if w := want[h.ID]; code != w.exit || out.String() != w.stdout {
				t.Errorf("exit %d, want %d\n--- stdout\n%s--- want\n%s--- stderr\n%s", code, w.exit, out.String(), w.stdout, errOut.String())
			}
			// pre-commit puts the unstaged change back.
			patchFile := filepath.Join(t.TempDir(), "patch")
			writeFiles(t, filepath.Dir(patchFile), map[string]string{"patch": patch})
			git("apply", patchFile)
		})
	}
}

// TestActionInstallSteps runs the action's steps that install tent-tools,
// their scripts as the runner would, with the action's own source as
// github.action_path and no version asked: the cache key is the same for
// the same source, the build lands where the cache and the PATH step say,
// and the tent-tools it built checks a project.
func TestActionInstallSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tent-tools")
	}
	// The build takes a while on a fresh checkout; nothing else shares
	// its folders.
	t.Parallel()
	actionPath, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// The build keeps the machine's Go caches, so that it is quick.
	goEnv := []string{"HOME=" + home}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		goEnv = append(goEnv, v+"="+strings.TrimSpace(string(out)))
	}
	runStep := func(script string, env ...string) (outputs, path string) {
		t.Helper()
		dir := t.TempDir()
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir = t.TempDir()
		cmd.Env = append(append(append(os.Environ(), goEnv...), "GITHUB_OUTPUT="+filepath.Join(dir, "output"), "GITHUB_PATH="+filepath.Join(dir, "path")), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s\n--- script\n%s", err, out, script)
		}
		o, _ := os.ReadFile(filepath.Join(dir, "output"))
		p, _ := os.ReadFile(filepath.Join(dir, "path"))
		return string(o), string(p)
	}
	var versionScript, installScript, pathScript string
	for _, s := range readAction(t).Runs.Steps {
		run, _ := s["run"].(string)
		switch {
		case s["id"] == "version":
			versionScript = run
		case strings.Contains(run, "go install"):
			installScript = run
		case strings.Contains(run, "GITHUB_PATH"):
			pathScript = run
		}
	}
	if versionScript == "" || installScript == "" || pathScript == "" {
		t.Fatal("action.yml lacks the version, install or PATH step")
	}
	key, _ := runStep(versionScript, "VERSION=", "ACTION_PATH="+actionPath)
	if !regexp.MustCompile(`^key=src-[0-9a-f]{16}\n$`).MatchString(key) {
		t.Errorf("the version step's key: %q", key)
	}
	if again, _ := runStep(versionScript, "VERSION=", "ACTION_PATH="+actionPath); again != key {
		t.Errorf("the same source, another key: %q, then %q", key, again)
	}
	if asked, _ := runStep(versionScript, "VERSION=v1.2.0", "ACTION_PATH="+actionPath); asked != "key=v1.2.0\n" {
		t.Errorf("a version asked: key %q", asked)
	}
	runStep(installScript, "VERSION=", "ACTION_PATH="+actionPath)
	_, path := runStep(pathScript)
	built := filepath.Join(strings.TrimSpace(path), "tent-tools")
	if path != filepath.Join(home, ".cache/tent-tools/bin")+"\n" || !isExecutable(built) {
		t.Fatalf("the PATH step adds %q; the build is not there", path)
	}
	dir := writeCaseProject(t, "../../check/testdata/formats/project.txt")
	cmd := exec.Command(built, "check", "--format", "github")
	cmd.Dir = dir
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || strings.Count(string(out), "::error ") != 2 {
		t.Errorf("the tent-tools the action built: %v\n%s", err, out)
	}
}
