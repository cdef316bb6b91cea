// iceberg-go-client: iceberg-go (pinned in go.mod) as an interop client of an Iceberg REST catalog.
//
// One job, as JSON in argv[1] or on stdin:
//
//	{"op": "scan", "uri": "http://…", "warehouse": "fx", "planning": "server" | "client",
//	 "properties": {…}, "table": "db.events", "columns": ["id", …],
//	 "filter": <REST JSON expression, optional>, "snapshotId": "<int64 as a string, optional>",
//	 "out": "/path/rows.arrows"}
//	{"op": "list", "uri": …, "warehouse": …, "properties": {…}}
//
// scan: loads the table through iceberg-go's REST catalog, plans it (server: the scan option
// table.WithScanPlanningMode(table.ScanPlanningRemote), i.e. POST …/plan, GET …/plan/{id} while
// `submitted`, POST …/tasks for every plan task; client: ScanPlanningLocal, manifests read
// here), reads the planned tasks (Scan.ReadTasks: projection, residuals, position and equality
// deletes, deletion vectors) and writes the rows as an Arrow IPC stream to `out`. The filter is
// parsed by iceberg-go's own REST-expression parser (iceberg.ParseExpr) against the scan's schema.
// stdout: one JSON line {"files": [data files planned], "deletes": ["<data> <- <delete>", …],
// "tasks": n, "rows": n, "planning": "remote"|"local", "requests": {"POST plan": n, …},
// "maxTasksInFlight": n, "maxPlanTasksListed": n, "gomaxprocs": n}: what iceberg-go sent and
// got, seen at its HTTP transport.
//
// list: {"namespaces": [["db"], …], "tables": ["db.events", …]}.
//
// Errors: exit 1, one JSON line {"error": "…"} on stdout.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
)

type job struct {
	Op         string            `json:"op"`
	URI        string            `json:"uri"`
	Warehouse  string            `json:"warehouse"`
	Planning   string            `json:"planning"`
	Properties map[string]string `json:"properties"`
	Table      string            `json:"table"`
	Columns    []string          `json:"columns"`
	Filter     json.RawMessage   `json:"filter"`
	SnapshotID string            `json:"snapshotId"`
	Out        string            `json:"out"`
}

type scanResult struct {
	Files    []string `json:"files"`
	Deletes  []string `json:"deletes"`
	Tasks    int      `json:"tasks"`
	Rows     int64    `json:"rows"`
	Planning string   `json:"planning"`
	// Requests iceberg-go sent, by kind ("POST plan", "POST tasks", "GET plan/{id}",
	// "DELETE plan/{id}", "GET config", "GET table", …), and the most POST …/tasks requests it
	// had in flight at once (seen at the HTTP transport).
	Requests         map[string]int `json:"requests"`
	MaxTasksInFlight int            `json:"maxTasksInFlight"`
	// The most plan tasks one /plan or /tasks answer listed: iceberg-go fetches those together.
	MaxPlanTasksListed int `json:"maxPlanTasksListed"`
	// GOMAXPROCS: iceberg-go's default bound on concurrent POST …/tasks (and file reads).
	GoMaxProcs int `json:"gomaxprocs"`
}

// counting is the HTTP transport under iceberg-go's REST session: it counts requests by kind
// and the POST …/tasks requests in flight at once.
type counting struct {
	base          http.RoundTripper
	mu            sync.Mutex
	byKind        map[string]int
	tasksInFlight int
	maxTasks      int
	maxListed     int
}

func kindOf(r *http.Request) string {
	p := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case strings.HasSuffix(p, "/v1/config"):
		return r.Method + " config"
	case strings.HasSuffix(p, "/plan"):
		return r.Method + " plan"
	case strings.Contains(p, "/plan/"):
		return r.Method + " plan/{id}"
	case strings.HasSuffix(p, "/tasks"):
		return r.Method + " tasks"
	case strings.Contains(p, "/tables/"):
		return r.Method + " table"
	case strings.HasSuffix(p, "/tables"):
		return r.Method + " tables"
	case strings.HasSuffix(p, "/namespaces"):
		return r.Method + " namespaces"
	default:
		return r.Method + " other"
	}
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	kind := kindOf(r)
	tasks := kind == "POST tasks"
	c.mu.Lock()
	c.byKind[kind]++
	if tasks {
		c.tasksInFlight++
		c.maxTasks = max(c.maxTasks, c.tasksInFlight)
	}
	c.mu.Unlock()
	resp, err := c.base.RoundTrip(r)
	if tasks {
		c.mu.Lock()
		c.tasksInFlight--
		c.mu.Unlock()
	}
	if err == nil && resp.StatusCode == http.StatusOK && (tasks || kind == "POST plan") {
		// Peek at the answer's plan-tasks (the body is handed on unchanged).
		body, readErr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if readErr != nil {
			return resp, nil // iceberg-go sees the same short body and reports it
		}
		var listed struct {
			PlanTasks []string `json:"plan-tasks"`
		}
		if json.Unmarshal(body, &listed) == nil {
			c.mu.Lock()
			c.maxListed = max(c.maxListed, len(listed.PlanTasks))
			c.mu.Unlock()
		}
	}

	return resp, err
}

