package runner

import (
	"context"
	"testing"
)

func TestSmoke(t *testing.T) {
	root := project(t, "shop")
	ix := index(t, root)
	r := newRunner(t, root, Config{})
	res, err := r.Run(context.Background(), ix, Request{Name: "listProducts"})
	t.Logf("%+v %v", res, err)
	if res != nil {
		t.Logf("%s", res.Result)
	}
}
