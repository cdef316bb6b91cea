// iceberg-go-client: iceberg-go (pinned in go.mod) as an interop client of an Iceberg REST catalog.
//
// One job, as JSON in argv[1] or on stdin:
//
//	{"op": "scan", "uri": "http://…", "warehouse": "fx", "planning": "server" | "client",
//	 "properties": {…}, "table": "db.events", "columns": ["id", …],
//	 "filter": <REST JSON expression, optional>, "snapshotId": "<int64 as a string, optional>",
//	 "out": "/path/rows.arrows"}
//	{"op": "list", "uri": …, "warehouse": …, "properties": {…}}
//	{"op": "write", "uri": …, "warehouse": …, "properties": {…}, "steps": [STEP, …]}
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
// write: iceberg-go's own writes through the REST catalog, in order, each step one commit (a
// step on a table loads it afresh, so it starts from the previous step's commit). A step:
//
//	{"op": "create_namespace", "namespace": "ns"}
//	    Catalog.CreateNamespace
//	{"op": "create_table", "table": "ns.t", "schema": [["id", "long"], …],
//	 "partition": [["name", "identity"], ["id", "bucket[2]"], …], "properties": {…}}
//	    Catalog.CreateTable with catalog.WithPartitionSpec and catalog.WithProperties; every
//	    field optional; a partition field is named after its column (+ "_bucket" etc.)
//	{"op": "append", "table": …, "rows": [{…}, …], "branch": "b1" (optional)}
//	    Transaction.Append; on a branch Table.NewTransactionOnBranch, whose first write forks
//	    the branch from main's head
//	{"op": "overwrite", "table": …, "rows": […], "filter": F}
//	    Transaction.Overwrite with table.WithOverwriteFilter(F): rows matching F replaced,
//	    copy-on-write (a file matching partly is rewritten)
//	{"op": "delete", "table": …, "filter": F}
//	    Transaction.Delete: copy-on-write, or with write.delete.mode=merge-on-read position
//	    delete files (v2) or deletion vectors (v3)
//	{"op": "add_column", "table": …, "name": …, "type": …}
//	    Transaction.UpdateSchema(…).AddColumn (optional)
//	{"op": "add_partition_field", "table": …, "column": …, "transform": "bucket[2]"}
//	    Transaction.UpdateSpec(…).AddField
//	{"op": "set_properties", "table": …, "properties": {…}}
//	    Transaction.SetProperties
//
// F is a REST JSON expression, parsed by iceberg.ParseExpr against the table's current schema.
// Types: long, int, string, double, boolean, date. Rows are JSON objects built into one Arrow
// record of the table's current schema (table.SchemaToArrowSchema, array.RecordFromJSON); a
// column a row lacks is null. stdout: {"ok": true, "snapshots": {"ns.t": "<main's current
// snapshot id, or null>", …}} for every table the steps touched, and "requests" as for scan.
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

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
	Steps      []step            `json:"steps"`
}

// step: one write of a `write` job (see the header).
type step struct {
	Op         string            `json:"op"`
	Namespace  string            `json:"namespace"`
	Table      string            `json:"table"`
	Schema     [][2]string       `json:"schema"`
	Partition  [][2]string       `json:"partition"`
	Properties map[string]string `json:"properties"`
	Rows       json.RawMessage   `json:"rows"`
	Branch     string            `json:"branch"`
	Filter     json.RawMessage   `json:"filter"`
	Name       string            `json:"name"`
	Type       string            `json:"type"`
	Column     string            `json:"column"`
	Transform  string            `json:"transform"`
}

type writeResult struct {
	OK        bool               `json:"ok"`
	Snapshots map[string]*string `json:"snapshots"`
	Requests  map[string]int     `json:"requests"`
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
	case "write":
		out, err := write(ctx, cat, j.Steps)
		if err != nil {
			return nil, err
		}
		transport.mu.Lock()
		defer transport.mu.Unlock()
		out.Requests = transport.byKind

		return out, nil
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

func ident(name string) table.Identifier {
	return catalog.ToIdentifier(strings.Split(name, ".")...)
}

// the column types a write job names, as pyiceberg_client.py spells them
var icebergTypes = map[string]iceberg.Type{
	"long":    iceberg.PrimitiveTypes.Int64,
	"int":     iceberg.PrimitiveTypes.Int32,
	"string":  iceberg.PrimitiveTypes.String,
	"double":  iceberg.PrimitiveTypes.Float64,
	"boolean": iceberg.PrimitiveTypes.Bool,
	"date":    iceberg.PrimitiveTypes.Date,
}

func icebergType(name string) (iceberg.Type, error) {
	if t, ok := icebergTypes[name]; ok {
		return t, nil
	}

	return nil, fmt.Errorf("unknown type %q", name)
}

// records: the step's JSON rows as one Arrow record of the table's current schema, handed to
// iceberg-go as a RecordReader (which it checks against the schema and writes as Parquet).
func records(tbl *table.Table, rows json.RawMessage) (array.RecordReader, error) {
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		return nil, fmt.Errorf("arrow schema: %w", err)
	}
	if len(rows) == 0 {
		rows = json.RawMessage("[]")
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, bytes.NewReader(rows))
	if err != nil {
		return nil, fmt.Errorf("rows as arrow: %w", err)
	}
	defer rec.Release()

	return array.NewRecordReader(sc, []arrow.RecordBatch{rec})
}

