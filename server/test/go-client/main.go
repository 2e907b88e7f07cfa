// Command go-client drives the scheduler's own Go API client (github.com/hashicorp/nomad/api) against
// a server, for server/test/go-client.test.ts. Each mode prints one JSON object on standard output;
// an error the client returns is printed as {"error": "…"} (exit status 0: the test judges it), a bad
// command line exits with status 2.
//
//	go-client -addr http://127.0.0.1:4646 [-token SECRET] walk -endpoint E [-namespace NS] [-filter F] [-per-page N] [-prefix P] [-param K=V]…
//	go-client -addr … prefix-list -endpoint allocations|nodes|evaluations -prefix P
//	go-client -addr … block -index N [-wait 5m] [-endpoint E] [-filter F]
//	go-client -addr … register -id ID [-namespace NS] [-count N]
//	go-client -addr … events -index N -count K [-topic Job]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/nomad/api"
)

// Meta is what the client read from a response's headers (api.QueryMeta).
type Meta struct {
	LastIndex     uint64 `json:"lastIndex"`
	NextToken     string `json:"nextToken"`
	KnownLeader   bool   `json:"knownLeader"`
	LastContactMs int64  `json:"lastContactMs"`
}

func metaOf(m *api.QueryMeta) Meta {
	return Meta{LastIndex: m.LastIndex, NextToken: m.NextToken, KnownLeader: m.KnownLeader, LastContactMs: m.LastContact.Milliseconds()}
}

// Item is the part of a list entry the tests compare.
type Item struct {
	ID        string `json:"id"`
	Namespace string `json:"namespace"`
	Status    string `json:"status"`
	// Jobs: the type; deployments: the job.
	Detail string `json:"detail"`
}

// Page is one answer of a walk: jobs and deployments as Items, allocations, nodes and evaluations as
// the client decoded them (api.AllocationListStub, api.NodeListStub, api.Evaluation), encoded again
// by encoding/json, in the order the client returns them (it sorts each page it receives).
type Page struct {
	Meta
	Items any `json:"items"`
}

func out(v any) {
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func fail(err error) {
	out(map[string]string{"error": err.Error()})
	os.Exit(0)
}

func usage(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}

func jobItems(stubs []*api.JobListStub) []Item {
	items := make([]Item, 0, len(stubs))
	for _, j := range stubs {
		items = append(items, Item{ID: j.ID, Namespace: j.Namespace, Status: j.Status, Detail: j.Type})
	}
	return items
}

func deploymentItems(ds []*api.Deployment) []Item {
	items := make([]Item, 0, len(ds))
	for _, d := range ds {
		items = append(items, Item{ID: d.ID, Namespace: d.Namespace, Status: d.Status, Detail: d.JobID})
	}
	return items
}

// endpoints names the lists a walk reads.
const endpoints = "jobs, deployments, allocations, nodes or evaluations"

// list reads one page of an endpoint with the client's List; its items (see Page) and their number.
func list(client *api.Client, endpoint string, q *api.QueryOptions) (any, int, *api.QueryMeta, error) {
	switch endpoint {
	case "jobs":
		stubs, meta, err := client.Jobs().List(q)
		return jobItems(stubs), len(stubs), meta, err
	case "deployments":
		ds, meta, err := client.Deployments().List(q)
		return deploymentItems(ds), len(ds), meta, err
	case "allocations":
		stubs, meta, err := client.Allocations().List(q)
		return stubs, len(stubs), meta, err
	case "nodes":
		stubs, meta, err := client.Nodes().List(q)
		return stubs, len(stubs), meta, err
	case "evaluations":
		evals, meta, err := client.Evaluations().List(q)
		return evals, len(evals), meta, err
	}
	usage("-endpoint: %s, not %q", endpoints, endpoint)
	return nil, 0, nil, nil
}

// params is a repeatable K=V flag: QueryOptions.Params.
type params map[string]string

func (p params) String() string { return fmt.Sprint(map[string]string(p)) }

func (p params) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("expected K=V, not %q", kv)
	}
	p[k] = v
	return nil
}

