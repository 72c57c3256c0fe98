package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tent-tools/tent-tools/internal/projectgen"
)

// The check's speed targets (docs/pages/performance.md) as whole
// processes on tent-gen's 1,000-table project, each beside what it is
// measured against in the same loop, interleaved, so that a busy machine
// slows both alike:
//
//	go test ./cmd/tent-tools -run XXX -bench 'Check(Cold|Cached|Edited)' -benchtime 5x
//
// TENT_BENCH_BASE names a tent-tools binary of another commit (the base
// of a change) to time in the same loop; its ratios are reported beside.
// Ratios are of the medians; cpu is user and system time of the process.

// BenchmarkCheckCold is `tent-tools check` with no .tent/ (the index built
// from every file, the cache saved) beside the parse floor
// (scripts/bench/parsefloor: every file read and parsed, nothing else).
// Its target is 1.3 times the floor.
func BenchmarkCheckCold(b *testing.B) {
	dir := benchProject1000(b, "p")
	floor := buildFloor(b)
	base := os.Getenv("TENT_BENCH_BASE")
	var fl, tt, bs procTimes
	cold := func(exe string) procTime {
		if err := os.RemoveAll(filepath.Join(dir, ".tent")); err != nil {
			b.Fatal(err)
		}
		return timeOne(b, dir, exe, "check")
	}
	for b.Loop() {
		fl.add(timeOne(b, dir, floor, "."))
		tt.add(cold(bin))
		if base != "" {
			bs.add(cold(base))
		}
	}
	tt.report(b, "check")
	fl.report(b, "floor")
	b.ReportMetric(tt.cpu()/fl.cpu(), "cpu-x-floor")
	b.ReportMetric(tt.wall()/fl.wall(), "wall-x-floor")
	if base != "" {
		bs.report(b, "base")
		b.ReportMetric(bs.cpu()/fl.cpu(), "base-cpu-x-floor")
		b.ReportMetric(bs.wall()/fl.wall(), "base-wall-x-floor")
	}
}

// BenchmarkCheckCached is `tent-tools check` with .tent/ present and
// nothing changed (the kept findings answer: .tent/findings); with
// TENT_BENCH_BASE, beside the base on its own copy (its cache may be of
// another version).
func BenchmarkCheckCached(b *testing.B) {
	dir := benchProject1000(b, "p")
	base := os.Getenv("TENT_BENCH_BASE")
	baseDir := ""
	timeOne(b, dir, bin, "check")
	if base != "" {
		baseDir = benchProject1000(b, "base")
		timeOne(b, baseDir, base, "check")
	}
	var tt, bs procTimes
	for b.Loop() {
		tt.add(timeOne(b, dir, bin, "check"))
		if base != "" {
			bs.add(timeOne(b, baseDir, base, "check"))
		}
	}
	tt.report(b, "check")
	if base != "" {
		bs.report(b, "base")
		b.ReportMetric(tt.cpu()/bs.cpu(), "cpu-x-base")
		b.ReportMetric(tt.wall()/bs.wall(), "wall-x-base")
	}
}

// BenchmarkCheckEdited is `tent-tools check` after one file was edited
// since the last check: the index read from .tent/index with that file
// read again, and the whole project checked (the kept findings do not
// fit); with TENT_BENCH_BASE, beside the base on its own copy.
func BenchmarkCheckEdited(b *testing.B) {
	dir := benchProject1000(b, "p")
	base := os.Getenv("TENT_BENCH_BASE")
	baseDir := ""
	timeOne(b, dir, bin, "check")
	if base != "" {
		baseDir = benchProject1000(b, "base")
		timeOne(b, baseDir, base, "check")
	}
	edit := func(dir string) {
		f, err := os.OpenFile(filepath.Join(dir, "lib", "money.ts"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		f.WriteString("// edited\n")
		f.Close()
	}
	var tt, bs procTimes
	for b.Loop() {
		edit(dir)
		tt.add(timeOne(b, dir, bin, "check"))
		if base != "" {
			edit(baseDir)
			bs.add(timeOne(b, baseDir, base, "check"))
		}
	}
	tt.report(b, "check")
	if base != "" {
		bs.report(b, "base")
		b.ReportMetric(tt.cpu()/bs.cpu(), "cpu-x-base")
		b.ReportMetric(tt.wall()/bs.wall(), "wall-x-base")
	}
}

// benchProject1000 writes tent-gen's 1,000-table project into a new
// folder named name under a temporary one.
func benchProject1000(b *testing.B, name string) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), name)
	if err := projectgen.Write(dir, projectgen.Generate(projectgen.Options{Tables: 1000, Seed: 1})); err != nil {
		b.Fatal(err)
	}
	return dir
}

// buildFloor builds scripts/bench/parsefloor, the floor peers.sh measures.
func buildFloor(b *testing.B) string {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "parsefloor")
	cmd := exec.Command("go", "build", "-o", exe, "../../scripts/bench/parsefloor")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build parsefloor: %v: %s", err, out)
	}
	return exe
}

// procTime is one process's wall and CPU time.
type procTime struct{ wall, cpu time.Duration }

// timeOne runs exe with args in dir and times it; a failure stops the
// benchmark.
func timeOne(b *testing.B, dir, exe string, args ...string) procTime {
	b.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s %v: %v: %s", filepath.Base(exe), args, err, out)
	}
	return procTime{wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
}

// procTimes are the times of one command over a benchmark's loop.
type procTimes struct{ walls, cpus []time.Duration }

func (p *procTimes) add(t procTime) {
	p.walls = append(p.walls, t.wall)
	p.cpus = append(p.cpus, t.cpu)
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}

func (p *procTimes) wall() float64 { return median(p.walls) }
func (p *procTimes) cpu() float64  { return median(p.cpus) }

// report reports the medians in milliseconds, named by what.
func (p *procTimes) report(b *testing.B, what string) {
	b.ReportMetric(p.wall()/float64(time.Millisecond), what+"-wall-ms")
	b.ReportMetric(p.cpu()/float64(time.Millisecond), what+"-cpu-ms")
}
