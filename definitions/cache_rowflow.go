package definitions

// The row flow of a file (rowflow.go) in the index cache, after its uses.

func (e *encoder) rowOrigin(o RowOrigin) {
	e.str(o.Table)
	e.bool(o.List)
	e.str(o.Param)
	e.str(o.Call)
	e.bool(o.Ctx)
	e.str(o.Via)
	e.bool(o.Elem)
}

func (d *decoder) rowOrigin() RowOrigin {
	return RowOrigin{Table: d.str(), List: d.bool(), Param: d.str(), Call: d.str(), Ctx: d.bool(), Via: d.str(), Elem: d.bool()}
}

func (e *encoder) rowFlow(r *RowFlow) {
	e.uint(len(r.Uses))
	for _, u := range r.Uses {
		e.str(u.Def)
		e.rowOrigin(u.Of)
		e.nameRef(u.Column)
		e.uint(int(u.How))
	}
	e.uint(len(r.Calls))
	for _, c := range r.Calls {
		e.str(c.Callee)
		e.uint(len(c.Args))
		for _, a := range c.Args {
			e.rowOrigin(a)
		}
	}
	e.uint(len(r.Returns))
	for _, rt := range r.Returns {
		e.str(rt.Func)
		e.rowOrigin(rt.Of)
	}
	e.strs(r.Funcs)
	e.strs(r.Escapes)
}

func (d *decoder) rowFlow(r *RowFlow) {
	if n := d.uint(); n > 0 {
		r.Uses = make([]RowUse, n)
		for i := range r.Uses {
			r.Uses[i] = RowUse{Def: d.str(), Of: d.rowOrigin(), Column: d.nameRef(), How: RowHow(d.uint())}
		}
	}
	if n := d.uint(); n > 0 {
		r.Calls = make([]RowCall, n)
		for i := range r.Calls {
			c := RowCall{Callee: d.str()}
			if k := d.uint(); k > 0 {
				c.Args = make([]RowOrigin, k)
				for j := range c.Args {
					c.Args[j] = d.rowOrigin()
				}
			}
			r.Calls[i] = c
		}
	}
	if n := d.uint(); n > 0 {
		r.Returns = make([]RowReturn, n)
		for i := range r.Returns {
			r.Returns[i] = RowReturn{Func: d.str(), Of: d.rowOrigin()}
		}
	}
	r.Funcs = d.strs()
	r.Escapes = d.strs()
}
