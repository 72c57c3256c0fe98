package lsp

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"
)

// TestExitWaitsForTheWorkUnderWay: an exit that comes while a handler is
// at work (the first index, slow on a loaded machine) ends the session
// once that work ended, never under it: the workspace it uses is closed
// after it (the race detector saw the first index's lock read beside the
// exit's Close).
func TestExitWaitsForTheWorkUnderWay(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	opts := Options{DefaultCaller: func(string) string { return "test" }, Indexed: func() {
		close(entered)
		<-release
	}}
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &client{t: t, dir: copyShop(t), in: fromClient, done: make(chan struct{}), pending: map[string]chan message{}, changed: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, pipeConn{toServer, fromServer}, opts)
		fromServer.Close()
	}()
	go c.read(bufio.NewReader(toClient))
	c.initialize(map[string]any{}, nil)
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the first index did not come to its end")
	}
	c.notify("exit", nil)
	fromClient.Close() // the client is gone: only the work holds the session
	select {
	case err := <-served:
		close(release)
		t.Fatalf("the session ended (%v) while the first index was at work", err)
	case <-time.After(time.Second): // the session, wrong, ends at once
	}
	close(release)
	select {
	case err := <-served:
		if !ErrNoShutdown(err) {
			t.Errorf("exit without shutdown ended the session with %v; want ErrNoShutdown", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the session did not end once its work had")
	}
	<-c.done
}