// walk lists an endpoint page by page, following NextToken to the end.
func walk(client *api.Client, args []string) {
	fs := flag.NewFlagSet("walk", flag.ExitOnError)
	endpoint := fs.String("endpoint", "jobs", endpoints)
	namespace := fs.String("namespace", "", "namespace (* for all)")
	filter := fs.String("filter", "", "filter expression")
	perPage := fs.Int("per-page", 0, "page size")
	prefix := fs.String("prefix", "", "QueryOptions.Prefix")
	extra := params{}
	fs.Var(extra, "param", "K=V, a query parameter (QueryOptions.Params), repeatable")
	_ = fs.Parse(args)
	q := &api.QueryOptions{Namespace: *namespace, Filter: *filter, PerPage: int32(*perPage), Prefix: *prefix}
	if len(extra) > 0 {
		q.Params = extra
	}
	pages := []Page{}
	for len(pages) < 10000 {
		items, _, meta, err := list(client, *endpoint, q)
		if err != nil {
			fail(err)
		}
		page := Page{Meta: metaOf(meta), Items: items}
		pages = append(pages, page)
		if page.NextToken == "" {
			break
		}
		q.NextToken = page.NextToken
	}
	out(map[string]any{"pages": pages})
}

// prefixList reads an endpoint with the client's PrefixList (one request: its default namespace, no paging).
func prefixList(client *api.Client, args []string) {
	fs := flag.NewFlagSet("prefix-list", flag.ExitOnError)
	endpoint := fs.String("endpoint", "nodes", "allocations, nodes or evaluations")
	prefix := fs.String("prefix", "", "the prefix")
	_ = fs.Parse(args)
	var items any
	var meta *api.QueryMeta
	var err error
	switch *endpoint {
	case "allocations":
		items, meta, err = client.Allocations().PrefixList(*prefix)
	case "nodes":
		items, meta, err = client.Nodes().PrefixList(*prefix)
	case "evaluations":
		items, meta, err = client.Evaluations().PrefixList(*prefix)
	default:
		usage("prefix-list: -endpoint allocations, nodes or evaluations, not %q", *endpoint)
	}
	if err != nil {
		fail(err)
	}
	out(Page{Meta: metaOf(meta), Items: items})
}

// block asks a list with WaitIndex and answers when the server does.
func block(client *api.Client, args []string) {
	fs := flag.NewFlagSet("block", flag.ExitOnError)
	index := fs.Uint64("index", 0, "WaitIndex")
	wait := fs.Duration("wait", 5*time.Minute, "WaitTime")
	endpoint := fs.String("endpoint", "jobs", endpoints)
	filter := fs.String("filter", "", "filter expression")
	_ = fs.Parse(args)
	start := time.Now()
	items, _, meta, err := list(client, *endpoint, &api.QueryOptions{WaitIndex: *index, WaitTime: *wait, Filter: *filter})
	if err != nil {
		fail(err)
	}
	out(map[string]any{"meta": metaOf(meta), "items": items, "waitedMs": time.Since(start).Milliseconds()})
}

// register registers a small service job with the client's Jobs().Register.
func register(client *api.Client, args []string) {
	fs := flag.NewFlagSet("register", flag.ExitOnError)
	id := fs.String("id", "", "job ID")
	namespace := fs.String("namespace", "", "namespace")
	count := fs.Int("count", 1, "task group count")
	_ = fs.Parse(args)
	job := api.NewServiceJob(*id, *id, "global", 50)
	job.Datacenters = []string{"dc1"}
	if *namespace != "" {
		job.Namespace = namespace
	}
	group := api.NewTaskGroup("web", *count)
	group.AddTask(api.NewTask("server", "docker"))
	job.AddTaskGroup(group)
	resp, meta, err := client.Jobs().Register(job, nil)
	if err != nil {
		fail(err)
	}
	out(map[string]any{"lastIndex": meta.LastIndex, "jobModifyIndex": resp.JobModifyIndex, "evalID": resp.EvalID})
}

// info reads one job with the client's Jobs().Info and prints it as the client decoded it (api.Job).
func info(client *api.Client, args []string) {
	fs := flag.NewFlagSet("info", flag.ExitOnError)
	namespace := fs.String("namespace", "", "namespace")
	index := fs.Uint64("index", 0, "WaitIndex")
	wait := fs.Duration("wait", 5*time.Minute, "WaitTime")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		usage("info [flags] JOB-ID")
	}
	job, meta, err := client.Jobs().Info(fs.Arg(0), &api.QueryOptions{Namespace: *namespace, WaitIndex: *index, WaitTime: *wait})
	if err != nil {
		fail(err)
	}
	out(map[string]any{"meta": metaOf(meta), "job": job})
}

