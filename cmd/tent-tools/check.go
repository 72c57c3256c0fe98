package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/check"
	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/tools"
)

// findingErrors is the failure of a check that found errors: the findings
// are printed already, and the summary goes to stderr with exit status 1.
type findingErrors struct{ summary string }

func (f *findingErrors) Error() string { return "check: " + f.summary }

func init() {
	register(command{
		name:    "check",
		summary: "Print the findings of the check, errors first, --format text, json, sarif, github, gitlab, rdjson or junit; exit 1 where any is an error",
		setup: func(fs *flag.FlagSet) func(*env, []string) (tools.Answer, error) {
			format := fs.String("format", "text", "print the findings as `FORMAT`: "+strings.Join(check.Formats, ", "))
			changedSince := fs.String("changed-since", "", "report only the findings on lines changed since the git `REF` (from where the branch left it)")
			baseline := fs.String("baseline", "", "report only the findings that the baseline `FILE` does not know")
			writeBaseline := fs.String("write-baseline", "", "write every finding into the baseline `FILE`, and report none")
			pathPrefix := fs.String("path-prefix", "", "print each path under the folder `DIR` (the project's folder in the repository), for CI systems that place findings from the repository's root")
			failOn := fs.String("fail-on", string(check.FailOnError), "exit 1 where a reported finding is at `LEVEL` or worse: error, warning or never")
			fix := fs.Bool("fix", false, "apply every certain fix as one change (one point), check again, and say what was fixed and what is left")
			dryRun := fs.Bool("dry-run", false, "with --fix, print the diff the fixes would make and write nothing")
			return func(e *env, args []string) (tools.Answer, error) {
				if len(args) != 0 {
					return tools.Answer{}, usagef("check", "check takes no arguments")
				}
				if *dryRun && !*fix {
					return tools.Answer{}, usagef("check", "--dry-run shows what --fix would do: give --fix with it")
				}
				if *fix {
					if *format != "text" || *baseline != "" || *changedSince != "" || *writeBaseline != "" || *pathPrefix != "" {
						return tools.Answer{}, usagef("check", "--fix prints its own answer (or --json): it takes neither --format, --baseline, --changed-since, --write-baseline nor --path-prefix")
					}
					return checkFix(e, *dryRun, *failOn)
				}
				if !slices.Contains(check.Formats, *format) {
					return tools.Answer{}, usagef("check", "unknown --format %q: use %s", *format, strings.Join(check.Formats, ", "))
				}
				level := check.FailLevel(*failOn)
				if !slices.Contains(check.FailLevels, level) {
					return tools.Answer{}, usagef("check", "unknown --fail-on %q: use error, warning or never", *failOn)
				}
				if *writeBaseline != "" && (*baseline != "" || *changedSince != "") {
					return tools.Answer{}, usagef("check", "--write-baseline records every finding: it takes neither --baseline nor --changed-since")
				}
				prefix, err := cleanPrefix(*pathPrefix)
				if err != nil {
					return tools.Answer{}, err
				}
				// A bad baseline or ref fails before the project is read.
				narrow, err := newNarrowing(e, *baseline, *changedSince)
				if err != nil {
					return tools.Answer{}, err
				}
				if e.json {
					*format = "json"
				}
				// The command reads the project once and exits: it need
				// not collect garbage as a server does (checkGC).
				checkGC()
				// Nothing but the check reads the index: a build leaves
				// out what only rename and references read.
				e.checksOnly = true
				ans, err := e.call("check", tools.CheckInput{})
				if err != nil {
					return tools.Answer{}, err
				}
				found, err := answerData[check.Answer](ans)
				if err != nil {
					return tools.Answer{}, fmt.Errorf("check: %w", err)
				}
				all := check.Report{Findings: found.Findings, Version: version(), Source: e.sources()}
				if *writeBaseline != "" {
					return writeBaselineFile(*writeBaseline, all)
				}
				report, left := narrow.apply(all)
				report = underPrefix(report, prefix)
				var out bytes.Buffer
				if err := check.WriteReport(&out, *format, report); err != nil {
					return tools.Answer{}, err
				}
				// The check prints its own forms, --json included, so the
				// answer is text either way.
				e.json = false
				if !level.Fails(report.Findings) {
					if left != "" {
						fmt.Fprintf(e.stderr, "tent-tools: check: %s (%s)\n", check.Summary(report.Findings), left)
					}
					return tools.Answer{Text: out.String()}, nil
				}
				e.stdout.Write(out.Bytes())
				summary := check.Summary(report.Findings)
				if left != "" {
					summary += " (" + left + ")"
				}
				return tools.Answer{}, &findingErrors{summary: summary}
			}
		},
	})
}

// narrowing is what --baseline and --changed-since keep of a report: the
// findings the baseline does not know, on the lines changed since the ref.
type narrowing struct {
	baselineFile string
	baseline     *check.Baseline
	ref          string
	changed      *check.ChangedLines
}

