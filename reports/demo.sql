-- indexadvisor 0.1.0: index migration for notes.sqlite (SQLite 3.40.1), 2026-12-01T21:36:00Z.
-- 4 indexes to add, 1 to drop. Weighted workload time 37.25 s → 3.21 s (reads and writes, count × median).
-- Core Data / SwiftData store: adding an index is a schema change. Declare it in the model as well (#Index in a new VersionedSchema, see --format swift), so stores the app creates get it too.
-- Building them took 767.2 ms on this store (51.6 MiB) and adds 15.4 MiB: what the migration costs on a store of this size.
BEGIN;
-- 1. for S1, S2 (chosen for S3, S6 too, which a later pick took over): saves 29.15 s of reads, adds 8.86 ms of writes per workload; built in 246.3 ms, 2.9 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT");
-- 2. for S4: saves 4.68 s of reads, adds no measurable write time per workload; built in 144.5 ms, 4.3 MiB.
-- Left out: declare #Unique<Note>([\.remoteID]) instead (see --format swift); its unique index serves the same lookups, and this one beside it would be a second index for one job.
-- CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryremoteID" ON "ZNOTE" ("ZREMOTEID");
-- 3. chosen for S6, which a later pick took over: saves 7.19 ms of reads, adds 912.5 µs of writes per workload; built in 233.5 ms, 3.0 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedisPinnedupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED", "ZISPINNED", "ZUPDATEDAT");
-- 4. for S6: saves 5.00 ms of reads, adds 5.16 ms of writes per workload; built in 142.9 ms, 5.1 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryslugfolderID" ON "ZNOTE" ("ZSLUG", "ZFOLDERID");
-- Drop Z_Note_title on ZNOTE (ZTITLE): redundant: a left prefix of Z_Note_title_updatedAt; its cost to writes is inside the noise, frees 2.9 MiB.
DROP INDEX IF EXISTS "Z_Note_title";
COMMIT;

-- Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
-- S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
--   S7 118.6 ms per execution as it is.
