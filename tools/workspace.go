// Package tools is the engine's one door to a project folder: the Workspace
// with its single path resolver, the registry of tools, and the file tools
// (read, search, list, edit, write, docs, map). Every face (CLI, MCP, LSP, a
// host's Go code) calls tools through Call, so they all act by the same rules.
//
// Architecture invariant: every file a tool reads or writes is opened through
// the Workspace's os.Root after Resolve has accepted its path; no tool opens
// a path of the disk by itself.
package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Workspace is one project folder that tools act on. Its methods are safe
// for concurrent use; tools that write run one after another (Call holds
// the workspace's write lock for them).
type Workspace struct {
	root string   // the folder's absolute path, links resolved
	fsys *os.Root // every open goes through it: it cannot leave the folder
	opts Options

	writeMu sync.Mutex // held by Call while a tool that writes runs
	index   indexCache
}

// Open opens the project folder dir as a workspace. The folder must exist.
func Open(dir string, opts Options) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open workspace %s: no such folder", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open workspace %s: not a folder", dir)
	}
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return &Workspace{root: real, fsys: fsys, opts: opts}, nil
}

// Close releases the workspace's folder handle.
func (w *Workspace) Close() error { return w.fsys.Close() }

// Root returns the project folder's absolute path, with links resolved.
func (w *Workspace) Root() string { return w.root }

// Options returns the options the workspace was opened with.
func (w *Workspace) Options() Options { return w.opts }
