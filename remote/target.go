package remote

import (
	"os"
	"runtime"
	"strings"
)

// Target is a project on another machine: the host as the hosts file (or
// ssh) names it, user@ included, and the path there.
type Target struct {
	Host string
	Path string
}

// String is the target as written: HOST:PATH.
func (t Target) String() string {
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + t.Path
}

// ParseTarget reads arg as scp does: HOST:PATH (user@host:path,
// [v6addr]:path) is a project on HOST where the part before the first ":"
// is not empty and holds no "/", and arg is no path that exists here; a
// path that starts with ./ or / (such as ./box:x) is always local, and so
// is a drive letter on Windows. ok is false for a local path.
func ParseTarget(arg string) (t Target, ok bool) {
	if strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, "../") {
		return Target{}, false
	}
	var host, path string
	if strings.HasPrefix(arg, "[") {
		end := strings.Index(arg, "]:")
		if end < 0 {
			return Target{}, false
		}
		host, path = arg[1:end], arg[end+2:]
		if host == "" || strings.Contains(host, "/") {
			return Target{}, false
		}
	} else {
		var found bool
		host, path, found = strings.Cut(arg, ":")
		if !found || host == "" || strings.Contains(host, "/") {
			return Target{}, false
		}
		if runtime.GOOS == "windows" && len(host) == 1 {
			return Target{}, false // C:\work is a drive
		}
	}
	if _, err := os.Lstat(arg); err == nil {
		return Target{}, false // a folder named box:x that exists here
	}
	return Target{Host: host, Path: path}, true
}
