package durable

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestSyncFS(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("text"); err != nil {
		t.Fatal(err)
	}
	err = SyncFS(f)
	switch {
	case WholeFS() && err != nil:
		t.Errorf("SyncFS: %v", err)
	case !WholeFS() && !errors.Is(err, ErrUnsupported):
		t.Errorf("SyncFS where unsupported: %v; want ErrUnsupported", err)
	}
	f.Close()
	if err := SyncFS(f); err == nil {
		t.Error("SyncFS of a closed file: no error")
	}
}

func TestSyncEach(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a", "b", "c"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var opened []string
	open := func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }
	if err := SyncEach(names, func(name string) (*os.File, error) {
		f, err := open(name)
		if err == nil {
			mu.Lock()
			opened = append(opened, name)
			mu.Unlock()
		}
		return f, err
	}); err != nil {
		t.Fatal(err)
	}
	if len(opened) != len(names) {
		t.Errorf("synced %v; want %v", opened, names)
	}
	if err := SyncEach([]string{"a", "missing"}, open); err == nil {
		t.Error("a missing file: no error")
	}
}
