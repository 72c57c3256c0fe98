package main

import (
	"encoding/json"
	"os"
	"os/user"
	"path/filepath"
)

// defaultCaller is who acts where --caller is not given: the workspace's
// owner, where a workspaces handle made the folder (its
// .tent/workspace.json says), else the person at the terminal (the
// system's user name), else "owner".
func defaultCaller(dir string) string {
	if data, err := os.ReadFile(filepath.Join(dir, ".tent", "workspace.json")); err == nil {
		var info struct {
			Owner string `json:"owner"`
		}
		if json.Unmarshal(data, &info) == nil && info.Owner != "" {
			return info.Owner
		}
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "owner"
}
