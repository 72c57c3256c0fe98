package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "shot",
		args:    "ROUTE",
		summary: "A picture (PNG) of a screen by its route, -o FILE, --as a user, --size phone|tablet|desktop|WxH; --html for the page instead",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			as := fs.String("as", "", "look as `USER`, the users row with this id, email or name, or as system; nobody where left out")
			size := fs.String("size", "", "phone (390x844), tablet (820x1180), desktop (1280x800, the default) or `WIDTHxHEIGHT`")
			out := fs.String("o", "", "write the picture (or with --html the page) to `FILE` (default: a file of the route in the user's cache folder, tent-tools/shots/, outside the project)")
			html := fs.Bool("html", false, "answer the page's HTML, which needs no browser")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("shot", "shot takes one ROUTE, such as /orders/o1")
				}
				file := *out
				if file == "" && !*html && !e.json {
					// Outside the project, so that the picture is no change
					// that history records as made outside the tools.
					var err error
					if file, err = shotFile(e.dir, args[0], *size, *as); err != nil {
						return tools.Answer{}, err
					}
				}
				ans, err := e.call("shot", tools.ShotInput{Path: args[0], As: *as, Size: *size, HTML: *html})
				if err != nil || file == "" {
					return ans, err
				}
				if inside(e.dir, file) {
					fmt.Fprintf(e.stderr, "shot: %s is in the project: the next tool records it as a change made outside the tools (write pictures elsewhere, or leave -o out)\n", file)
				}
				// The data is the tool's, or its JSON from a project on
				// another machine (answerData reads either).
				var data []byte
				if *html {
					page, err := answerData[tools.ShotPage](ans)
					if err != nil {
						return tools.Answer{}, fmt.Errorf("shot: %w", err)
					}
					data = []byte(page.HTML)
				} else {
					pic, err := answerData[tools.ShotPicture](ans)
					if err != nil {
						return tools.Answer{}, fmt.Errorf("shot: %w", err)
					}
					data = pic.PNG
				}
				if err := os.WriteFile(file, data, 0o644); err != nil {
					return tools.Answer{}, fmt.Errorf("shot: write %s: %w", file, err)
				}
				ans.Text = fmt.Sprintf("wrote %s: %s", file, ans.Text)
				if *html {
					ans.Text = fmt.Sprintf("wrote %s: the page of %s (%d bytes)\n", file, args[0], len(data))
				}
				return ans, nil
			}
		},
	})
}

// shotFile is where shot writes a picture without -o: the user's cache
// folder (XDG_CACHE_HOME, ~/.cache, or the system's own), tent-tools/shots/
// and the project's folder name, a file named by the route, the size and
// who looked (/orders/o2 --size phone as chen: orders-o2-phone-chen.png).
// Outside the project, it is no change of it.
func shotFile(project, route, size, as string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("shot: no folder to write the picture to (%v): give -o FILE", err)
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return "", fmt.Errorf("shot: %w", err)
	}
	name := strings.Trim(route, "/")
	if name == "" {
		name = "index"
	}
	for _, part := range []string{size, as} {
		if part != "" {
			name += "-" + part
		}
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, name)
	dir := filepath.Join(cache, "tent-tools", "shots", filepath.Base(abs))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("shot: %w", err)
	}
	return filepath.Join(dir, name+".png"), nil
}

// inside reports whether file lies in the project folder.
func inside(project, file string) bool {
	p, err1 := filepath.Abs(project)
	f, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(p, f)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
