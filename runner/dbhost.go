package runner

import (
	"github.com/dop251/goja"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/runner/testdb"
)

// dbPrimitives are the host side of ctx.db: SQL over the run's
// transaction, with the checks of the test database. May rules are the
// prelude's part.
func (s *session) dbPrimitives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("select", func(call goja.FunctionCall) goja.Value {
		q := testdb.Query{Match: s.row(str(call, 1), "where"), Order: str(call, 2)}
		lim := call.Argument(3).Export()
		switch n := lim.(type) {
		case int64:
			q.Limit = int(n)
		case float64:
			if n != float64(int(n)) {
				s.throw("", "limit %v: want a whole number", n)
			}
			q.Limit = int(n)
		default:
			s.throw("", "limit wants a number")
		}
		rows, err := s.tx.Select(str(call, 0), q)
		if err != nil {
			s.throwErr(err)
		}
		if s.onRows != nil {
			s.onRows(str(call, 0), rows)
		}
		return s.jsonText(rows)
	})
	set("get", func(call goja.FunctionCall) goja.Value {
		row, err := s.tx.Get(str(call, 0), str(call, 1))
		if err != nil {
			s.throwErr(err)
		}
		if row == nil {
			return goja.Null()
		}
		if s.onRows != nil {
			s.onRows(str(call, 0), []testdb.Row{row})
		}
		return s.jsonText(row)
	})
	set("prepareInsert", func(call goja.FunctionCall) goja.Value {
		row, err := s.tx.PrepareInsert(str(call, 0), s.row(str(call, 1), "insert"))
		if err != nil {
			s.throwErr(err)
		}
		if s.onRows != nil {
			s.onRows(str(call, 0), []testdb.Row{row})
		}
		return s.jsonText(row)
	})
	set("insert", func(call goja.FunctionCall) goja.Value {
		if _, err := s.tx.Insert(str(call, 0), s.row(str(call, 1), "insert")); err != nil {
			s.throwErr(err)
		}
		return goja.Undefined()
	})
	set("prepareUpdate", func(call goja.FunctionCall) goja.Value {
		old, updated, err := s.tx.PrepareUpdate(str(call, 0), str(call, 1), s.row(str(call, 2), "update"))
		if err != nil {
			s.throwErr(err)
		}
		if s.onRows != nil {
			s.onRows(str(call, 0), []testdb.Row{old, updated})
		}
		return s.jsonText([]any{old, updated})
	})
	set("put", func(call goja.FunctionCall) goja.Value {
		if err := s.tx.Put(str(call, 0), s.row(str(call, 1), "update")); err != nil {
			s.throwErr(err)
		}
		return goja.Undefined()
	})
	set("remove", func(call goja.FunctionCall) goja.Value {
		if _, err := s.tx.Delete(str(call, 0), str(call, 1)); err != nil {
			s.throwErr(err)
		}
		return goja.Undefined()
	})
}

// checkInput checks the input of a callable, and that each ref it holds
// names a row that exists.
func (s *session) checkInput(c *callable, raw any, lenient bool) (map[string]any, error) {
	in, err := checkInput(c.Input, raw, lenient)
	if err != nil {
		return nil, diag.Errorf(diag.T4002, "input of %s: %v", c.Name, err)
	}
	for _, f := range c.Input {
		id, ok := in[f.Name].(string)
		if f.Type != "ref" || !ok {
			continue
		}
		row, err := s.tx.Get(f.Ref, id)
		if err != nil {
			return nil, diag.Errorf(diag.T4002, "input of %s: %s: %v", c.Name, f.Name, err)
		}
		if row == nil {
			return nil, diag.Errorf(diag.T4002, "input of %s: %s names no row of %s: %q", c.Name, f.Name, f.Ref, id)
		}
	}
	return in, nil
}
