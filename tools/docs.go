package tools

import (
	"context"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/docs"
)

// DocsInput is the input of docs: a page's topic ("index" lists them all).
type DocsInput struct {
	Topic string `json:"topic"`
}

// DocsAnswer is the data answer of docs: the topic, its title and its page
// (Markdown).
type DocsAnswer struct {
	Topic string `json:"topic"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

func init() {
	register(Tool{
		Name:     "docs",
		Summary:  "A page of the shipped docs by its topic (\"index\" lists the pages)",
		NewInput: func() any { return new(DocsInput) },
		Answer:   DocsAnswer{},
		ReadOnly: true,
		Local:    true,
		Run: func(ctx context.Context, w *Workspace, in any) (Answer, error) {
			return Docs(*in.(*DocsInput))
		},
	})
}

// Docs answers a page of the shipped docs. An unknown topic is T9108, with
// the list of topics.
func Docs(in DocsInput) (Answer, error) {
	page, ok := docs.Page(in.Topic)
	if !ok {
		topics := docs.Topics()
		return Answer{}, diag.Errorf(diag.T9108, "no docs page %q; the pages are %s", in.Topic, strings.Join(topics, ", ")).
			With("topics", topics)
	}
	return Answer{Text: page, Data: DocsAnswer{Topic: in.Topic, Title: docs.Title(in.Topic), Text: page}}, nil
}
