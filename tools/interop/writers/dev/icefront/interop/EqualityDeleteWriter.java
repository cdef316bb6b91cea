/*
 * Writes two format-v2 tables with Iceberg Java 1.11.0's own writers (iceberg-data's generic
 * records, iceberg-parquet's Parquet.writeData / Parquet.writeDeletes) through an Iceberg REST
 * catalog, so the interop suite has equality deletes (Spark writes none) committed by the
 * reference implementation:
 *
 *   java -cp <fixture jars>:<writer jars>:<classes> dev.icefront.interop.EqualityDeleteWriter <catalog-uri> <warehouse>
 *
 * Creates namespace `db` if absent, then the tables `db.eq_part` (identity(region)) and
 * `db.eq_global` (unpartitioned), each with schema (id long, region string, qty int, note string
 * nullable), and fails if either exists. Rows follow one rule: region = id % 2 == 0 ? east : west,
 * qty = id * 10, note = id % 3 == 0 ? null : "n" + id (the re-inserted ids 3 and 4 excepted).
 *
 *   db.eq_part    1 append     ids 1..40, two data files per partition (ids <= 20, > 20)
 *                 2 row delta  equality deletes on id {3, 4, 10, 25}, one file per partition
 *                 3 row delta  equality deletes on qty {200, 310} (ids 20, 31), one per partition
 *                 4 append     ids 3 (west, 3333, "again") and 4 (east, 4444, "again"): they
 *                              survive, their data sequence number is above the deletes'
 *   db.eq_global  1 append     ids 1..30 in three data files (1..10, 11..20, 21..30)
 *                 2 row delta  one equality delete file on note {"n7", "n22"}
 *                 3 row delta  one position delete file: positions 0 and 1 of the first data
 *                              file (ids 1 and 2)
 *                 4 append     ids 31..35
 *
 * Files go through the table's FileIO at its location provider's paths, with the table's write
 * properties (default Parquet compression). Every commit is table.newAppend() or
 * table.newRowDelta(). Stdout gets exactly one JSON line describing what was committed (see
 * `main`); everything else, including anything a library prints, goes to stderr.
 */
package dev.icefront.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

public final class EqualityDeleteWriter {
  private EqualityDeleteWriter() {}

