package testdb

import (
	"encoding/json"
	"fmt"

	"github.com/tent-tools/tent-tools/schema"
)

// Row is one row as JSON values (string, float64, bool, nil, []any,
// map[string]any), with its id under "id".
type Row = map[string]any

// store turns a JSON value into what the database keeps for column c:
// bool as 0 or 1, int and money as integers, json as its JSON text. It
// fails where the value does not fit the column's type.
func store(c *schema.Column, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if err := schema.CheckValue(c, v); err != nil {
		return nil, err
	}
	switch c.Type {
	case schema.Bool:
		if v.(bool) {
			return int64(1), nil
		}
		return int64(0), nil
	case schema.Int, schema.Money:
		return int64(v.(float64)), nil
	case schema.Num:
		return v.(float64), nil
	case schema.JSON:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		return string(b), nil
	}
	return v, nil
}

// storeLoose is store for test data, which the check judges: a value that
// does not fit is kept as it is (objects and arrays as JSON text), so the
// database shows what the test data says.
func storeLoose(c *schema.Column, v any) any {
	if s, err := store(c, v); err == nil {
		return s
	}
	switch v.(type) {
	case map[string]any, []any:
		b, _ := json.Marshal(v)
		return string(b)
	case bool:
		if v.(bool) {
			return int64(1)
		}
		return int64(0)
	}
	return v
}

// load turns what the database keeps into the JSON value of column c. A
// value that the column's type does not explain (left by an earlier type)
// is answered as the database has it.
func load(c *schema.Column, v any) any {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	if v == nil {
		return nil
	}
	switch c.Type {
	case schema.Bool:
		if n, ok := v.(int64); ok {
			return n != 0
		}
	case schema.Int, schema.Money, schema.Num:
		switch n := v.(type) {
		case int64:
			return float64(n)
		case float64:
			return n
		}
	case schema.JSON:
		if s, ok := v.(string); ok {
			var out any
			if err := json.Unmarshal([]byte(s), &out); err == nil {
				return out
			}
		}
	}
	if n, ok := v.(int64); ok {
		return float64(n)
	}
	return v
}

// matchValue turns a value of a where match into what the database keeps,
// for an equality test.
func matchValue(c *schema.Column, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	s, err := store(&schema.Column{Name: c.Name, Type: c.Type, Ref: c.Ref, Choices: c.Choices, Optional: true}, v)
	if err != nil {
		return nil, err
	}
	return s, nil
}
