-- indexadvisor 0.1.0: index migration for notes.sqlite (SQLite 3.40.1), 2026-11-29T20:08:02Z.
-- 2 indexes to add, 0 to drop. Weighted workload time 20.85 s → 3.03 s (reads and writes, count × median).
-- Core Data / SwiftData store: adding an index is a schema change. Declare it in the model as well (#Index in a new VersionedSchema, see --format swift), so stores the app creates get it too.
-- Building them took 172.8 ms on this store (45.1 MiB) and adds 7.2 MiB: what the migration costs on a store of this size.
BEGIN;
-- 1. for S2, S3, S4, S7: saves 15.91 s of reads, adds 2.03 ms of writes per workload; built in 102.4 ms, 2.9 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryfolderIDisArchivedupdatedAt" ON "ZNOTE" ("ZFOLDERID", "ZISARCHIVED", "ZUPDATEDAT");
-- 2. for S5: saves 1.91 s of reads, adds 512.4 µs of writes per workload; built in 70.4 ms, 4.3 MiB.
CREATE INDEX IF NOT EXISTS "Z_Note_SwiftDataIndexOnBinaryremoteID" ON "ZNOTE" ("ZREMOTEID");
COMMIT;
