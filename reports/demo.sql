-- indexadvisor 0.1.0: index migration for notes.sqlite (SQLite 3.40.1), 2026-11-30T21:59:46Z.
-- 2 indexes to add, 1 to drop. Weighted workload time 41.92 s → 11.72 s (reads and writes, count × median).
-- Core Data / SwiftData store: adding an index is a schema change. Declare it in the model as well (#Index in a new VersionedSchema, see --format swift), so stores the app creates get it too.
-- Building them took 545.1 ms on this store (51.6 MiB) and adds 7.2 MiB: what the migration costs on a store of this size.
BEGIN;
-- 1. for S1, S2, S3, S6: saves 26.13 s of reads, adds 17.0 ms of writes per workload; built in 240.3 ms, 2.9 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT");
-- 2. for S4: saves 4.58 s of reads, adds 118.6 µs of writes per workload; built in 304.8 ms, 4.3 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryremoteID" ON "ZNOTE" ("ZREMOTEID");
-- Drop Z_Note_title on ZNOTE (ZTITLE): redundant: a left prefix of Z_Note_title_updatedAt; dropping it saves 1.81 ms of writes per workload, frees 2.9 MiB.
DROP INDEX IF EXISTS "Z_Note_title";
COMMIT;

-- Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
-- S7, sort under a collation no index carries: ORDER BY ZTITLE COLLATE NSCollateFinderlike cannot use an index: the collation exists only on the app's connection. Sort with a binary comparator (SwiftData: `SortDescriptor(\.property, comparator: .lexical)`; Core Data: `compare:`) and an index on ZTITLE can return rows in order.
--   S7 525.8 ms → 497.6 ms per execution with the change (within the noise).
--   Caveat: rows then come in byte order (upper case before lower case, no locale rules); sort for display in the app if that matters
--     SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZUPDATEDAT FROM ZNOTE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE
-- S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
--   S7 525.8 ms per execution as it is.
