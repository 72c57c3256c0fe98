package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/golden"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// bin is the tent-tools binary the tests run, so that they run the command
// exactly as a person or a script does: the test binary itself, which acts
// as tent-tools where the environment says so (asCLI), so no second build
// is needed.
var bin string

// asCLI is the environment variable that makes the test binary act as
// tent-tools; TestMain sets it for the processes the tests start.
const asCLI = "TENT_TOOLS_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		main() // exits
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "find the test binary:", err)
		os.Exit(1)
	}
	bin = exe
	os.Setenv(asCLI, "1")
	os.Exit(m.Run())
}

// shop copies the sample project into a new folder.
func shop(t *testing.T) string {
	t.Helper()
	return sample.Copy(t, "../../testdata/projects/shop")
}

// result is what one run of the binary printed.
type result struct {
	exit           int
	stdout, stderr string
}

// tentTools runs the binary in dir with args and stdin.
func tentTools(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{exit: code, stdout: out.String(), stderr: errOut.String()}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		files map[string]string // written into the project first
		show  string            // a file whose content after the run goes into the golden
	}{
		{name: "read", args: []string{"read", "tables/orders.ts", "--from", "3", "--to", "5"}},
		{name: "flags-before", args: []string{"--json", "-C", "tables", "read", "users.ts", "--to", "2"}},
		{name: "flags-after", args: []string{"read", "--to=2", "project.ts", "--json"}},
		{name: "search", args: []string{"search", "ctx.mail", "--in", "functions"}},
		{name: "search-dash", args: []string{"search", "--limit", "1", "--", "-1"}},
		{name: "list", args: []string{"list", "tables", "--glob", "o*.ts"}},
		{name: "edit", args: []string{"edit", "tables/orders.ts", "--find", "total: money(),", "--with", "total: money({ was: 'sum' }),"}, show: "tables/orders.ts"},
		{name: "edit-empty-with", args: []string{"edit", "project.ts", "--find", "\n  removed: ['coupons'],", "--with", ""}, show: "project.ts"},
		{name: "edit-twice", args: []string{"edit", "tables/orders.ts", "--find", "optional: true", "--with", "x"}},
		{name: "edit-engine-refused", args: []string{"edit", "engine.ts", "--find", "shop@", "--with", "store@"}},
		{name: "edit-engine-policy", args: []string{"--policy", "agent.json", "edit", "engine.ts", "--find", "shop@", "--with", "store@"},
			files: map[string]string{"agent.json": `{"allow": ["**"], "also": ["engine"]}`}},
		{name: "write-stdin", args: []string{"write", "lib/tax.ts"}, stdin: "export const rate = 0.2\n", show: "lib/tax.ts"},
		{name: "write-empty-stdin", args: []string{"write", "lib/tax.ts"}},
		{name: "write-text", args: []string{"write", "lib/tax.ts", "--text", "export const rate = 0.25"}, show: "lib/tax.ts"},
		{name: "docs", args: []string{"docs", "read"}},
		{name: "call", args: []string{"call", "read", `{"path": "project.ts", "to": 2}`}},
		{name: "call-stdin", args: []string{"call", "read", "-", "--json"}, stdin: `{"path": "project.ts", "from": 8}`},
		{name: "error-json", args: []string{"--json", "read", "nothing.ts"}},
		{name: "error-outside", args: []string{"read", "../x"}},
		{name: "help-read", args: []string{"help", "read"}},
		{name: "help-remove", args: []string{"help", "remove"}},
		{name: "help-check", args: []string{"help", "check"}}, // changes nothing but with --fix
		{name: "help-shell", args: []string{"help", "shell"}}, // its flags before -- only
		{name: "help-run", args: []string{"help", "run"}},
		{name: "help-flag", args: []string{"edit", "-h"}},
		{name: "help-alias", args: []string{"help", "changedBy"}},
		{name: "help-studio", args: []string{"help", "studio"}},
		{name: "usage-studio-public", args: []string{"studio", "--listen", "0.0.0.0:7200"}},
		{name: "usage-studio-not-project", args: []string{"-C", "lib", "studio"}},
		{name: "usage-no-command", args: []string{"--json"}},
		{name: "usage-unknown-command", args: []string{"frobnicate"}},
		{name: "usage-bad-flag", args: []string{"read", "--line", "3", "project.ts"}},
		{name: "usage-flag-no-value", args: []string{"changed-by", "users", "--path"}},
		{name: "usage-flag-bad-value", args: []string{"history", "--newest", "many"}},
		{name: "usage-no-path", args: []string{"read"}},
		{name: "usage-no-with", args: []string{"edit", "project.ts", "--find", "shop"}},
		{name: "usage-bad-policy", args: []string{"--policy", "agent.json", "read", "project.ts"},
			files: map[string]string{"agent.json": `{"also": ["everything"]}`}},
		{name: "usage-no-folder", args: []string{"-C", "nothing", "read", "project.ts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := shop(t)
			for name, text := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := tentTools(t, dir, tt.stdin, tt.args...)
			var b strings.Builder
			fmt.Fprintf(&b, "$ tent-tools %s\n-- exit %d --\n-- stdout --\n%s-- stderr --\n%s", quoteArgs(tt.args), r.exit, r.stdout, r.stderr)
			if tt.show != "" {
				content, err := os.ReadFile(filepath.Join(dir, tt.show))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "-- %s --\n%s", tt.show, content)
			}
			golden.Check(t, "testdata/"+tt.name+".golden", []byte(b.String()))
		})
	}
}

