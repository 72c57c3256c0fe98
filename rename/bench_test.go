package rename

import (
	"context"
	"testing"

	"github.com/tent-tools/tent-tools/definitions"
	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// BenchmarkPlanHub plans the rename of the users table of the generated
// 1,000-table project, named from about 500 places, on a warm index (its
// lookup maps made by a first plan): the target is under 50 ms an op.
//
//	go test ./rename -run '^$' -bench PlanHub -benchtime 20x
func BenchmarkPlanHub(b *testing.B) {
	ix := definitions.FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
	s, err := Plan(context.Background(), ix, "accounts", "members")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Plan(context.Background(), ix, "accounts", "members"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(ix.Places("accounts"))), "places")
	b.ReportMetric(float64(len(s.Files)), "files")
}

// BenchmarkPlanColumn plans the rename of a column of the generated
// 1,000-table project that leaves thousands of code sites (every string
// and property that spells its name), and makes its answer.
//
//	go test ./rename -run '^$' -bench PlanColumn -benchtime 20x
func BenchmarkPlanColumn(b *testing.B) {
	ix := definitions.FromFiles(context.Background(), projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1}))
	s, err := Plan(context.Background(), ix, "accounts2.amount", "total")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Plan(context.Background(), ix, "accounts2.amount", "total")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := NewAnswer(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s.Left)), "left")
}