type listResult struct {
	Namespaces [][]string `json:"namespaces"`
	Tables     []string   `json:"tables"`
}

func main() {
	var raw []byte
	var err error
	if len(os.Args) > 1 {
		raw = []byte(os.Args[1])
	} else {
		raw, err = io.ReadAll(os.Stdin)
	}
	if err == nil {
		var out any
		out, err = run(raw)
		if err == nil {
			_ = json.NewEncoder(os.Stdout).Encode(out)
			return
		}
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"error": err.Error()})
	os.Exit(1)
}

func run(raw []byte) (any, error) {
	var j job
	if err := json.Unmarshal(raw, &j); err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
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
		// Iceberg's `token` property: a bearer token (iceberg-go reads it from the server's config only)
		if token, ok := j.Properties["token"]; ok {
			opts = append(opts, rest.WithOAuthToken(token))
		}
	}
	cat, err := rest.NewCatalog(ctx, "interop", j.URI, opts...)
	if err != nil {
		return nil, fmt.Errorf("rest catalog %s: %w", j.URI, err)
	}
	defer cat.Close()
	switch j.Op {
	case "list":
		return list(ctx, cat)
	case "scan", "":
		out, err := scan(ctx, cat, j)
		if err != nil {
			return nil, err
		}
		transport.mu.Lock()
		defer transport.mu.Unlock()
		out.Requests = transport.byKind
		out.MaxTasksInFlight = transport.maxTasks
		out.MaxPlanTasksListed = transport.maxListed
		out.GoMaxProcs = runtime.GOMAXPROCS(0)

		return out, nil
	default:
		return nil, fmt.Errorf("unknown op %q", j.Op)
	}
}

func list(ctx context.Context, cat *rest.Catalog) (*listResult, error) {
	out := &listResult{Namespaces: [][]string{}, Tables: []string{}}
	namespaces, err := cat.ListNamespaces(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	for _, ns := range namespaces {
		out.Namespaces = append(out.Namespaces, ns)
		for ident, err := range cat.ListTables(ctx, ns) {
			if err != nil {
				return nil, fmt.Errorf("list tables of %s: %w", strings.Join(ns, "."), err)
			}
			out.Tables = append(out.Tables, strings.Join(ident, "."))
		}
	}
	slices.Sort(out.Tables)

	return out, nil
}

func scan(ctx context.Context, cat *rest.Catalog, j job) (*scanResult, error) {
	if j.Out == "" {
		return nil, errors.New("job has no out file")
	}
	tbl, err := cat.LoadTable(ctx, catalog.ToIdentifier(strings.Split(j.Table, ".")...))
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", j.Table, err)
	}
	mode := table.ScanPlanningLocal
	switch j.Planning {
	case "server":
		mode = table.ScanPlanningRemote
	case "client", "":
	default:
		return nil, fmt.Errorf("unknown planning %q (server or client)", j.Planning)
	}
	scanOpts := []table.ScanOption{table.WithScanPlanningMode(mode)}
	if len(j.Columns) > 0 {
		scanOpts = append(scanOpts, table.WithSelectedFields(j.Columns...))
	}
	// The schema the filter binds to: the snapshot's for time travel (as Scan does), else the current one.
	schema := tbl.Metadata().CurrentSchema()
	if j.SnapshotID != "" {
		id, err := strconv.ParseInt(j.SnapshotID, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("snapshotId %q: %w", j.SnapshotID, err)
		}
		scanOpts = append(scanOpts, table.WithSnapshotID(id))
		snap := tbl.Metadata().SnapshotByID(id)
		if snap == nil {
			return nil, fmt.Errorf("table %s has no snapshot %d", j.Table, id)
		}
		if snap.SchemaID != nil {
			for _, s := range tbl.Metadata().Schemas() {
				if s.ID == *snap.SchemaID {
					schema = s
				}
			}
		}
	}
	if len(j.Filter) > 0 && string(j.Filter) != "null" {
		expr, err := iceberg.ParseExpr(j.Filter, schema)
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
	out := &scanResult{Files: []string{}, Deletes: []string{}, Tasks: len(tasks), Planning: string(mode)}
	files := map[string]bool{}
	deletes := map[string]bool{}
	for _, t := range tasks {
		data := t.File.FilePath()
		files[data] = true
		for _, group := range [][]iceberg.DataFile{t.DeleteFiles, t.EqualityDeleteFiles, t.DeletionVectorFiles} {
			for _, d := range group {
				deletes[data+" <- "+d.FilePath()] = true
			}
		}
	}
	for f := range files {
		out.Files = append(out.Files, f)
	}
	for d := range deletes {
		out.Deletes = append(out.Deletes, d)
	}
	slices.Sort(out.Files)
	slices.Sort(out.Deletes)

	arrowSchema, records, err := s.ReadTasks(ctx, tasks)
	if err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	f, err := os.Create(j.Out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := ipc.NewWriter(f, ipc.WithSchema(arrowSchema))
	for rec, err := range records {
		if err != nil {
			return nil, fmt.Errorf("read records: %w", err)
		}
		out.Rows += rec.NumRows()
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			return nil, fmt.Errorf("write arrow stream: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}

	return out, nil
}
