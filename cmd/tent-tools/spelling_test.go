package main

import (
	"os"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/tools"
)

// TestSpellings: a command whose tool is spelled otherwise is reached by
// either spelling, on the command line and through call, and help and the
// README list each such pair.
func TestSpellings(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	help := tentTools(t, ".", "", "help")
	pairs := 0
	for _, tool := range tools.All() {
		name := commandName(tool.Name)
		if _, ok := commands[name]; !ok || name == tool.Name {
			continue
		}
		pairs++
		if !strings.Contains(help.stdout, "  "+name+strings.Repeat(" ", 12-len(name))+"  "+tool.Name+"\n") {
			t.Errorf("help lists no %s / %s:\n%s", name, tool.Name, help.stdout)
		}
		if row := "| `" + name + "` | `" + tool.Name + "` |"; !strings.Contains(string(readme), row) {
			t.Errorf("the README's table of spellings has no row %s", row)
		}
	}
	if pairs == 0 {
		t.Fatal("no command is spelled otherwise than its tool; want changed-by / changedBy at least")
	}
	dir := shop(t)
	cases := [][]string{
		{"changed-by", "orders.buyer"},
		{"changedBy", "orders.buyer"},
		{"call", "changedBy", `{"name": "orders.buyer"}`},
		{"call", "changed-by", `{"name": "orders.buyer"}`},
	}
	var first result
	for i, args := range cases {
		got := tentTools(t, dir, "", args...)
		if i == 0 {
			first = got
			if got.exit == 2 {
				t.Fatalf("%v: a usage error: %s", args, got.stderr)
			}
			continue
		}
		if got.exit != first.exit {
			t.Errorf("%v: exit %d, stderr %q; %v exits %d", args, got.exit, got.stderr, cases[0], first.exit)
		}
	}
}
