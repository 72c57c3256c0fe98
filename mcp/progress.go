package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery is how often a call that runs on reports that it does.
const progressEvery = 500 * time.Millisecond

// startProgress sends progress notifications for a call whose client sent
// a progress token: while the tool works, every progressEvery, how long
// it has been at it, so that a client keeps waiting for long work
// (indexing a large project, the first build of the test database) and
// can show it. It returns the function that stops them; a call that ends
// sooner sends none.
func startProgress(ctx context.Context, req *sdk.CallToolRequest, tool string) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      float64(n),
					Message:       fmt.Sprintf("%s: working for %s", tool, time.Since(start).Round(100*time.Millisecond)),
				})
			}
		}
	}()
	return func() {
		close(done)
		<-finished // no notification after the call's answer
	}
}
