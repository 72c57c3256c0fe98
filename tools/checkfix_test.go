package tools

import (
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/check"
)

const clinicDir = "../testdata/projects/clinic"

// TestCheckFix: after a rename, check with fix applies every certain fix
// as one point of the kind fix, checks again and says nothing is left;
// dryRun answers the diff and writes nothing; a policy that refuses one
// of the files writes none of them.
func TestCheckFix(t *testing.T) {
	dir := copyProject(t, clinicDir)
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := call(w, "rename", `{"name":"patients.fullName","to":"displayName"}`); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, dir, "lib/format.ts")

	wantCode(t, func() error { _, err := call(w, "check", `{"dryRun":true}`); return err }(), "T9102")

	ans, err := call(w, "check", `{"fix":true,"dryRun":true}`)
	if err != nil {
		t.Fatal(err)
	}
	dry := ans.Data.(check.Answer)
	if !dry.DryRun || len(dry.Fixed) != 4 || len(dry.Findings) != 4 || !strings.Contains(dry.Diff, "+  return `${patient.displayName}") {
		t.Fatalf("dry run:\n%s", ans.Text)
	}
	if readFile(t, dir, "lib/format.ts") != before {
		t.Fatal("the dry run wrote a file")
	}

	refusing := w.With(Options{Policy: &Policy{Allow: []string{"functions/**", "screens/**"}}})
	if _, err := call(refusing, "check", `{"fix":true}`); err == nil {
		t.Fatal("a fix of lib/format.ts passed a policy that allows only functions and screens")
	}
	if readFile(t, dir, "functions/visits.ts") != readFile(t, clinicDir, "functions/visits.ts") {
		t.Fatal("a refused fix wrote functions/visits.ts")
	}

	ans, err = call(w, "check", `{"fix":true}`)
	if err != nil {
		t.Fatal(err)
	}
	done := ans.Data.(check.Answer)
	if done.DryRun || len(done.Fixed) != 4 || len(done.Findings) != 0 || done.Point == nil {
		t.Fatalf("fix:\n%s", ans.Text)
	}
	if !strings.Contains(ans.Text, "left: no findings") || !strings.Contains(ans.Text, "lib/format.ts:5:21 T2506: Use column displayName") {
		t.Errorf("fix text:\n%s", ans.Text)
	}
	if got := readFile(t, dir, "screens/visits.tsx"); !strings.Contains(got, "columns={['displayName', 'born', 'ward']}") || !strings.Contains(got, "order: 'displayName'") {
		t.Errorf("screens/visits.tsx after the fix:\n%s", got)
	}
	hist, err := call(w, "history", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hist.Text, "check: fix T2506") {
		t.Errorf("history has no point of the kind fix:\n%s", hist.Text)
	}

	ans, err = call(w, "check", `{"fix":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if again := ans.Data.(check.Answer); len(again.Fixed) != 0 || again.Point != nil || !strings.Contains(ans.Text, "nothing to fix") {
		t.Errorf("fix again:\n%s", ans.Text)
	}
}
