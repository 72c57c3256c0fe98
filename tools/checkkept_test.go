package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/internal/sample"
)

// keptFiles is a project with findings of each severity, one with a fix.
var keptFiles = map[string]string{
	"project.ts":          "import { project } from 'tent'\n\nexport default project({ name: 'mini' })\n",
	"tables/users.ts":     "import { table, text, choice } from 'tent'\n\nexport const users = table({\n  columns: {\n    name: text(),\n    role: choice(['buyer', 'admin']),\n  },\n})\n",
	"tables/orders.ts":    "import { table, ref } from 'tent'\n\nexport const orders = table({\n  columns: { buyer: ref('user') },\n})\n",
	"functions/notify.ts": "import { fn } from 'tent'\n\nexport const notify = fn({\n  run: async (ctx) => ctx.mail.send({ to: 'ops@example.com', subject: 'Hi', text: 'x' }),\n})\n",
	"testdata/users.json": "[\n  { \"id\": \"u1\", \"name\": \"Zoë\", \"role\": \"owner\" }\n]\n",
}

// checkAsNew checks the project in dir as a new process does, and answers
// the check's answer (its text and its data) and whether the index was
// read for it (false: the kept findings answered).
func checkAsNew(t *testing.T, dir string) (answer string, indexed bool) {
	t.Helper()
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ans, err := call(w, "check", "{}")
	if err != nil {
		t.Fatal(err)
	}
	data, err := JSON(ans.Data)
	if err != nil {
		t.Fatal(err)
	}
	return ans.Text + "\n" + string(data), w.state.HasIndex()
}

// freshCheck is the answer of a check of the project in dir made afresh:
// its files copied to a new folder, without .tent.
func freshCheck(t *testing.T, dir string) string {
	t.Helper()
	fresh := t.TempDir()
	files := map[string]string{}
	for p, src := range sample.Load(t, dir) {
		if !strings.HasPrefix(p, ".tent/") {
			files[p] = string(src)
		}
	}
	sample.Write(t, fresh, files)
	got, indexed := checkAsNew(t, fresh)
	if !indexed {
		t.Fatal("a fresh folder answered kept findings")
	}
	return got
}

// TestCheckKept holds the kept findings (.tent/findings) to a fresh
// check's answer, byte for byte, through a project's life: files written
// just now (racy stamps, kept by their texts), nothing changed, one file
// edited, one touched, a kept file cut, damaged, emptied or foreign (read
// past and written anew), and a test database made meanwhile.
func TestCheckKept(t *testing.T) {
	dir := t.TempDir()
	sample.Write(t, dir, keptFiles)
	kept := filepath.Join(dir, ".tent", "findings")
	want := freshCheck(t, dir)
	if !strings.Contains(want, "T2") {
		t.Fatalf("the project has no findings to keep:\n%s", want)
	}
	step := func(name string, wantIndexed bool) {
		t.Helper()
		got, indexed := checkAsNew(t, dir)
		if got != want {
			t.Errorf("%s: the answer differs from a fresh check's:\n%s\nwant\n%s", name, got, want)
		}
		if indexed != wantIndexed {
			t.Errorf("%s: index read %v, want %v", name, indexed, wantIndexed)
		}
		data, err := os.ReadFile(kept)
		if err != nil {
			t.Fatalf("%s: no kept findings: %v", name, err)
		}
		if _, err := check.DecodeKept(data); err != nil {
			t.Errorf("%s: the kept findings do not decode: %v", name, err)
		}
	}

	step("first check", true)
	k, _ := check.DecodeKept(mustReadFile(t, kept))
	for _, f := range k.Files {
		if !f.HasText && !strings.HasPrefix(f.Path, ".tent/") {
			t.Errorf("%s kept without its text's hash", f.Path)
		}
	}
	step("nothing changed, at once", false)
	time.Sleep(2100 * time.Millisecond) // out of the racy window
	step("nothing changed, later", false)

	// An edit between two checks: the next one checks.
	p := filepath.Join(dir, "tables", "orders.ts")
	src := mustReadFile(t, p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "ref('user')", "ref('users')", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := want
	want = freshCheck(t, dir)
	if want == before {
		t.Fatal("the edit changed no finding")
	}
	step("one file edited", true)
	step("after the edit", false)
	time.Sleep(2100 * time.Millisecond)
	step("after the edit, later", false)

	// A file touched, and one written back as it was: read and hashed
	// again, the same text: the kept findings answer.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	step("one file touched", false)
	q := filepath.Join(dir, "functions", "notify.ts")
	tmp := q + ".tmp"
	if err := os.WriteFile(tmp, mustReadFile(t, q), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, q); err != nil {
		t.Fatal(err)
	}
	step("one file written back as it was", false)
	// Written back changed and then as it was before the next check.
	if err := os.WriteFile(q, append(mustReadFile(t, q), "// more\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := freshCheck(t, dir)
	got, indexed := checkAsNew(t, dir)
	if got != edited || !indexed {
		t.Errorf("a file's text changed: index read %v, the answer a fresh one's %v", indexed, got == edited)
	}
	if err := os.WriteFile(q, []byte(keptFiles["functions/notify.ts"]), 0o644); err != nil {
		t.Fatal(err)
	}
	step("a file changed and written back", true)

	good := mustReadFile(t, kept)
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	for name, bad := range map[string][]byte{
		"cut": good[:len(good)/2], "damaged": flipped, "empty": {}, "foreign": []byte("not kept findings"),
	} {
		if err := os.WriteFile(kept, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		step("kept findings "+name, true)
		step("after kept findings "+name, false)
	}

	// A test database made meanwhile: what it holds is checked (T2011).
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(w, "reset", "{}"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := os.Stat(filepath.Join(dir, ".tent", "test.db")); err != nil {
		t.Fatalf("reset made no test database: %v", err)
	}
	got, indexed = checkAsNew(t, dir)
	if !indexed {
		t.Error("a new test database: the kept findings answered")
	}
	if got != want {
		t.Errorf("with a test database: the answer differs:\n%s\nwant\n%s", got, want)
	}
	time.Sleep(2100 * time.Millisecond)
	checkAsNew(t, dir)
	step("a test database left alone", false)
}

func mustReadFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCheckKeptLink holds that a file read through a link keeps no
// findings: the walk stamps regular files, and pointing the link at
// another file changes no stamp, so a kept answer could be stale.
func TestCheckKeptLink(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for p, src := range keptFiles {
		files[p] = src
	}
	delete(files, "tables/orders.ts")
	files["alt/good.ts"] = strings.Replace(keptFiles["tables/orders.ts"], "ref('user')", "ref('users')", 1)
	files["alt/bad.ts"] = keptFiles["tables/orders.ts"]
	sample.Write(t, dir, files)
	link := filepath.Join(dir, "tables", "orders.ts")
	if err := os.Symlink("../alt/good.ts", link); err != nil {
		t.Fatal(err)
	}
	first, _ := checkAsNew(t, dir)
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../alt/bad.ts", link); err != nil {
		t.Fatal(err)
	}
	got, indexed := checkAsNew(t, dir)
	if !indexed || got == first {
		t.Errorf("a link pointed elsewhere: index read %v, the answer as before %v", indexed, got == first)
	}
}
