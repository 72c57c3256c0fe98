package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/sample"
)

// TestShotHidesTransformedPrivate: through the binary, shot --html of a
// screen whose view reverses and spaces private values (runner's
// testdata/leak.tsx) shows none of them: the view never held them.
func TestShotHidesTransformedPrivate(t *testing.T) {
	dir := sample.Copy(t, "../../testdata/projects/screens")
	src, err := os.ReadFile("../../runner/testdata/leak.tsx")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "screens", "leak.tsx"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := tentTools(t, dir, "", "shot", "--html", "/leak/n1", "--as", "u1")
	if r.exit != 0 || !strings.HasPrefix(r.stdout, "<!doctype html>") {
		t.Fatalf("shot --html: exit %d\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, secret := range []string{"12 Analytical Row, London", "ada-keeps-this-quiet"} {
		rev := []rune(secret)
		slices.Reverse(rev)
		for _, form := range []string{secret, string(rev), strings.Join(strings.Split(secret, ""), " ")} {
			if strings.Contains(r.stdout, form) {
				t.Errorf("the page holds %q:\n%s", form, r.stdout)
			}
		}
	}
}
