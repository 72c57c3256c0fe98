package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
	"github.com/tent-tools/tent-tools/internal/sshtest"
)

// TestRemote runs commands through the binary as a person does, on a
// project reached as 127.0.0.1:PATH through a real sshd (with --hosts)
// and on its local twin: the same output, exit status and tree after each.
// The binary copies itself to the far side's cache on the first call,
// checked there by its hash, and not again.
func TestRemote(t *testing.T) {
	hosts, cache := sshHosts(t)
	twin, far := shop(t), shop(t)
	steps := [][]string{
		{"map"},
		{"check", "--json"},
		{"check", "--format", "github"},
		{"edit", "tables/orders.ts", "--find", "    total: money(),\n", "--with", "    total: money(),\n    tip: money({ optional: true }),\n", "--json"},
		{"rename", "users", "customers"},
		{"check", "--format", "gitlab"}, // the findings the rename left, with their fingerprints
		{"search", "customers", "--json"},
		{"undo"},
		{"read", "tables/nope.ts"},
		// A dotted NAME that names a file there is a path, as it is here.
		{"write", "notes.md", "--text", "hello\n"},
		{"remove", "notes.md"},
		{"remove", "engine.ts"},
	}
	for i, step := range steps {
		args := append([]string{"--caller", "ann"}, step...)
		want := tentTools(t, twin, "", args...)
		got := tentTools(t, t.TempDir(), "", append([]string{"--hosts", hosts, "-C", "127.0.0.1:" + far}, args...)...)
		if i == 0 {
			if !strings.Contains(got.stderr, "copying tent-tools") {
				t.Errorf("the first call copied nothing; stderr:\n%s", got.stderr)
			}
			got.stderr = want.stderr // the copy's lines are the remote run's own
		} else if strings.Contains(got.stderr, "copying") {
			t.Errorf("%v copied the binary again:\n%s", step, got.stderr)
		}
		if got != want {
			t.Errorf("%v over ssh: exit %d\n%s%s\nlocally: exit %d\n%s%s", step, got.exit, got.stdout, got.stderr, want.exit, want.stdout, want.stderr)
		}
		if w, g := snapshotFiles(t, twin), snapshotFiles(t, far); w != g {
			t.Errorf("%v: the trees differ:\nlocal:\n%s\nremote:\n%s", step, w, g)
		}
	}
	// The host mode's handle holds the project as a remote workspace.
	wsDir := t.TempDir()
	made := tentTools(t, t.TempDir(), "", "mcp", "--hosts", hosts, "--workspaces", wsDir, "--new", "ann", "--remote", "127.0.0.1:"+far)
	id := strings.TrimSpace(made.stdout)
	info, err := os.ReadFile(filepath.Join(wsDir, id, ".tent", "workspace.json"))
	if made.exit != 0 || err != nil || !strings.Contains(string(info), `"remote":"127.0.0.1:`+far+`"`) {
		t.Errorf("mcp --new --remote: exit %d, %s%s; workspace.json %s (%v)", made.exit, made.stdout, made.stderr, info, err)
	}

	builds, _ := filepath.Glob(filepath.Join(cache, "*", "tent-tools"))
	if len(builds) != 1 {
		t.Fatalf("the far cache holds %v; want the one copy", builds)
	}
	hash, err := os.ReadFile(filepath.Join(filepath.Dir(builds[0]), "hash"))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(hash)), filepath.Base(filepath.Dir(builds[0]))) {
		t.Errorf("the copy's hash %q (%v) is not its build's", hash, err)
	}
}

