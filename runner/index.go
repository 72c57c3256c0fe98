package runner

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/runner/testdb"
	"github.com/tent-tools/tent-tools/schema"
)

// appOf reads what runs need from an index snapshot. Where two definitions
// share a name (T2001) the first by path wins, as in ix.Definition.
func appOf(ix *definitions.Index) *app {
	a := &app{
		callables: map[string]*callable{},
		tables:    map[string]*tableDef{},
		kinds:     map[string]string{},
		users:     "users",
		model:     &testdb.Model{TestData: map[string][]map[string]any{}},
		private:   map[string]bool{},
	}
	for _, d := range ix.Definitions() {
		if d.Kind == definitions.KindProject || d.Kind == definitions.KindEngine {
			continue
		}
		if _, taken := a.kinds[d.Name]; taken {
			continue
		}
		a.kinds[d.Name] = string(d.Kind)
		switch {
		case d.Table != nil:
			a.tables[d.Name] = &tableDef{Schema: d.Table.Schema, Path: d.Path, Rules: mayRules(d.Table.May)}
			a.model.Tables = append(a.model.Tables, d.Table.Schema)
			for _, c := range d.Table.Schema.Columns {
				if c.Private {
					a.private[c.Name] = true
				}
			}
		case d.Fn != nil:
			a.callables[d.Name] = &callable{Name: d.Name, Kind: kindFn, Path: d.Path, Input: inputOf(a, d.Fn.Input), Sends: sendsOf(ix, d.Name)}
		case d.Flow != nil:
			c := &callable{Name: d.Name, Kind: kindFlow, Path: d.Path, Input: inputOf(a, d.Flow.Input), Sends: sendsOf(ix, d.Name)}
			for _, s := range d.Flow.Steps {
				c.Steps = append(c.Steps, s.Name)
			}
			a.callables[d.Name] = c
		}
	}
	if p := ix.Project(); p != nil && p.Project != nil {
		if p.Project.Users.Name != "" {
			a.users = p.Project.Users.Name
		}
		for _, r := range p.Project.Removed {
			a.model.Removed = append(a.model.Removed, r.Name)
		}
	}
	if e := ix.Engine(); e != nil && e.Engine != nil {
		a.httpAllow = e.Engine.HTTPAllow
		a.mailFrom = e.Engine.MailFrom
	}
	for _, f := range ix.Files() {
		if f.TestData == nil || path.Dir(f.Path) != "testdata" || a.tables[f.TestData.Table] == nil {
			continue
		}
		rows := make([]map[string]any, 0, len(f.TestData.Rows))
		for _, r := range f.TestData.Rows {
			row := map[string]any{}
			for _, k := range r.Keys {
				row[k.Name.Name] = k.Value
			}
			rows = append(rows, row)
		}
		a.model.TestData[f.TestData.Table] = rows
	}
	a.fingerprint = modelFingerprint(a.model)
	a.model.Fingerprint = a.fingerprint
	return a
}

// mayRules names the rules of a table's `may`: the keys of its object
// literal; both where it is written some other way (its code then says).
func mayRules(may *definitions.Prop) map[string]bool {
	if may == nil || may.Value == nil {
		return nil
	}
	if may.Value.Kind != definitions.ValObject {
		return map[string]bool{"read": true, "write": true}
	}
	rules := map[string]bool{}
	for _, p := range may.Value.Props {
		if p.Key == "" {
			return map[string]bool{"read": true, "write": true}
		}
		rules[p.Key] = true
	}
	return rules
}

// inputOf is the schema of a function's or a flow's input fields; private
// fields join the names the log hides.
func inputOf(a *app, cols []*definitions.Column) []*schema.Column {
	out := make([]*schema.Column, 0, len(cols))
	for _, c := range cols {
		out = append(out, c.Schema)
		if c.Schema.Private {
			a.private[c.Schema.Name] = true
		}
	}
	return out
}

// sendsOf is every way a definition sends, declared or inferred.
func sendsOf(ix *definitions.Index, name string) []string {
	declared, inferred := ix.Sends(name)
	all := append(slices.Clone(declared), inferred...)
	slices.Sort(all)
	return slices.Compact(all)
}

// indexSource reads project files from an index snapshot, and those it does
// not hold (plain .js or .json files that code imports) from the project
// folder, never outside it; with no snapshot (a run from the app snapshot,
// appcache.go), every file from the folder.
type indexSource struct {
	ix   *definitions.Index
	root string
}

// snapshot is the index snapshot s reads, nil for none.
func (s indexSource) snapshot() any {
	if s.ix == nil {
		return nil
	}
	return s.ix
}

// holds reports whether the index snapshot holds the file p.
func (s indexSource) holds(p string) bool { return s.ix != nil && s.ix.File(p) != nil }

// ReadFile answers a project file's text.
func (s indexSource) ReadFile(p string) ([]byte, bool) {
	if s.ix != nil {
		if f := s.ix.File(p); f != nil {
			return f.Src, f.Src != nil
		}
	}
	if s.root == "" || strings.HasPrefix(p, ".tent/") {
		return nil, false
	}
	r, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, false
	}
	defer r.Close()
	b, err := r.ReadFile(p)
	if err != nil {
		return nil, false
	}
	return b, true
}
