-- indexadvisor 0.1.0: index migration for notes.sqlite (SQLite 3.40.1), 2026-12-03T20:28:23Z.
-- 3 indexes to add, 1 to drop. Weighted workload time 26.94 s → 1.59 s (reads and writes, count × median).
-- SwiftData store: adding an index is a schema change. Declare it in the model as well (#Index in a new VersionedSchema, see --format swift), so stores the app creates get it too.
-- Building them took 243.8 ms on this store (51.6 MiB) and adds 10.7 MiB: what the migration costs on a store of this size.
BEGIN;
-- 1. for S1, S2, S3 (chosen for S6 too, which a later pick took over): saves 20.17 s of reads (S1, S2 and S3), adds 1.24 ms of writes (spread 1.14 ms–1.28 ms; SQLite's counters: 1.88 ms) per workload; built in 121.4 ms, 2.9 MiB.
-- SwiftData: declare #Index<Note>([\.folderID, \.isArchived, \.updatedAt]) in a new VersionedSchema.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT");
-- 2. for S4: saves 4.16 s of reads (S4), adds 523.9 µs of writes (spread 499.9 µs–525.2 µs; SQLite's counters: 487.5 µs) per workload; built in 62.4 ms, 4.3 MiB.
-- Left out: declare #Unique<Note>([\.remoteID]) instead (see --format swift); its unique index serves the same lookups, and this one beside it would be a second index for one job.
-- CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryremoteID" ON "ZNOTE" ("ZREMOTEID");
-- 3. for S6: saves 1.02 s of reads (S6), adds 422.3 µs of writes (spread 403.0 µs–423.4 µs; SQLite's counters: 393.0 µs) per workload; built in 60.1 ms, 3.5 MiB.
-- SwiftData: declare #Index<Note>([\.slug]) in a new VersionedSchema.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryslug" ON "ZNOTE" ("ZSLUG");
-- Drop Z_Note_title on ZNOTE (ZTITLE): redundant: a left prefix of Z_Note_title_updatedAt; dropping it saves 401.2 µs of writes per workload, frees 2.9 MiB.
DROP INDEX IF EXISTS "Z_Note_title";
COMMIT;

-- Query-side advice (not applied here; the Markdown and HTML reports show plans and spreads):
-- S7, substring search no B-tree serves: ZNOTE is searched by substring (NSCoreDataStringSearch), which no B-tree index can serve: SQLite reads every row. A full-text index (an FTS5 table over the searched text, queried with MATCH) can; for Core Data's CONTAINS[cd], a normalised (lower-cased, diacritic-free) copy of the text searched with BEGINSWITH also can.
--   S7 61.4 ms per execution as it is.
