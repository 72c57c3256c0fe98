// Package chromiumtest helps the tests that take pictures in a real
// Chromium: it finds one (a test fails without it under CI=true, where
// .ci/setup.d/20-chromium.sh installs it, and is skipped elsewhere), and it
// finds the Chromium processes a test left running.
package chromiumtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tent-tools/tent-tools/internal/testneed"
)

// Need fails the test where find (shot.Find) finds no Chromium and CI is
// set, and skips it elsewhere.
func Need(t testing.TB, find func() (string, error)) {
	t.Helper()
	if _, err := find(); err != nil {
		testneed.Missing(t, "no Chromium for the pictures (CI needs one): %v", err)
	}
}

// Mark makes the browsers this process starts from now on keep their
// profiles under a folder of its own (through TMPDIR, where chromedp makes
// them), so Live can tell their processes from any other Chromium's.
// It answers the folder.
func Mark() (string, error) {
	dir, err := os.MkdirTemp("", "tent-shot-test")
	if err != nil {
		return "", err
	}
	return dir, os.Setenv("TMPDIR", dir)
}

// Live lists the processes still running (zombies, which the system reaps,
// left out) whose command line names the folder that Mark made.
func Live(dir string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmd, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !bytes.Contains(cmd, []byte(dir)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		// The state follows the command's closing parenthesis.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			continue
		}
		out = append(out, filepath.Base(p)+" "+strings.ReplaceAll(string(bytes.TrimRight(cmd, "\x00")), "\x00", " "))
	}
	return out
}
