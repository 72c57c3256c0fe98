// Package sample gives tests the sample projects of testdata/projects/ as
// git tracks them: a copy never carries what running the tools on the
// sample left behind (.tent/, logs, anything .gitignore leaves out), so a
// person who tried the README's commands on the sample itself still gets
// the same test results.
package sample

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	ignore "github.com/sabhiram/go-gitignore"
)

// Files lists the files of the project folder dir that belong to it, as
// slash-separated paths relative to dir, sorted: what git tracks or would
// track there (tracked, and new files .gitignore does not leave out) and
// that stands on the disk. Where git or the repository is absent, it walks
// dir instead, leaving out .git/, .tent/ and what dir's own .gitignore
// names.
func Files(dir string) ([]string, error) {
	files, err := gitFiles(dir)
	if err != nil {
		files, err = walkFiles(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("sample %s: %w", dir, err)
	}
	sort.Strings(files)
	return files, nil
}

// gitFiles asks git for the files of dir it tracks or would track.
func gitFiles(dir string) ([]string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, err
	}
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var files []string
	seen := map[string]bool{}
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		// A tracked file deleted from the work tree is listed too.
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		files = append(files, name)
	}
	if len(files) == 0 {
		return nil, errors.New("git lists no files (not in a repository?)")
	}
	return files, nil
}

// walkFiles lists the regular files under dir but .git/, .tent/ and those
// dir's .gitignore names.
func walkFiles(dir string) ([]string, error) {
	var ig *ignore.GitIgnore
	if data, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err == nil {
		ig = ignore.CompileIgnoreLines(strings.Split(string(data), "\n")...)
	}
	var files []string
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == ".tent" || (ig != nil && ig.MatchesPath(p+"/")) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (ig == nil || !ig.MatchesPath(p)) {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// Copy copies the files of the project folder src (Files) into a new
// temporary folder of t and returns its path.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := CopyTo(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// CopyTo copies the files of the project folder src (Files) into dst.
func CopyTo(src, dst string) error {
	files, err := Files(src)
	if err != nil {
		return err
	}
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil {
			return fmt.Errorf("sample: %w", err)
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("sample: %w", err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return fmt.Errorf("sample: %w", err)
		}
	}
	return nil
}

// Load reads the files of the project folder dir (Files) into a map from
// path to text.
func Load(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string][]byte, len(files))
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatalf("sample: %v", err)
		}
		out[name] = data
	}
	return out
}

// Write writes files (slash-separated paths relative to dir, and their
// texts) into the folder dir, making the folders they need.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// NoTemps fails t where a write left a temporary file (.tmp) in the
// project folder dir, or a change left a text in the journal's folder
// (.tent/tmp) other than a spare (a regular file named spare.<16 hex
// digits>, which the journal keeps to write into again).
func NoTemps(t testing.TB, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
	entries, _ := os.ReadDir(filepath.Join(dir, ".tent", "tmp"))
	for _, e := range entries {
		if !spare.MatchString(e.Name()) || !e.Type().IsRegular() {
			t.Errorf("journal text left: .tent/tmp/%s", e.Name())
		}
	}
}

// spare matches the name of a spare in .tent/tmp.
var spare = regexp.MustCompile(`^spare\.[0-9a-f]{16}$`)
