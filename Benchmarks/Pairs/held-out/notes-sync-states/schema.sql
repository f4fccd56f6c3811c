-- A notes app that syncs: a sync state that is 0 (clean) on almost every row, a trash timestamp that is
-- NULL on almost every row, and flag bits; edits are frequent.
CREATE TABLE note (
  id INTEGER PRIMARY KEY, notebook_id INTEGER NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, edited INTEGER NOT NULL,
  sync_state INTEGER NOT NULL DEFAULT 0, trashed_at INTEGER, flags INTEGER NOT NULL DEFAULT 0, server_id TEXT
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(120000))
INSERT INTO note SELECT i, bench_zipf(i, 1, 300, 0.9), bench_words(i, 2, 4), bench_words(i, 3, 30), i * 90,
  CASE WHEN bench_rand(i, 4) < 0.97 THEN 0 ELSE bench_int(i, 5, 1, 3) END,
  CASE WHEN bench_rand(i, 6) < 0.02 THEN i * 90 + 1000 END,
  (CASE WHEN bench_rand(i, 7) < 0.01 THEN 2 ELSE 0 END) | (CASE WHEN bench_rand(i, 8) < 0.3 THEN 1 ELSE 0 END),
  printf('srv-%08x', bench_int(i, 9, 0, 4294967295)) FROM n;
