// Package gitexcludes reads the ignore rules git keeps outside the work
// tree's .gitignore files: the repository's .git/info/exclude and the
// user's global excludes file (core.excludesFile, by default
// $XDG_CONFIG_HOME/git/ignore, or ~/.config/git/ignore), as git reads them,
// so that search and list leave out what git would not track. It compiles
// them with the gitignore matcher the walks use (sabhiram/go-gitignore).
// It imports nothing of the project's.
package gitexcludes

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// Rules are the excludes that apply to one project folder: the patterns of
// info/exclude and of the global file, matched against paths from the
// repository's root (prefix, then the project path).
type Rules struct {
	prefix string // the project folder's path below the repository's root, "" or "app/"
	sets   []*ignore.GitIgnore
}

// Load reads the excludes for the project folder dir (absolute), with env
// for the environment (os.Getenv). Outside a git repository none apply, as
// git applies none there. A file that cannot be read adds nothing.
func Load(dir string, env func(string) string) *Rules {
	r := &Rules{}
	root, gitDir := findRepo(dir)
	if gitDir == "" {
		return r
	}
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
		r.prefix = filepath.ToSlash(rel) + "/"
	}
	common := commonDir(gitDir)
	r.add(filepath.Join(common, "info", "exclude"))
	// The global file: core.excludesFile of the user's configs and the
	// repository's (later files win, as git reads them), else git's
	// default.
	var configs []string
	if x := env("XDG_CONFIG_HOME"); x != "" {
		configs = append(configs, filepath.Join(x, "git", "config"))
	} else if home := env("HOME"); home != "" {
		configs = append(configs, filepath.Join(home, ".config", "git", "config"))
	}
	if home := env("HOME"); home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	configs = append(configs, filepath.Join(common, "config"))
	global := defaultGlobal(env)
	for _, c := range configs {
		if f, ok := excludesFileOf(c, env); ok {
			global = f
		}
	}
	if global != "" {
		r.add(global)
	}
	return r
}

// Excluded reports whether the project path rel (slash-separated; a folder
// where isDir) is named by an exclude rule.
func (r *Rules) Excluded(rel string, isDir bool) bool {
	if r == nil || len(r.sets) == 0 {
		return false
	}
	p := r.prefix + rel
	if isDir {
		p += "/"
	}
	for _, s := range r.sets {
		if s.MatchesPath(p) {
			return true
		}
	}
	return false
}

// add compiles the rules file at path, where it can be read.
func (r *Rules) add(path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		return
	}
	r.sets = append(r.sets, ignore.CompileIgnoreLines(strings.Split(string(src), "\n")...))
}

// findRepo finds the repository that holds dir: its work tree's root and
// its git folder (.git, or where a .git file's "gitdir:" points, as in a
// linked worktree or a submodule), or "" where there is none.
func findRepo(dir string) (root, gitDir string) {
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		if info, err := os.Stat(p); err == nil {
			if info.IsDir() {
				return d, p
			}
			if src, err := os.ReadFile(p); err == nil {
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(src)), "gitdir:"); ok {
					g = strings.TrimSpace(g)
					if !filepath.IsAbs(g) {
						g = filepath.Join(d, g)
					}
					return d, g
				}
			}
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// commonDir is the folder that holds a git folder's info/ and config: a
// linked worktree's "commondir" names it; otherwise the git folder itself.
func commonDir(gitDir string) string {
	src, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(src))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return c
}

// defaultGlobal is git's global excludes file where no config names one.
func defaultGlobal(env func(string) string) string {
	if x := env("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if home := env("HOME"); home != "" {
		return filepath.Join(home, ".config", "git", "ignore")
	}
	return ""
}

// excludesFileOf reads core.excludesFile from a git config file (its last
// setting in a [core] section; names and the key in any case, as git
// reads them), with a leading ~/ taken as the home folder.
func excludesFileOf(config string, env func(string) string) (string, bool) {
	f, err := os.Open(config)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var value string
	found, inCore := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section := strings.TrimSpace(strings.Trim(line, "[]"))
			inCore = strings.EqualFold(section, "core")
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if !inCore || !ok || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		if rest, ok := strings.CutPrefix(v, "~/"); ok {
			v = filepath.Join(env("HOME"), rest)
		}
		value, found = v, true
	}
	return value, found && value != ""
}