// namespaces lists the namespaces with the client's Namespaces().List (or PrefixList with -prefix).
func namespaces(client *api.Client, args []string) {
	fs := flag.NewFlagSet("namespaces", flag.ExitOnError)
	prefix := fs.String("prefix", "", "name prefix")
	_ = fs.Parse(args)
	var names []*api.Namespace
	var meta *api.QueryMeta
	var err error
	if *prefix != "" {
		names, meta, err = client.Namespaces().PrefixList(*prefix, nil)
	} else {
		names, meta, err = client.Namespaces().List(nil)
	}
	if err != nil {
		fail(err)
	}
	out(map[string]any{"meta": metaOf(meta), "namespaces": names})
}

// status reads the leader, the peers and the regions with the client's Status() and Regions().
func status(client *api.Client) {
	leader, err := client.Status().Leader()
	if err != nil {
		fail(err)
	}
	peers, err := client.Status().Peers()
	if err != nil {
		fail(err)
	}
	regions, err := client.Regions().List()
	if err != nil {
		fail(err)
	}
	out(map[string]any{"leader": leader, "peers": peers, "regions": regions})
}

// events reads the event stream from an index until it has `count` events.
func events(client *api.Client, args []string) {
	fs := flag.NewFlagSet("events", flag.ExitOnError)
	index := fs.Uint64("index", 0, "index to resume from")
	count := fs.Int("count", 1, "events to read")
	topic := fs.String("topic", "Job", "topic")
	_ = fs.Parse(args)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := client.EventStream().Stream(ctx, map[api.Topic][]string{api.Topic(*topic): {"*"}}, *index, &api.QueryOptions{})
	if err != nil {
		fail(err)
	}
	type seen struct {
		Topic string `json:"topic"`
		Type  string `json:"type"`
		Key   string `json:"key"`
		Index uint64 `json:"index"`
		// What the client's typed accessor made of the payload: the job's ID, or its error.
		Decoded string `json:"decoded"`
	}
	got := []seen{}
	for frame := range ch {
		if frame.Err != nil {
			fail(frame.Err)
		}
		if frame.IsHeartbeat() {
			continue
		}
		for _, e := range frame.Events {
			decoded := ""
			switch e.Topic {
			case api.TopicJob:
				if job, err := e.Job(); err != nil {
					decoded = "error: " + err.Error()
				} else if job != nil && job.ID != nil {
					decoded = *job.ID
				}
			case api.TopicDeployment:
				if d, err := e.Deployment(); err != nil {
					decoded = "error: " + err.Error()
				} else if d != nil {
					decoded = d.ID
				}
			}
			got = append(got, seen{Topic: string(e.Topic), Type: e.Type, Key: e.Key, Index: e.Index, Decoded: decoded})
		}
		if len(got) >= *count {
			break
		}
	}
	out(map[string]any{"events": got})
}

func main() {
	addr := flag.String("addr", "", "the server's address (http://127.0.0.1:4646)")
	token := flag.String("token", "", "ACL token secret (sent as X-Nomad-Token)")
	flag.Parse()
	if *addr == "" || flag.NArg() == 0 {
		usage("usage: go-client -addr URL [-token SECRET] walk|prefix-list|block|register|info|namespaces|status|events [flags]")
	}
	config := api.DefaultConfig()
	config.Address = *addr
	config.SecretID = *token
	client, err := api.NewClient(config)
	if err != nil {
		fail(err)
	}
	mode, rest := flag.Arg(0), flag.Args()[1:]
	switch mode {
	case "walk":
		walk(client, rest)
	case "prefix-list":
		prefixList(client, rest)
	case "block":
		block(client, rest)
	case "register":
		register(client, rest)
	case "info":
		info(client, rest)
	case "namespaces":
		namespaces(client, rest)
	case "status":
		status(client)
	case "events":
		events(client, rest)
	default:
		usage("unknown mode %q", mode)
	}
}
