package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tent-tools/tent-tools/history"
	"github.com/tent-tools/tent-tools/internal/words"
)

// PointFacts are what every answer that names a point says of it
// (history's points, changedBy): its number, when, who and for which agent,
// its kind, turn and tool, and its summary. Embedded, its fields stand in
// the answer's JSON as its own.
type PointFacts struct {
	Point   int    `json:"point"`
	Time    string `json:"time"` // RFC 3339, UTC
	Who     string `json:"who"`
	Agent   string `json:"agent"`
	Kind    string `json:"kind"`
	Turn    *int   `json:"turn,omitempty"`
	Tool    string `json:"tool"`
	Summary string `json:"summary"`
}

// UndoLinks are a point's links with the undos, by history's one rule
// (history.UndoneBy): the points an undo point put back, and the undo that
// put back a point no longer in effect.
type UndoLinks struct {
	// Undid, on an undo point, lists the points it put back.
	Undid []int `json:"undid,omitempty"`
	// UndoneBy, on a point whose change is not in effect, is the undo
	// point that put it back (0, left out, where it is in effect).
	UndoneBy int `json:"undoneBy,omitempty"`
}

// pointFacts makes a point's facts.
func pointFacts(p *history.Point) PointFacts {
	f := PointFacts{Point: p.N, Time: p.Time.UTC().Format(time.RFC3339), Who: p.Who, Agent: p.Agent, Kind: p.Kind,
		Tool: p.Tool, Summary: p.Summary}
	if p.Turn > 0 {
		turn := p.Turn
		f.Turn = &turn
	}
	return f
}

// textTime writes utc, a time of a data answer (RFC 3339, UTC), in zone
// (nil: as it is), in seconds with the zone's offset.
func textTime(utc string, zone *time.Location) string {
	t, err := time.Parse(time.RFC3339, utc)
	if zone == nil || err != nil {
		return utc
	}
	return t.In(zone).Format(time.RFC3339)
}

// writePointLine writes a point's first line: number, time (in zone, nil:
// UTC), who, kind, turn, tool and summary.
func writePointLine(b *strings.Builder, f PointFacts, zone *time.Location) {
	fmt.Fprintf(b, "point %d  %s  %s", f.Point, textTime(f.Time, zone), f.Kind)
	if f.Who != "" {
		fmt.Fprintf(b, " by %s", f.Who)
	}
	if f.Agent != "" {
		fmt.Fprintf(b, " (agent %s)", f.Agent)
	}
	if f.Turn != nil {
		fmt.Fprintf(b, ", turn %d", *f.Turn)
	}
	if f.Tool != "" {
		fmt.Fprintf(b, ", %s", f.Tool)
	}
	fmt.Fprintf(b, ": %s\n", f.Summary)
}

// writeUndoLines writes which points an undo point put back, and which
// undo put back a point no longer in effect.
func writeUndoLines(b *strings.Builder, u UndoLinks) {
	if len(u.Undid) > 0 {
		fmt.Fprintf(b, "  undid %s %s\n", words.Plural(len(u.Undid), "point"), pointRuns(u.Undid))
	}
	if u.UndoneBy > 0 {
		fmt.Fprintf(b, "  undone by point %d\n", u.UndoneBy)
	}
}

// pointRuns writes point numbers in order, a run of three or more as its
// ends: "1 to 6, 9".
func pointRuns(points []int) string {
	ns := slices.Clone(points)
	slices.Sort(ns)
	ns = slices.Compact(ns)
	var each []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			each = append(each, fmt.Sprintf("%d to %d", ns[i], ns[j]))
		case j > i:
			each = append(each, strconv.Itoa(ns[i]), strconv.Itoa(ns[j]))
		default:
			each = append(each, strconv.Itoa(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(each, ", ")
}