// quoteArgs writes arguments as a shell would need them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \n'\"{}*$(),") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// TestHelpListsEveryCommand checks the overall usage without a golden, as
// other packages add commands.
func TestHelpListsEveryCommand(t *testing.T) {
	r := tentTools(t, ".", "", "help")
	if r.exit != 0 || r.stderr != "" {
		t.Fatalf("help: exit %d, stderr %q", r.exit, r.stderr)
	}
	for _, c := range sortedCommands() {
		if !strings.Contains(r.stdout, "\n  "+c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
	}
	if r2 := tentTools(t, ".", "", "--help"); r2.stdout != r.stdout {
		t.Error("--help and help differ")
	}
	// An unknown tool lists the tools (which other packages add to).
	r = tentTools(t, ".", "", "call", "grep", "{}")
	if r.exit != 1 || !strings.HasPrefix(r.stderr, `T9101: unknown tool "grep"; the tools are `) {
		t.Errorf("call grep: exit %d, stderr %q", r.exit, r.stderr)
	}
}

// TestSameAsGoAPI runs the tool calls of the Go API's golden tests through
// `tent-tools call`: the data answer (--json) and the text answer must be
// the very ones in the tools package's golden files.
func TestSameAsGoAPI(t *testing.T) {
	cases := golden.Calls(t, "../../tools/testdata/calls.json")
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			g, err := os.ReadFile("../../tools/testdata/calls/" + c.Name + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			text, data := sections(string(g))
			failed := strings.HasPrefix(data, "{\n  \"error\"")
			wantExit := 0
			if failed {
				wantExit = 1
			}
			r := tentTools(t, shop(t), "", "call", c.Tool, string(c.Input), "--json")
			if r.exit != wantExit || r.stdout != data {
				t.Errorf("--json: exit %d, stdout\n%s\nwant exit %d, stdout\n%s", r.exit, r.stdout, wantExit, data)
			}
			r = tentTools(t, shop(t), "", "call", c.Tool, string(c.Input))
			got := r.stdout
			if failed {
				got = r.stderr
			}
			if got != text {
				t.Errorf("text: got\n%s\nwant\n%s", got, text)
			}
		})
	}
}

// sections splits a golden file of the tools package into its text and
// json sections.
func sections(g string) (text, data string) {
	_, rest, _ := strings.Cut(g, "-- text --\n")
	text, rest, _ = strings.Cut(rest, "-- json --\n")
	data, _, _ = strings.Cut(rest, "\n-- ")
	if !strings.HasSuffix(data, "\n") {
		data += "\n"
	}
	return text, data
}
