package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// binaryInfo is this tent-tools binary as a far side must have it.
type binaryInfo struct {
	Path string
	// Build names it in the far side's cache: the release version, or
	// for a build from a checkout, its hash's first 16 digits.
	Build string
	Hash  string // SHA-256, hex
	Size  int64
	// Release is its module version where it is this process's own
	// binary and a release ("" otherwise).
	Release string
}

// Version is the module version this binary was built as, "" for a
// build from a checkout.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return ""
}

// readBinary reads the path, size and hash of the binary exe ("": this
// process's own).
func readBinary(exe string) (binaryInfo, error) {
	release := ""
	if exe == "" {
		release = Version()
		self, err := os.Executable()
		if err != nil {
			return binaryInfo{}, fmt.Errorf("remote: find this binary: %w", err)
		}
		exe = self
	}
	f, err := os.Open(exe)
	if err != nil {
		return binaryInfo{}, fmt.Errorf("remote: read this binary: %w", err)
	}
	defer f.Close()
	sum := sha256.New()
	n, err := io.Copy(sum, f)
	if err != nil {
		return binaryInfo{}, fmt.Errorf("remote: hash this binary: %w", err)
	}
	b := binaryInfo{Path: exe, Hash: hex.EncodeToString(sum.Sum(nil)), Size: n, Release: release}
	b.Build = release
	if b.Build == "" || strings.ContainsAny(b.Build, "/\\ '\"$`") {
		b.Build = b.Hash[:16]
	}
	return b, nil
}
