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
}

// Version is the module version this binary was built as, "" for a
// build from a checkout.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return ""
}

// readBinary reads this binary's path, size and hash.
func readBinary() (binaryInfo, error) {
	exe, err := os.Executable()
	if err != nil {
		return binaryInfo{}, fmt.Errorf("remote: find this binary: %w", err)
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
	b := binaryInfo{Path: exe, Hash: hex.EncodeToString(sum.Sum(nil)), Size: n}
	b.Build = Version()
	if b.Build == "" || strings.ContainsAny(b.Build, "/\\ '\"") {
		b.Build = b.Hash[:16]
	}
	return b, nil
}
