package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/projectfiles"
)

// FuzzResolve holds the path resolver against any path, on a tree full of
// links (hostileTree: links out, absolute links, a link to .tent, a loop,
// a link to engine.ts): whatever it accepts names a place inside the
// project, once every link on the disk is followed, that is not in .tent/
// or .git/; for a write, not a framework file and not engine.ts (the
// policy does not name engine). It never panics; a refusal is T9105.
//
//	go test ./tools -run '^$' -fuzz FuzzResolve -fuzztime 20s
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"lib/util.ts", "../x", "a/../../x", "inside/util.ts", "inside/../engine.ts", "eng", "state/x",
		".TENT/x", "lib/deep/esc/secret.txt", "out/secret.txt", "absin", "loop", "lib/again",
		"lib/./../tent.d.ts", "Tent.D.ts", "lib/up", "x/../../proj/engine.ts", "/etc/passwd", "lib\\x", "a\x00b",
	} {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	proj, _ := hostileTree(f)
	w, err := Open(proj, Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { w.Close() })
	root, err := filepath.EvalSymlinks(proj)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string, forWrite bool) {
		rel, err := w.Resolve(p, forWrite)
		if err != nil {
			if !isCodeT9105(err) {
				t.Fatalf("%q refused without T9105: %v", p, err)
			}
			return
		}
		if rel != "." && (strings.HasPrefix(rel, "/") || rel == ".." || strings.HasPrefix(rel, "../")) {
			t.Fatalf("%q resolved to %q, outside", p, rel)
		}
		// Follow every link of the answer on the disk: it must stay inside.
		full := filepath.Join(root, filepath.FromSlash(rel))
		real, err := filepath.EvalSymlinks(full)
		if err != nil {
			// Not there (yet): its folder, as far as it exists, must be inside.
			real = full
			for dir := full; dir != root && dir != "/"; dir = filepath.Dir(dir) {
				if r, err := filepath.EvalSymlinks(dir); err == nil {
					real = r
					break
				}
			}
		}
		inside, err := filepath.Rel(root, real)
		if err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(os.PathSeparator)) {
			t.Fatalf("%q resolved to %q, which is %s on the disk: outside the project", p, rel, real)
		}
		first := strings.SplitN(filepath.ToSlash(inside), "/", 2)[0]
		if strings.EqualFold(first, ".tent") || strings.EqualFold(first, ".git") {
			t.Fatalf("%q resolved to %q, in %s", p, rel, first)
		}
		if forWrite && (frameworkName(inside) || frameworkName(rel)) {
			t.Fatalf("%q resolved for a write to %q (%s on the disk), a framework file", p, rel, inside)
		}
	})
}

func isCodeT9105(err error) bool { return isCode(err, "T9105") }

// frameworkName reports whether the project path p names engine.ts or a
// framework file, which a write reaches only where the policy lets it.
func frameworkName(p string) bool {
	return strings.EqualFold(p, "engine.ts") || projectfiles.FrameworkFile(p)
}
