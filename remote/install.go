package remote

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

// platform reads `uname -s` and `uname -m` as Go names them.
func platform(osName, arch string) (goos, goarch string) {
	goos = strings.ToLower(osName)
	switch strings.ToLower(arch) {
	case "x86_64", "amd64":
		goarch = "amd64"
	case "aarch64", "arm64":
		goarch = "arm64"
	case "i386", "i486", "i586", "i686":
		goarch = "386"
	default:
		goarch = strings.ToLower(arch)
		if strings.HasPrefix(goarch, "armv") {
			goarch = "arm"
		}
	}
	return goos, goarch
}

// install copies this binary to the far side's cache through the
// transport, where that machine is of the same OS and architecture, and
// checks it there by its hash before it is put in place. Another platform
// is T9162, which says how to install tent-tools there.
func install(ctx context.Context, h *Hosts, host string, b binaryInfo, need *errNeedsBinary) error {
	goos, goarch := platform(need.os, need.arch)
	if goos != runtime.GOOS || goarch != runtime.GOARCH {
		version := b.Release
		how := "go install github.com/tent-tools/tent-tools/cmd/tent-tools@" + version
		if version == "" {
			how = "build tent-tools for " + goos + "/" + goarch + " from this checkout (GOOS=" + goos + " GOARCH=" + goarch + " go build ./cmd/tent-tools)"
		}
		return diag.Errorf(diag.T9162, "%s is %s/%s and this tent-tools is %s/%s, so it cannot copy itself there: %s and put it at ~/.cache/tent-tools/%s/tent-tools there, or use a tent-tools built for %s/%s here",
			host, goos, goarch, runtime.GOOS, runtime.GOARCH, how, b.Build, goos, goarch).
			With("host", host).With("platform", goos+"/"+goarch)
	}
	f, err := os.Open(b.Path)
	if err != nil {
		return fmt.Errorf("remote: read this binary: %w", err)
	}
	defer f.Close()
	start := time.Now()
	h.logf("tent-tools: copying tent-tools (%d MB) to %s:~/.cache/tent-tools/%s/\n", (b.Size+1<<19)>>20, host, b.Build)
	// The copy is checked by its hash before it is put in place; the hash
	// is kept beside it, for the start script to hold against.
	script := fmt.Sprintf(`set -e; d="${TENT_TOOLS_CACHE:-$HOME/.cache/tent-tools}/%s"; mkdir -p "$d"; t="$d/tent-tools.$$"; `+
		`trap 'rm -f "$t"' EXIT; cat > "$t"; chmod 755 "$t"; `+
		`h=$( (sha256sum "$t" 2>/dev/null || shasum -a 256 "$t") | cut -d' ' -f1); `+
		`if [ "$h" != %s ]; then echo "the copy's hash is $h, not %s" >&2; exit 3; fi; `+
		`echo %s > "$d/hash"; mv -f "$t" "$d/tent-tools"; trap - EXIT`, b.Build, b.Hash, b.Hash, b.Hash)
	argv := append(h.Transport(host), script)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = f
	stderr := &tail{max: 4096}
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Run(); err != nil {
		return diag.Errorf(diag.T9162, "tent-tools cannot copy itself to %s: %s (%v); install it there by hand at ~/.cache/tent-tools/%s/tent-tools", host, stderr.String(), err, b.Build).
			With("host", host)
	}
	h.logf("tent-tools: copied to %s in %.1f s\n", host, time.Since(start).Seconds())
	return nil
}
