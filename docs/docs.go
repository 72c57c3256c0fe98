// Package docs holds the shipped documentation: one Markdown page per
// topic (pages/<topic>.md), embedded in the binary so that the docs tool
// answers the same pages everywhere, offline. Each package adds the pages of
// its own tools as new files in pages/. It imports nothing of the project's.
package docs

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed pages/*.md
var pages embed.FS

// IndexTopic is the topic of the generated page that lists all the others.
const IndexTopic = "index"

// Page returns the page of a topic, and whether there is one.
func Page(topic string) (string, bool) {
	if topic == IndexTopic {
		return Index(), true
	}
	if strings.ContainsAny(topic, "/\\.") {
		return "", false
	}
	b, err := pages.ReadFile("pages/" + topic + ".md")
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Topics returns every topic, sorted, "index" among them.
func Topics() []string {
	entries, err := fs.ReadDir(pages, "pages")
	if err != nil {
		panic(fmt.Sprintf("docs: embedded pages unreadable: %v", err)) // the embed is built in
	}
	topics := []string{IndexTopic}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok {
			topics = append(topics, name)
		}
	}
	sort.Strings(topics)
	return topics
}

// Title returns a page's title: its first "# " heading, or its topic.
func Title(topic string) string {
	if topic == IndexTopic {
		return "The pages of the docs"
	}
	page, ok := Page(topic)
	if !ok {
		return topic
	}
	for _, line := range strings.Split(page, "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return topic
}

// Index returns the generated page that lists every topic with its
// summary, and says that it is itself the page index.
func Index() string {
	var b strings.Builder
	b.WriteString("# The pages of the docs\n\nAsk for a page by its topic (`docs {\"topic\": \"edit\"}`, `tent-tools docs edit`); " +
		"this list is the page `" + IndexTopic + "`.\n\n")
	for _, t := range Topics() {
		if t != IndexTopic {
			fmt.Fprintf(&b, "- `%s`: %s\n", t, Summary(t))
		}
	}
	return b.String()
}

// maxSummary is how long a summary may be before it is cut at a word.
const maxSummary = 120

// Summary returns a page's one-line summary: its title where that says
// more than the topic, else the first sentence of its first paragraph
// (a tool's page is titled with the tool's name only), cut at a word.
func Summary(topic string) string {
	title := Title(topic)
	if !strings.EqualFold(strings.Trim(title, "` "), topic) {
		return title
	}
	page, _ := Page(topic)
	var para []string
	for _, line := range strings.Split(page, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#") && len(para) == 0:
			continue
		case line == "" || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "#"):
			if len(para) > 0 {
				return cutSummary(strings.Join(para, " "))
			}
		default:
			para = append(para, line)
		}
	}
	if len(para) > 0 {
		return cutSummary(strings.Join(para, " "))
	}
	return title
}

// cutSummary keeps a paragraph's first sentence, and at most maxSummary
// bytes of it, cut at a word and marked with "…".
func cutSummary(text string) string {
	if i := strings.Index(text, ". "); i > 0 {
		text = text[:i+1]
	}
	if len(text) <= maxSummary {
		return text
	}
	cut := strings.LastIndex(text[:maxSummary], " ")
	if cut <= 0 {
		cut = maxSummary
	}
	return strings.TrimRight(text[:cut], ",;:") + "…"
}