// newNarrowing reads the baseline file and asks git for the changed lines,
// where the flags name them.
func newNarrowing(e *env, baselineFile, ref string) (*narrowing, error) {
	n := &narrowing{baselineFile: baselineFile, ref: ref}
	if baselineFile != "" {
		data, err := os.ReadFile(baselineFile)
		if err != nil {
			return nil, diag.Errorf(diag.T9136, "read the baseline: %v", err)
		}
		b, err := check.ReadBaseline(data)
		if err != nil {
			var te *diag.ToolError
			if errors.As(err, &te) {
				return nil, diag.Errorf(te.Code, "%s: %s", baselineFile, te.Message)
			}
			return nil, fmt.Errorf("%s: %w", baselineFile, err)
		}
		n.baseline = &b
	}
	if ref != "" {
		changed, err := changedSince(e, ref)
		if err != nil {
			return nil, err
		}
		n.changed = changed
	}
	return n, nil
}

// apply keeps the findings of a report that are new; left says what it
// left out, "" where nothing was.
func (n *narrowing) apply(r check.Report) (check.Report, string) {
	var left []string
	if n.baseline != nil {
		before := len(r.Findings)
		if r = n.baseline.New(r); len(r.Findings) < before {
			left = append(left, fmt.Sprintf("%d known in %s", before-len(r.Findings), n.baselineFile))
		}
	}
	if n.changed != nil {
		before := len(r.Findings)
		if r = n.changed.Changed(r); len(r.Findings) < before {
			left = append(left, fmt.Sprintf("%d on lines not changed since %s", before-len(r.Findings), n.ref))
		}
	}
	return r, strings.Join(left, ", ")
}

// cleanPrefix makes --path-prefix a folder path ending in "/" ("" for the
// repository's root); an absolute path or one that leaves the repository
// is bad usage.
func cleanPrefix(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	clean := path.Clean(filepath.ToSlash(p))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", usagef("check", "--path-prefix %q: a folder of the repository, relative to its root", p)
	}
	if clean == "." {
		return "", nil
	}
	return clean + "/", nil
}

// underPrefix puts each path of a report (its findings' and their fixes')
// under a folder; the files are still read by their project paths, and
// the fingerprints, which hold no path, stay the same.
func underPrefix(r check.Report, prefix string) check.Report {
	if prefix == "" {
		return r
	}
	r.Fingerprints = check.Fingerprints(r)
	fs := make([]diag.Finding, len(r.Findings))
	for i, f := range r.Findings {
		f.Path = prefix + f.Path
		if f.Fix != nil {
			fix := *f.Fix
			fix.Path = prefix + fix.Path
			f.Fix = &fix
		}
		fs[i] = f
	}
	r.Findings = fs
	if read := r.Source; read != nil {
		r.Source = func(p string) []byte { return read(strings.TrimPrefix(p, prefix)) }
	}
	return r
}

// writeBaselineFile writes the baseline of every finding of a report into
// a file (through a temporary file and a rename, so that a baseline is
// never left half written), and answers what it wrote; a file that cannot
// be written is T9136.
func writeBaselineFile(path string, r check.Report) (tools.Answer, error) {
	data, err := check.NewBaseline(r).Marshal()
	if err != nil {
		return tools.Answer{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".baseline-*")
	if err != nil {
		return tools.Answer{}, diag.Errorf(diag.T9136, "write the baseline %s: %v", path, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return tools.Answer{}, diag.Errorf(diag.T9136, "write the baseline %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return tools.Answer{}, diag.Errorf(diag.T9136, "write the baseline %s: %v", path, err)
	}
	return tools.Answer{Text: fmt.Sprintf("wrote the baseline %s: %s", path, check.Summary(r.Findings))}, nil
}

// projectFiles reads the project's files for the report's fingerprints and
// columns, through os.Root so that a path can only name a file inside the
// project; a file that cannot be read is nil.
func projectFiles(dir string) func(string) []byte {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	return func(path string) []byte {
		data, err := root.ReadFile(filepath.FromSlash(path))
		if err != nil {
			return nil
		}
		return data
	}
}

// checkFix runs check with fix: the answer says what was fixed and what
// is left; it fails (exit 1) where what is left fails --fail-on (with
// --dry-run, what the check finds now).
func checkFix(e *env, dryRun bool, failOn string) (tools.Answer, error) {
	level := check.FailLevel(failOn)
	if !slices.Contains(check.FailLevels, level) {
		return tools.Answer{}, usagef("check", "unknown --fail-on %q: use error, warning or never", failOn)
	}
	ans, err := e.call("check", tools.CheckInput{Fix: true, DryRun: dryRun})
	if err != nil {
		return tools.Answer{}, err
	}
	found, err := answerData[check.Answer](ans)
	if err != nil {
		return tools.Answer{}, fmt.Errorf("check: %w", err)
	}
	if dryRun || !level.Fails(found.Findings) {
		return ans, nil
	}
	if e.json {
		out, err := tools.JSON(ans.Data)
		if err != nil {
			return tools.Answer{}, err
		}
		e.stdout.Write(out)
	} else {
		io.WriteString(e.stdout, ans.Text)
	}
	return tools.Answer{}, &findingErrors{summary: check.Summary(found.Findings) + " left after the fixes"}
}