func filterOf(tbl *table.Table, raw json.RawMessage) (iceberg.BooleanExpression, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("step has no filter")
	}
	expr, err := iceberg.ParseExpr(raw, tbl.Schema())
	if err != nil {
		return nil, fmt.Errorf("filter %s: %w", raw, err)
	}

	return expr, nil
}

func write(ctx context.Context, cat *rest.Catalog, steps []step) (*writeResult, error) {
	touched := map[string]bool{}
	for i, st := range steps {
		if err := writeStep(ctx, cat, st); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", i+1, st.Op, err)
		}
		if st.Table != "" {
			touched[st.Table] = true
		}
	}
	out := &writeResult{OK: true, Snapshots: map[string]*string{}}
	for name := range touched {
		tbl, err := cat.LoadTable(ctx, ident(name))
		if err != nil {
			return nil, fmt.Errorf("load table %s: %w", name, err)
		}
		out.Snapshots[name] = nil
		if snap := tbl.CurrentSnapshot(); snap != nil {
			id := strconv.FormatInt(snap.SnapshotID, 10)
			out.Snapshots[name] = &id
		}
	}

	return out, nil
}

func writeStep(ctx context.Context, cat *rest.Catalog, st step) error {
	switch st.Op {
	case "create_namespace":
		return cat.CreateNamespace(ctx, ident(st.Namespace), nil)
	case "create_table":
		fields := make([]iceberg.NestedField, 0, len(st.Schema))
		for i, f := range st.Schema {
			typ, err := icebergType(f[1])
			if err != nil {
				return err
			}
			fields = append(fields, iceberg.NestedField{ID: i + 1, Name: f[0], Type: typ, Required: false})
		}
		schema := iceberg.NewSchema(0, fields...)
		var parts []iceberg.PartitionOption
		for _, p := range st.Partition {
			transform, err := iceberg.ParseTransform(p[1])
			if err != nil {
				return err
			}
			name := p[0]
			if p[1] != "identity" {
				name = p[0] + "_" + strings.SplitN(p[1], "[", 2)[0]
			}
			parts = append(parts, iceberg.AddPartitionFieldByName(p[0], name, transform, schema, nil))
		}
		spec, err := iceberg.NewPartitionSpecOpts(parts...)
		if err != nil {
			return err
		}
		opts := []catalog.CreateTableOpt{catalog.WithPartitionSpec(&spec)}
		if len(st.Properties) > 0 {
			opts = append(opts, catalog.WithProperties(iceberg.Properties(st.Properties)))
		}
		_, err = cat.CreateTable(ctx, ident(st.Table), schema, opts...)

		return err
	}

	tbl, err := cat.LoadTable(ctx, ident(st.Table))
	if err != nil {
		return fmt.Errorf("load table %s: %w", st.Table, err)
	}
	txn := tbl.NewTransaction()
	if st.Branch != "" {
		txn = tbl.NewTransactionOnBranch(st.Branch)
	}
	switch st.Op {
	case "append":
		rdr, err := records(tbl, st.Rows)
		if err != nil {
			return err
		}
		defer rdr.Release()
		if err := txn.Append(ctx, rdr, nil); err != nil {
			return err
		}
	case "overwrite":
		filter, err := filterOf(tbl, st.Filter)
		if err != nil {
			return err
		}
		rdr, err := records(tbl, st.Rows)
		if err != nil {
			return err
		}
		defer rdr.Release()
		if err := txn.Overwrite(ctx, rdr, nil, table.WithOverwriteFilter(filter)); err != nil {
			return err
		}
	case "delete":
		filter, err := filterOf(tbl, st.Filter)
		if err != nil {
			return err
		}
		if err := txn.Delete(ctx, filter, nil); err != nil {
			return err
		}
	case "add_column":
		typ, err := icebergType(st.Type)
		if err != nil {
			return err
		}
		if err := txn.UpdateSchema(true, false).AddColumn([]string{st.Name}, typ, "", false, nil).Commit(); err != nil {
			return err
		}
	case "add_partition_field":
		transform, err := iceberg.ParseTransform(st.Transform)
		if err != nil {
			return err
		}
		name := st.Column + "_" + strings.SplitN(st.Transform, "[", 2)[0]
		if err := txn.UpdateSpec(true).AddField(st.Column, transform, name).Commit(); err != nil {
			return err
		}
	case "set_properties":
		if err := txn.SetProperties(iceberg.Properties(st.Properties)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown step %q", st.Op)
	}
	_, err = txn.Commit(ctx)

	return err
}
