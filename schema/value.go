package schema

import (
	"fmt"
	"math"
	"time"
)

// CheckValue reports whether v, a value decoded from JSON (string,
// float64, bool, nil, []any, map[string]any), fits column c. It does not
// check required-ness (a nil value fits only an optional column) nor that a
// ref names an existing row. The error says what was expected.
func CheckValue(c *Column, v any) error {
	if v == nil {
		if c.Optional {
			return nil
		}
		return fmt.Errorf("%s is required (%s), got null", c.Name, c.Type)
	}
	switch c.Type {
	case Text, Ref:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s wants %s (a string), got %s", c.Name, c.Type, describe(v))
		}
	case Int, Money:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s wants %s (a whole number), got %s", c.Name, c.Type, describe(v))
		}
	case Num:
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("%s wants num (a number), got %s", c.Name, describe(v))
		}
	case Bool:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s wants bool, got %s", c.Name, describe(v))
		}
	case Time:
		s, ok := v.(string)
		if !ok || !IsTime(s) {
			return fmt.Errorf("%s wants time (an ISO 8601 string), got %s", c.Name, describe(v))
		}
	case Choice:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s wants one of %q, got %s", c.Name, c.Choices, describe(v))
		}
		for _, ch := range c.Choices {
			if ch == s {
				return nil
			}
		}
		return fmt.Errorf("%s wants one of %q, got %q", c.Name, c.Choices, s)
	case JSON:
	}
	return nil
}

// IsTime reports whether s is an ISO 8601 date or date-time, as the
// framework stores a time column.
func IsTime(s string) bool {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// describe names the JSON kind of v for messages, with the value where it
// is short.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			return "a string"
		}
		return fmt.Sprintf("%q", x)
	case float64, bool:
		return fmt.Sprintf("%v", x)
	}
	return JSONKind(v)
}

// JSONKind names the kind of a decoded JSON value for messages: "null",
// "a string", "a number", "a boolean", "an array", "an object". Numbers
// exported from the JavaScript runtime as Go integers count as numbers.
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64, float32, int, int64, int32, uint64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a value"
}