// sshHosts starts a real sshd on the loopback and writes the hosts file
// that reaches it as 127.0.0.1, whose far side is this test binary acting
// as tent-tools, its cache in the folder answered.
func sshHosts(t *testing.T) (hosts, cache string) {
	t.Helper()
	srv, err := sshtest.Start(sshtest.Need(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	cache = filepath.Join(t.TempDir(), "cache")
	data, err := json.Marshal(map[string][]string{
		// The far side is this test binary, acting as tent-tools there too.
		"127.0.0.1": srv.Transport(map[string]string{"TENT_TOOLS_CACHE": cache, asCLI: "1"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	hosts = filepath.Join(t.TempDir(), "hosts.json")
	if err := os.WriteFile(hosts, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return hosts, cache
}

// TestRemoteChangedSince: check --changed-since on 127.0.0.1:PATH asks
// git there (the far project's repository, which this side's folder is
// not in), and prints what it prints on the local twin; an unknown ref
// there is T9135 naming the host.
func TestRemoteChangedSince(t *testing.T) {
	hosts, _ := sshHosts(t)
	twin, twinGit := gitRepo(t, ciProject)
	far, farGit := gitRepo(t, ciProject)
	for _, git := range []func(...string) string{twinGit, farGit} {
		git("checkout", "-q", "-b", "feature")
	}
	writeFiles(t, twin, ciBranch)
	writeFiles(t, far, ciBranch)
	here := t.TempDir() // no repository: git here has nothing to say
	for _, args := range [][]string{
		{"check", "--changed-since", "main"},
		{"check", "--changed-since", "main", "--format", "github"},
		{"check", "--changed-since", "HEAD", "--json"},
	} {
		want := tentTools(t, twin, "", args...)
		got := tentTools(t, here, "", append([]string{"--hosts", hosts, "-C", "127.0.0.1:" + far}, args...)...)
		got.stderr = strings.Join(slices.DeleteFunc(strings.SplitAfter(got.stderr, "\n"), func(l string) bool {
			return strings.HasPrefix(l, "tent-tools: copying tent-tools") || strings.HasPrefix(l, "tent-tools: copied to")
		}), "")
		if got != want {
			t.Errorf("%v over ssh: exit %d\n%s%s\nlocally: exit %d\n%s%s", args, got.exit, got.stdout, got.stderr, want.exit, want.stdout, want.stderr)
		}
	}
	r := tentTools(t, here, "", "--hosts", hosts, "-C", "127.0.0.1:"+far, "check", "--changed-since", "mian")
	if want := "T9135: --changed-since mian: git on 127.0.0.1 knows no such commit"; r.exit != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("an unknown ref there: exit %d, stderr %q; want 1 and %q", r.exit, r.stderr, want)
	}
}

// TestRemoteShot: shot on 127.0.0.1:PATH writes the picture (or the page)
// here, from the far side's answer, as it does for a local project.
func TestRemoteShot(t *testing.T) {
	hosts, _ := sshHosts(t)
	twin, far := shop(t), shop(t)
	out := t.TempDir()
	for _, args := range [][]string{
		{"shot", "/products/p1", "--html"},
		{"shot", "/products/p1", "--size", "phone"},
	} {
		here, there := filepath.Join(out, "here"), filepath.Join(out, "there")
		want := tentTools(t, twin, "", append(args, "-o", here)...)
		got := tentTools(t, t.TempDir(), "", append([]string{"--hosts", hosts, "-C", "127.0.0.1:" + far}, append(args, "-o", there)...)...)
		if want.exit != 0 || got.exit != 0 {
			t.Fatalf("%v: exit %d here (%s), %d over ssh (%s)", args, want.exit, want.stderr, got.exit, got.stderr)
		}
		if w, g := strings.ReplaceAll(want.stdout, here, "FILE"), strings.ReplaceAll(got.stdout, there, "FILE"); w != g {
			t.Errorf("%v over ssh said %q; locally %q", args, g, w)
		}
		a, errA := os.ReadFile(here)
		b, errB := os.ReadFile(there)
		if errA != nil || errB != nil || len(b) == 0 {
			t.Fatalf("%v: %v, %v", args, errA, errB)
		}
		if args[2] == "--html" && string(a) != string(b) {
			t.Errorf("%v: the page over ssh differs from the local one", args)
		}
		if args[2] != "--html" && !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%v: the file over ssh is no PNG (%d bytes)", args, len(b))
		}
	}
}

// snapshotFiles is the project files of dir, each with its text, in order.
func snapshotFiles(t *testing.T, dir string) string {
	t.Helper()
	files := sample.Load(t, dir)
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b.WriteString("-- " + name + " --\n")
		b.Write(files[name])
	}
	return b.String()
}
