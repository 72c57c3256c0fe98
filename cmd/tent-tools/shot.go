package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tent-tools/tent-tools/tools"
)

func init() {
	register(command{
		name:    "shot",
		args:    "ROUTE",
		summary: "A picture (PNG) of a screen by its route, -o FILE, --as a user, --size phone|tablet|desktop|WxH; --html for the page instead",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			as := fs.String("as", "", "look as the users row with this id, email or name, or as `system`; nobody where left out")
			size := fs.String("size", "", "phone (390x844), tablet (820x1180), desktop (1280x800, the default) or `WIDTHxHEIGHT`")
			out := fs.String("o", "", "write the picture (or with --html the page) to `FILE`")
			html := fs.Bool("html", false, "answer the page's HTML, which needs no browser")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 1 {
					return tools.Answer{}, usagef("shot", "shot takes one ROUTE, such as /orders/o1")
				}
				if *out == "" && !*html && !e.json {
					return tools.Answer{}, usagef("shot", "shot writes the picture to a file: give -o FILE (or --json for it in base64, --html for the page)")
				}
				ans, err := e.call("shot", tools.ShotInput{Path: args[0], As: *as, Size: *size, HTML: *html})
				if err != nil || *out == "" {
					return ans, err
				}
				var data []byte
				switch d := ans.Data.(type) {
				case tools.ShotPicture:
					data = d.PNG
				case tools.ShotPage:
					data = []byte(d.HTML)
				default:
					return tools.Answer{}, fmt.Errorf("shot: an answer of %T", ans.Data)
				}
				if err := os.WriteFile(*out, data, 0o644); err != nil {
					return tools.Answer{}, fmt.Errorf("shot: write %s: %w", *out, err)
				}
				ans.Text = fmt.Sprintf("wrote %s: %s", *out, ans.Text)
				if *html {
					ans.Text = fmt.Sprintf("wrote %s: the page of %s (%d bytes)\n", *out, args[0], len(data))
				}
				return ans, nil
			}
		},
	})
}
