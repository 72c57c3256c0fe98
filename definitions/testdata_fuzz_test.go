package definitions

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzTestData reads random texts as a test data file: it never panics,
// takes time linear in the text, and agrees with encoding/json: a text it
// reads is valid JSON, an array whose object items are the rows, each key
// with the value encoding/json gives and spans that hold the key and the
// value; a text encoding/json refuses is a T1002 finding with no rows.
// The seed corpus is testdata/fuzz/FuzzTestData.
func FuzzTestData(f *testing.F) {
	for _, s := range []string{
		`[]`,
		`[{"id": "o1", "total": 1250, "note": null}]`,
		"\ufeff[\r\n  {\"id\": \"o1\"},\r\n  {}\r\n]\r\n",
		`[{"a": [1, {"deep": true}], "b": "t\u00e9\n", "c": -1.5e3}, 7, "x"]`,
		`[{"id": "o1", "id": "o2"}]`,
		`{"not": "an array"}`,
		`[{"cut": `,
		`[1, 2,]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		file := readJSON(string(src))
		if took := time.Since(start); took > time.Second+time.Duration(len(src))*time.Microsecond {
			t.Errorf("reading %d bytes took %v", len(src), took)
		}
		body := bytes.TrimPrefix(src, []byte("\ufeff"))
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			if json.Valid(body) {
				if len(file.Findings) == 0 {
					t.Errorf("valid JSON that is no array read without a finding: %q", src)
				}
				return
			}
			if len(file.Findings) == 0 || file.Findings[0].Code != "T1002" || len(file.TestData.Rows) != 0 {
				t.Errorf("invalid JSON %q: findings %v, %d rows", src, file.Findings, len(file.TestData.Rows))
			}
			return
		}
		var objects []map[string]any
		for _, it := range items {
			var m map[string]any
			if json.Unmarshal(it, &m) == nil && m != nil {
				objects = append(objects, m)
			}
		}
		if len(file.TestData.Rows) != len(objects) {
			t.Fatalf("%q: %d rows, want %d", src, len(file.TestData.Rows), len(objects))
		}
		if len(objects) != len(items) && len(file.Findings) == 0 {
			t.Errorf("%q: items that are no object, and no finding", src)
		}
		for i, row := range file.TestData.Rows {
			last := map[string]any{}
			for _, k := range row.Keys {
				last[k.Name.Name] = k.Value
				var v any
				if err := json.Unmarshal(file.Src[k.ValueSpan.Start:k.ValueSpan.End], &v); err != nil || !reflect.DeepEqual(v, k.Value) {
					t.Errorf("%q: row %d key %q: span %q holds %v, the key's value is %v", src, i, k.Name.Name, file.Src[k.ValueSpan.Start:k.ValueSpan.End], v, k.Value)
				}
				var name string
				if err := json.Unmarshal(file.Src[k.Name.Lit.Start:k.Name.Lit.End], &name); err != nil || name != k.Name.Name {
					t.Errorf("%q: row %d: the key's literal %q is not %q", src, i, file.Src[k.Name.Lit.Start:k.Name.Lit.End], k.Name.Name)
				}
			}
			if !reflect.DeepEqual(last, objects[i]) {
				t.Errorf("%q: row %d = %v, encoding/json reads %v", src, i, last, objects[i])
			}
			if id, ok := objects[i]["id"].(string); ok && row.ID != id {
				t.Errorf("%q: row %d id %q, want %q", src, i, row.ID, id)
			}
		}
	})
}
