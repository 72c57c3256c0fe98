package definitions

import (
	"os"
	"strconv"
	"sync"
)

// BuildStamp names the build of tent-tools that is running, for what it
// keeps in .tent/ beside the index cache (kept findings, the runner's app
// snapshot): the index layout (CacheVersion) and the size and modification
// time of the program's file, so that a new build reads the project again.
// It answers "" where the program's file cannot be stamped; then nothing
// should be kept.
var BuildStamp = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return strconv.Itoa(CacheVersion) + "/" +
		strconv.FormatInt(info.Size(), 10) + "/" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
})
