package tools

import (
	"context"
	"strings"

	"github.com/tent-tools/tent-tools/diag"
	"github.com/tent-tools/tent-tools/docs"
	"github.com/tent-tools/tent-tools/internal/spelling"
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

// Docs answers a page of the shipped docs. A tool's page is found by
// either spelling of its name, as the tool is (changed-by: changedBy). An
// unknown topic is T9108, with the list of topics and the nearest of them
// where one is a likely typo.
func Docs(in DocsInput) (Answer, error) {
	topic := in.Topic
	page, ok := docs.Page(topic)
	if t, isTool := Lookup(topic); !ok && isTool {
		topic = t.Name
		page, ok = docs.Page(topic)
	}
	if !ok {
		topics := docs.Topics()
		err := diag.Errorf(diag.T9108, "no docs page %q; the pages are %s", in.Topic, strings.Join(topics, ", ")).
			With("topics", topics)
		if near := spelling.Nearest(in.Topic, topics); near != "" {
			err = diag.Errorf(diag.T9108, "no docs page %q; did you mean %s? The pages are %s", in.Topic, near, strings.Join(topics, ", ")).
				With("topics", topics).With("nearest", near)
		}
		return Answer{}, err
	}
	return Answer{Text: page, Data: DocsAnswer{Topic: topic, Title: docs.Title(topic), Text: page}}, nil
}