  static final Namespace DB = Namespace.of("db");

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "region", Types.StringType.get()),
          Types.NestedField.required(3, "qty", Types.IntegerType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()));

  /** What one commit added: the snapshot plus the files, for the JSON line. */
  private static final class Commit {
    final List<Map<String, Object>> dataFiles = new ArrayList<>();
    final List<Map<String, Object>> deleteFiles = new ArrayList<>();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: EqualityDeleteWriter <catalog-uri> <warehouse>");
      System.exit(2);
    }
    // Stdout carries the one result line; anything else written to it lands on stderr.
    PrintStream result = System.out;
    System.setOut(System.err);
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    String uri = args[0];
    String warehouse = args[1];

    Map<String, Object> tables = new LinkedHashMap<>();
    try (RESTCatalog catalog = new RESTCatalog()) {
      Map<String, String> props = new TreeMap<>();
      props.put("uri", uri);
      props.put("warehouse", warehouse);
      catalog.initialize("icefront", props);
      if (!catalog.namespaceExists(DB)) {
        catalog.createNamespace(DB);
        log("created namespace db");
      }
      tables.put("db.eq_part", writeEqPart(catalog));
      tables.put("db.eq_global", writeEqGlobal(catalog));
    }

    Map<String, Object> out = new LinkedHashMap<>();
    out.put("uri", uri);
    out.put("warehouse", warehouse);
    out.put("tables", tables);
    result.println(new ObjectMapper().writeValueAsString(out));
    result.flush();
  }

  static Map<String, Object> writeEqPart(RESTCatalog catalog) throws IOException {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("region").build();
    Table table = create(catalog, "eq_part", spec);
    List<Map<String, Object>> commits = new ArrayList<>();

    // (1) ids 1..40, two data files per partition: ids <= 20 and ids > 20.
    Commit c1 = new Commit();
    var append = table.newAppend();
    for (String region : List.of("east", "west")) {
      for (int[] range : new int[][] {{1, 20}, {21, 40}}) {
        List<Record> rows = new ArrayList<>();
        for (long id = range[0]; id <= range[1]; id++) {
          if (region(id).equals(region)) rows.add(row(table.schema(), id, region(id), (int) (id * 10), note(id)));
        }
        DataFile f = writeData(table, partition(table, rows.get(0)), rows);
        append.appendFile(f);
        c1.dataFiles.add(describe(f, Map.of("ids", idsOf(rows))));
      }
    }
    commits.add(commit(table, append, c1));

    // (2) equality deletes on id, one file per partition holding that partition's ids.
    commits.add(equalityDeletesPerPartition(table, "id", Map.of("east", List.of(4L, 10L), "west", List.of(3L, 25L))));
    // (3) equality deletes on qty: 200 (id 20, east) and 310 (id 31, west).
    commits.add(equalityDeletesPerPartition(table, "qty", Map.of("east", List.of(200), "west", List.of(310))));

    // (4) re-insert ids 3 and 4 with new values: newer than both deletes, so they survive.
    Commit c4 = new Commit();
    var reinsert = table.newAppend();
    for (Record r : List.of(row(table.schema(), 3L, "west", 3333, "again"), row(table.schema(), 4L, "east", 4444, "again"))) {
      DataFile f = writeData(table, partition(table, r), List.of(r));
      reinsert.appendFile(f);
      c4.dataFiles.add(describe(f, Map.of("ids", idsOf(List.of(r)))));
    }
    commits.add(commit(table, reinsert, c4));
    return describe(table, commits);
  }

  static Map<String, Object> writeEqGlobal(RESTCatalog catalog) throws IOException {
    Table table = create(catalog, "eq_global", PartitionSpec.unpartitioned());
    List<Map<String, Object>> commits = new ArrayList<>();

    // (1) ids 1..30 in three files, in id order (positions 0 and 1 of the first are ids 1, 2).
    Commit c1 = new Commit();
    var append = table.newAppend();
    DataFile first = null;
    for (int start = 1; start <= 21; start += 10) {
      List<Record> rows = rows(table.schema(), start, start + 9);
      DataFile f = writeData(table, null, rows);
      if (first == null) first = f;
      append.appendFile(f);
      c1.dataFiles.add(describe(f, Map.of("ids", idsOf(rows))));
    }
    commits.add(commit(table, append, c1));

    // (2) one equality delete file on note: "n7" (id 7) and "n22" (id 22).
    Commit c2 = new Commit();
    DeleteFile eq = writeEqualityDeletes(table, null, "note", List.of("n7", "n22"));
    c2.deleteFiles.add(describe(eq, Map.of("field", "note", "values", List.of("n7", "n22"))));
    commits.add(commit(table, table.newRowDelta().addDeletes(eq), c2));

    // (3) one position delete file: positions 0 and 1 of the first data file (ids 1 and 2).
    Commit c3 = new Commit();
    DeleteFile pos = writePositionDeletes(table, first.location(), List.of(0L, 1L));
    c3.deleteFiles.add(describe(pos, Map.of("dataFile", first.location(), "positions", List.of(0L, 1L))));
    var rowDelta =
        table
            .newRowDelta()
            .addDeletes(pos)
            .validateFromSnapshot(table.currentSnapshot().snapshotId())
            .validateDataFilesExist(List.of(first.location()));
    commits.add(commit(table, rowDelta, c3));

    // (4) ids 31..35.
    Commit c4 = new Commit();
    List<Record> rows = rows(table.schema(), 31, 35);
    DataFile f = writeData(table, null, rows);
    c4.dataFiles.add(describe(f, Map.of("ids", idsOf(rows))));
    commits.add(commit(table, table.newAppend().appendFile(f), c4));
    return describe(table, commits);
  }

  static Table create(RESTCatalog catalog, String name, PartitionSpec spec) {
    Table table =
        catalog
            .buildTable(TableIdentifier.of(DB, name), SCHEMA)
            .withPartitionSpec(spec)
            .withProperty(TableProperties.FORMAT_VERSION, "2")
            .create();
    log("created db." + name + " at " + table.location());
    return table;
  }

  /** One row delta: for each partition (east, west), one equality delete file on `field`. */
  static Map<String, Object> equalityDeletesPerPartition(Table table, String field, Map<String, List<?>> valuesByRegion)
      throws IOException {
    Commit c = new Commit();
    var rowDelta = table.newRowDelta();
    for (String region : List.of("east", "west")) {
      List<?> values = valuesByRegion.get(region);
      PartitionKey key = new PartitionKey(table.spec(), table.schema());
      key.partition(row(table.schema(), 0L, region, 0, null));
      DeleteFile f = writeEqualityDeletes(table, key, field, values);
      rowDelta.addDeletes(f);
      c.deleteFiles.add(describe(f, Map.of("field", field, "values", values)));
    }
    return commit(table, rowDelta, c);
  }

  static DataFile writeData(Table table, StructLike partition, List<Record> rows) throws IOException {
    OutputFile out = newFile(table, partition, "data");
    DataWriter<Record> writer =
        Parquet.writeData(out)
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .createWriterFunc(GenericParquetWriter::create)
            .build();
    try (writer) {
      for (Record r : rows) writer.write(r);
    }
    return writer.toDataFile();
  }

  static DeleteFile writeEqualityDeletes(Table table, StructLike partition, String field, List<?> values) throws IOException {
    Schema deleteSchema = table.schema().select(field);
    int fieldId = table.schema().findField(field).fieldId();
    OutputFile out = newFile(table, partition, "eq-delete");
    org.apache.iceberg.deletes.EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(out)
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .rowSchema(deleteSchema)
            .equalityFieldIds(fieldId)
            .createWriterFunc(GenericParquetWriter::create)
            .buildEqualityWriter();
    try (writer) {
      for (Object v : values) {
        Record r = GenericRecord.create(deleteSchema);
        r.setField(field, v);
        writer.write(r);
      }
    }
    return writer.toDeleteFile();
  }

  /** Path-and-position deletes only (no deleted row data), as Spark's merge-on-read writes them. */
  static DeleteFile writePositionDeletes(Table table, String dataFile, List<Long> positions) throws IOException {
    OutputFile out = newFile(table, null, "pos-delete");
    PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(out)
            .setAll(table.properties())
            .metricsConfig(MetricsConfig.forPositionDelete())
            .withSpec(table.spec())
            .buildPositionWriter();
    try (writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (long pos : positions) writer.write(delete.set(dataFile, pos));
    }
    return writer.toDeleteFile();
  }

  static OutputFile newFile(Table table, StructLike partition, String kind) {
    String name = kind + "-" + UUID.randomUUID() + ".parquet";
    String location =
        partition == null
            ? table.locationProvider().newDataLocation(name)
            : table.locationProvider().newDataLocation(table.spec(), partition, name);
    return table.io().newOutputFile(location);
  }

  /** Commits, then describes the snapshot the commit made (the table is refreshed by commit). */
  static Map<String, Object> commit(Table table, SnapshotUpdate<?> update, Commit c) {
    update.commit();
    Snapshot s = table.currentSnapshot();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("operation", s.operation());
    m.put("snapshotId", Long.toString(s.snapshotId()));
    m.put("parentId", s.parentId() == null ? null : Long.toString(s.parentId()));
    m.put("sequenceNumber", s.sequenceNumber());
    m.put("dataFiles", c.dataFiles);
    m.put("deleteFiles", c.deleteFiles);
    log(table.name() + ": committed " + s.operation() + " " + s.snapshotId() + " (sequence number " + s.sequenceNumber() + ")");
    return m;
  }

  static Map<String, Object> describe(Table table, List<Map<String, Object>> commits) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("location", table.location());
    m.put("formatVersion", 2);
    m.put("partitioned", table.spec().isPartitioned());
    m.put("commits", commits);
    return m;
  }

  static Map<String, Object> describe(org.apache.iceberg.ContentFile<?> f, Map<String, Object> extra) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("content", f.content().name().toLowerCase());
    m.put("path", f.location());
    m.put("partition", f.partition().size() == 0 ? null : Map.of("region", f.partition().get(0, String.class)));
    m.put("recordCount", f.recordCount());
    if (f.equalityFieldIds() != null) m.put("equalityFieldIds", f.equalityFieldIds());
    m.putAll(new TreeMap<>(extra));
    return m;
  }

  static List<Record> rows(Schema schema, long from, long to) {
    List<Record> rows = new ArrayList<>();
    for (long id = from; id <= to; id++) rows.add(row(schema, id, region(id), (int) (id * 10), note(id)));
    return rows;
  }

  static Record row(Schema schema, long id, String region, int qty, String note) {
    Record r = GenericRecord.create(schema);
    r.setField("id", id);
    r.setField("region", region);
    r.setField("qty", qty);
    r.setField("note", note);
    return r;
  }

  static String region(long id) {
    return id % 2 == 0 ? "east" : "west";
  }

  static String note(long id) {
    return id % 3 == 0 ? null : "n" + id;
  }

  static PartitionKey partition(Table table, Record r) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(r);
    return key;
  }

  static List<Long> idsOf(List<Record> rows) {
    Function<Record, Long> id = r -> (Long) r.getField("id");
    return rows.stream().map(id).toList();
  }

  static void log(String message) {
    System.err.println("[EqualityDeleteWriter] " + message);
  }
}
