package main

import (
	"runtime/debug"
	"strings"
)

// version is the module version tent-tools was built as (v1.2.0 where
// `go install ...@v1.2.0` built it, a pseudo-version such as
// v0.0.0-20261201095512-5156f7d9a8b7 where a build in a clone stamped
// its commit), "" for a build that knows none. Reports (SARIF, JUnit)
// name it as the tool's version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return moduleVersion(info)
}

// moduleVersion is version's answer for info.
func moduleVersion(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return ""
}

// versionLine is what --version prints: the module version, then what the
// build stamped of its source (the commit, its time, whether the work tree
// had changes) and the Go release that built it, all from the binary's
// build info (runtime/debug.ReadBuildInfo), never from a constant that a
// release could forget to bump.
func versionLine(info *debug.BuildInfo) string {
	v := moduleVersion(info)
	if v == "" {
		v = "(devel)"
	}
	var about []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		about = append(about, "commit "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		about = append(about, t)
	}
	if settings["vcs.modified"] == "true" {
		about = append(about, "with uncommitted changes")
	}
	if info.GoVersion != "" {
		about = append(about, info.GoVersion)
	}
	line := "tent-tools " + v
	if len(about) > 0 {
		line += " (" + strings.Join(about, ", ") + ")"
	}
	return line + "\n"
}

// printVersion is --version's answer for this binary.
func printVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "tent-tools (devel): the binary has no build info\n"
	}
	return versionLine(info)
}
