package docs

import (
	"strings"
	"testing"
)

// TestIndexSummaries: the index lists every page with a one-line summary
// that says more than the page's topic, and says it is the page index.
func TestIndexSummaries(t *testing.T) {
	index := Index()
	if !strings.Contains(index, "this list is the page `"+IndexTopic+"`") {
		t.Errorf("the index does not name itself:\n%s", index)
	}
	for _, topic := range Topics() {
		if topic == IndexTopic {
			continue
		}
		s := Summary(topic)
		if strings.EqualFold(strings.Trim(s, "` "), topic) || strings.Contains(s, "\n") || len(s) > maxSummary+len("…") {
			t.Errorf("%s: summary %q", topic, s)
		}
		if !strings.Contains(index, "- `"+topic+"`: "+s+"\n") {
			t.Errorf("the index does not list %s with its summary", topic)
		}
	}
	if got := cutSummary("One sentence. Another one."); got != "One sentence." {
		t.Errorf("cutSummary kept %q", got)
	}
	long := strings.Repeat("word ", 40)
	if got := cutSummary(long); len(got) > maxSummary+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("cutSummary of a long line: %q", got)
	}
}
