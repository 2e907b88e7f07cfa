// Answers filter cases with one go-bexpr release (whichever build.sh compiled it against): reads JSONL
// {id, kind, expr, datum[, maxExpressions]} on stdin (maxExpressions, when set, is passed as
// WithMaxExpressions), writes JSONL {id, expect, goError} on stdout, one line per case, in order.
// expect is "true", "false", "parse-error", "eval-error" (a recovered panic is an eval-error
// whose goError starts with "panic: "), or "bad-datum" (the datum does not decode into the kind's
// typed record: a bug of whoever wrote the case).
//
// Flags (both off by default, which gives the harness kept outside the repository's behaviour):
//
//	-timeout 20s  a case that takes longer is answered {"id": …, "expect": "timeout"} and the harness
//	              exits with status 3 (releases before 0.1.15 have no parse budget, and their parser's
//	              work grows about fourfold per level of parentheses); the driver starts a new one
//	              for the cases after it
//	-repeat 256   evaluate an expression that mentions "any" or "all" 256 times, each on a freshly
//	              decoded datum, and answer "unstable" when the answers differ (go-bexpr visits a
//	              map's keys in Go's random order, so `any`/`all` over a map can depend on it);
//	              where they agree but the messages name different keys, the least message (byte
//	              order) is kept. Many runs are needed: Go starts a small map's iteration at a
//	              random one of its bucket's 8 slots, so with 2 keys the second comes first only
//	              once in 8 runs ((7/8)^256 < 1e-14). Other expressions are evaluated once.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	bexpr "github.com/hashicorp/go-bexpr"
)

type JobChildrenSummary struct{ Pending, Running, Dead int64 }
type TaskGroupSummary struct{ Queued, Complete, Failed, Running, Starting, Lost int64 }
type JobSummary struct {
	JobID, Namespace         string
	Children                 *JobChildrenSummary
	Summary                  map[string]TaskGroupSummary
	CreateIndex, ModifyIndex uint64
}
type Multiregion struct {
	Strategy map[string]interface{}
	Regions  []map[string]interface{}
}
type JobListStub struct {
	ID, ParentID, Name, Namespace            string
	Datacenters                              []string
	Multiregion                              *Multiregion
	Type                                     string
	Priority                                 int64
	Periodic, ParameterizedJob, Stop         bool
	Status, StatusDescription                string
	JobSummary                               *JobSummary
	CreateIndex, ModifyIndex, JobModifyIndex uint64
	SubmitTime                               int64
}
type DeploymentState struct {
	AutoRevert, AutoPromote                                                     bool
	ProgressDeadline                                                            int64
	Promoted                                                                    bool
	PlacedCanaries                                                              []string
	DesiredCanaries, DesiredTotal, PlacedAllocs, HealthyAllocs, UnhealthyAllocs int64
	RequireProgressBy                                                           *string
}
type Deployment struct {
	ID, Namespace, JobID                                           string
	JobVersion, JobModifyIndex, JobSpecModifyIndex, JobCreateIndex uint64
	IsMultiregion                                                  bool
	TaskGroups                                                     map[string]*DeploymentState
	Status, StatusDescription                                      string
	EvalPriority                                                   int64
	CreateIndex, ModifyIndex                                       uint64
}

type inCase struct {
	ID    json.RawMessage `json:"id"`
	Kind  string          `json:"kind"`
	Expr  string          `json:"expr"`
	Datum json.RawMessage `json:"datum"`
	// MaxExpressions, when set, is passed as WithMaxExpressions (else the release's default).
	MaxExpressions uint64 `json:"maxExpressions,omitempty"`
}
type outCase struct {
	ID      json.RawMessage `json:"id"`
	Expect  string          `json:"expect"`
	GoError string          `json:"goError,omitempty"`
}

// decode types the datum as its kind says.
func decode(c inCase) (interface{}, error) {
	switch c.Kind {
	case "job":
		var j JobListStub
		err := json.Unmarshal(c.Datum, &j)
		return j, err
	case "deployment":
		var d Deployment
		err := json.Unmarshal(c.Datum, &d)
		return d, err
	default:
		var datum interface{}
		err := json.Unmarshal(c.Datum, &datum)
		return datum, err
	}
}

// evaluate runs one evaluation, a panic being an eval-error.
func evaluate(ev *bexpr.Evaluator, datum interface{}) (expect, goError string) {
	defer func() {
		if r := recover(); r != nil {
			expect, goError = "eval-error", "panic: "+fmt.Sprint(r)
		}
	}()
	ok, err := ev.Evaluate(datum)
	if err != nil {
		return "eval-error", err.Error()
	}
	return fmt.Sprint(ok), ""
}

func answer(c inCase, repeat int) (out outCase) {
	out.ID = c.ID
	defer func() {
		if r := recover(); r != nil {
			out.Expect = "eval-error"
			out.GoError = "panic: " + fmt.Sprint(r)
		}
	}()
	var opts []bexpr.Option
	if c.MaxExpressions != 0 {
		opts = append(opts, bexpr.WithMaxExpressions(c.MaxExpressions))
	}
	ev, err := bexpr.CreateEvaluator(c.Expr, opts...)
	if err != nil {
		out.Expect, out.GoError = "parse-error", err.Error()
		return
	}
	if !strings.Contains(c.Expr, "any") && !strings.Contains(c.Expr, "all") {
		repeat = 1
	}
	for i := 0; i < repeat; i++ {
		datum, err := decode(c)
		if err != nil {
			out.Expect, out.GoError = "bad-datum", err.Error()
			return
		}
		expect, goError := evaluate(ev, datum)
		if i == 0 {
			out.Expect, out.GoError = expect, goError
		} else if expect != out.Expect {
			out.Expect, out.GoError = "unstable", fmt.Sprintf("%s (%s) / %s (%s)", out.Expect, out.GoError, expect, goError)
			return
		} else if goError < out.GoError {
			// The same answer, its message naming another key: keep the least, so that reruns agree.
			out.GoError = goError
		}
	}
	return
}

func main() {
	timeout := flag.Duration("timeout", 0, "answer \"timeout\" and exit (status 3) when a case takes longer (0: no limit)")
	repeat := flag.Int("repeat", 1, "evaluations per case; differing answers give \"unstable\"")
	flag.Parse()
	if *repeat < 1 {
		*repeat = 1
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var c inCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "bad case:", err)
			w.Flush()
			os.Exit(2)
		}
		if *timeout <= 0 {
			enc.Encode(answer(c, *repeat))
			continue
		}
		done := make(chan outCase, 1)
		go func() { done <- answer(c, *repeat) }()
		select {
		case out := <-done:
			enc.Encode(out)
		case <-time.After(*timeout):
			enc.Encode(outCase{ID: c.ID, Expect: "timeout"})
			w.Flush()
			os.Exit(3)
		}
	}
}
