// many-clients-go: one iceberg-go client of bench/many-clients.ts, planning one table once.
//
// iceberg-go (pinned in go.mod: v0.7.0, as tools/interop/iceberg-go, plus what its S3 FileIO,
// io/gocloud/s3, needs) is given one job as JSON in argv[1]:
//
//	{"uri": "http://…", "warehouse": "fx" (optional), "planning": "server" | "client",
//	 "properties": {"s3.endpoint": …, …}, "table": "ns.t", "filter": <REST JSON expression, optional>}
//
// It makes the REST catalog (rest.NewCatalog: GET /v1/config), prints `READY`, and waits for a
// line on stdin: the start barrier, released for every client at once. Then, timed: LoadTable,
// then Scan(...).PlanFiles with table.WithScanPlanningMode: server is ScanPlanningRemote (POST
// …/plan, GET …/plan/{id} while submitted, POST …/tasks for every plan task, at most GOMAXPROCS
// at once), client is ScanPlanningLocal (the manifest list and every manifest read here, through
// the table's S3 FileIO: the `s3.*` properties). Nothing is read from data files.
//
// stdout, one JSON line: {"ok": true, "files": distinct data files planned, "tasks": n,
// "startEpochMs": barrier passed, "endEpochMs": last file planned, "loadMs", "planMs",
// "maxRssKB": the process's peak resident set (getrusage), "requests": catalog requests by kind}.
// Errors: {"ok": false, "error": "…"}, exit 1.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	// the s3:// FileIO, registered by importing it (iceberg-go 0.7 registers none by default)
	_ "github.com/apache/iceberg-go/io/gocloud/s3"
	"github.com/apache/iceberg-go/table"
)

type job struct {
	URI        string            `json:"uri"`
	Warehouse  string            `json:"warehouse"`
	Planning   string            `json:"planning"`
	Properties map[string]string `json:"properties"`
	Table      string            `json:"table"`
	Filter     json.RawMessage   `json:"filter"`
}

type result struct {
	OK           bool           `json:"ok"`
	Files        int            `json:"files"`
	Tasks        int            `json:"tasks"`
	StartEpochMs float64        `json:"startEpochMs"`
	EndEpochMs   float64        `json:"endEpochMs"`
	LoadMs       float64        `json:"loadMs"`
	PlanMs       float64        `json:"planMs"`
	MaxRssKB     int64          `json:"maxRssKB"`
	Requests     map[string]int `json:"requests"`
}

// counting is the HTTP transport under iceberg-go's REST session: catalog requests by kind.
type counting struct {
	base   http.RoundTripper
	mu     sync.Mutex
	byKind map[string]int
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	kind := "other"
	switch {
	case strings.HasSuffix(p, "/v1/config"):
		kind = "config"
	case strings.HasSuffix(p, "/plan"):
		kind = "plan"
	case strings.Contains(p, "/plan/"):
		kind = "plan/{id}"
	case strings.HasSuffix(p, "/tasks"):
		kind = "tasks"
	case strings.Contains(p, "/tables/"):
		kind = "table"
	}
	c.mu.Lock()
	c.byKind[r.Method+" "+kind]++
	c.mu.Unlock()

	return c.base.RoundTrip(r)
}

func epochMs(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }

func main() {
	out, err := run()
	if err != nil {
		_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"ok": false, "error": err.Error()})
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

func run() (*result, error) {
	if len(os.Args) < 2 {
		return nil, fmt.Errorf("usage: many-clients-go '<job json>'")
	}
	var j job
	if err := json.Unmarshal([]byte(os.Args[1]), &j); err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	mode := table.ScanPlanningLocal
	switch j.Planning {
	case "server":
		mode = table.ScanPlanningRemote
	case "client", "":
	default:
		return nil, fmt.Errorf("unknown planning %q (server or client)", j.Planning)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	transport := &counting{base: http.DefaultTransport.(*http.Transport).Clone(), byKind: map[string]int{}}
	opts := []rest.Option{rest.WithCustomTransport(transport)}
	if j.Warehouse != "" {
		opts = append(opts, rest.WithWarehouseLocation(j.Warehouse))
	}
	if len(j.Properties) > 0 {
		props := iceberg.Properties{}
		for k, v := range j.Properties {
			props[k] = v
		}
		opts = append(opts, rest.WithAdditionalProps(props))
	}
	cat, err := rest.NewCatalog(ctx, "bench", j.URI, opts...)
	if err != nil {
		return nil, fmt.Errorf("rest catalog %s: %w", j.URI, err)
	}
	defer cat.Close()

	// the start barrier: one line on stdin
	fmt.Println("READY")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return nil, fmt.Errorf("waiting for the start line: %w", err)
	}
	start := time.Now()
	tbl, err := cat.LoadTable(ctx, catalog.ToIdentifier(strings.Split(j.Table, ".")...))
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", j.Table, err)
	}
	loaded := time.Now()
	scanOpts := []table.ScanOption{table.WithScanPlanningMode(mode)}
	if len(j.Filter) > 0 && string(j.Filter) != "null" {
		expr, err := iceberg.ParseExpr(j.Filter, tbl.Metadata().CurrentSchema())
		if err != nil {
			return nil, fmt.Errorf("filter %s: %w", j.Filter, err)
		}
		scanOpts = append(scanOpts, table.WithRowFilter(expr))
	}
	s := tbl.Scan(scanOpts...)
	defer s.Close()
	tasks, err := s.PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("plan files (%s planning): %w", mode, err)
	}
	// a file may come as several tasks (split offsets): count the files
	files := make(map[string]struct{}, len(tasks))
	for _, t := range tasks {
		files[t.File.FilePath()] = struct{}{}
	}
	end := time.Now()

	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	transport.mu.Lock()
	defer transport.mu.Unlock()

	return &result{
		OK: true, Files: len(files), Tasks: len(tasks),
		StartEpochMs: epochMs(start), EndEpochMs: epochMs(end),
		LoadMs: float64(loaded.Sub(start).Microseconds()) / 1000, PlanMs: float64(end.Sub(loaded).Microseconds()) / 1000,
		MaxRssKB: ru.Maxrss, Requests: transport.byKind,
	}, nil
}
