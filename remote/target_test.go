package remote

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/diag"
)

func TestParseTarget(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("here:x", 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg  string
		want Target
		ok   bool
	}{
		{"box:~/apps/shop", Target{"box", "~/apps/shop"}, true},
		{"dev@box:apps/shop", Target{"dev@box", "apps/shop"}, true},
		{"127.0.0.1:/srv/shop", Target{"127.0.0.1", "/srv/shop"}, true},
		{"[::1]:/srv/shop", Target{"::1", "/srv/shop"}, true},
		{"box:", Target{"box", ""}, true},
		{"here:x", Target{}, false},     // a folder of that name exists here
		{"./box:x", Target{}, false},    // ./ is always local
		{"/tmp/box:x", Target{}, false}, // so is /
		{"apps/box:x", Target{}, false}, // a / before the first :
		{":x", Target{}, false},
		{"shop", Target{}, false},
		{".", Target{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseTarget(tt.arg)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseTarget(%q) = %+v, %v; want %+v, %v", tt.arg, got, ok, tt.want, tt.ok)
		}
	}
	if s := (Target{"::1", "/srv"}).String(); s != "[::1]:/srv" {
		t.Errorf("String: %s", s)
	}
}

func TestHostsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"bench": ["koh", "exec", "bench", "--sh"]}`)
	hosts, err := ReadHostsFile(good, true)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHosts(HostsConfig{Transports: hosts})
	if got := h.Transport("bench"); !slices.Equal(got, []string{"koh", "exec", "bench", "--sh"}) {
		t.Errorf("bench: %q", got)
	}
	if got := h.Transport("dev@box"); !slices.Equal(got, []string{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=15", "dev@box"}) {
		t.Errorf("an unknown host: %q", got)
	}
	if hosts, err := ReadHostsFile(filepath.Join(dir, "none.json"), false); err != nil || hosts != nil {
		t.Errorf("a default file that is not there: %v, %v", hosts, err)
	}
	for _, bad := range []string{
		write("list.json", `["box"]`),
		write("empty.json", `{"box": []}`),
		write("text.json", `{"box": "ssh box"}`),
		filepath.Join(dir, "none.json"), // named, so it must be there
	} {
		_, err := ReadHostsFile(bad, true)
		if te, ok := err.(*diag.ToolError); !ok || te.Code != diag.T9163 {
			t.Errorf("%s: %v; want T9163", filepath.Base(bad), err)
		}
	}
}

// TestTwoCallsPerHost: a third call on a host waits for one of the two.
func TestTwoCallsPerHost(t *testing.T) {
	h := NewHosts(HostsConfig{})
	ctx := context.Background()
	var releases []func()
	for range callsPerHost {
		release, err := h.acquire(ctx, "box")
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	other, err := h.acquire(ctx, "bench") // another host has its own
	if err != nil {
		t.Fatal(err)
	}
	other()
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := h.acquire(short, "box"); err == nil {
		t.Fatal("a third call on box ran beside two")
	}
	got := make(chan error, 1)
	go func() {
		release, err := h.acquire(ctx, "box")
		if err == nil {
			release()
		}
		got <- err
	}()
	releases[0]()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	releases[1]()
}

// TestOtherPlatform: a host of another OS or architecture gets no copy
// of this binary: T9162 says what it is and how to install tent-tools
// there.
func TestOtherPlatform(t *testing.T) {
	if goos, goarch := platform("Linux", "x86_64"); goos != "linux" || goarch != "amd64" {
		t.Errorf("Linux x86_64 is %s/%s", goos, goarch)
	}
	if goos, goarch := platform("Darwin", "arm64"); goos != "darwin" || goarch != "arm64" {
		t.Errorf("Darwin arm64 is %s/%s", goos, goarch)
	}
	other := &errNeedsBinary{os: "Plan9", arch: "mips"}
	err := install(context.Background(), NewHosts(HostsConfig{}), "box", binaryInfo{Build: "0123456789abcdef", Hash: "x"}, other)
	te, ok := err.(*diag.ToolError)
	if !ok || te.Code != diag.T9162 || !strings.Contains(te.Message, "plan9/mips") || !strings.Contains(te.Message, "GOOS=plan9 GOARCH=mips go build ./cmd/tent-tools") {
		t.Fatalf("%v; want T9162 that says how to build for plan9/mips", err)
	}
}
