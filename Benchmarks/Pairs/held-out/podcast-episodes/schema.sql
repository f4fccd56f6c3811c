-- A podcast player: 1,200 shows of very different sizes, their episodes, and play state.
CREATE TABLE show (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  title TEXT NOT NULL,
  category TEXT NOT NULL,
  subscribed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE episode (
  id INTEGER PRIMARY KEY,
  show_id INTEGER NOT NULL REFERENCES show(id),
  guid TEXT NOT NULL,
  title TEXT NOT NULL,
  published_at INTEGER NOT NULL,
  duration INTEGER NOT NULL,
  played INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  downloaded INTEGER NOT NULL DEFAULT 0
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
INSERT INTO show SELECT i, 'https://feeds.example/' || i, bench_words(i, 1, 3),
  bench_pick(i, 2, 'news:30|comedy:20|science:15|history:10|sport:15|music:10'),
  CASE WHEN bench_rand(i, 3) < 0.05 THEN 1 ELSE 0 END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(180000))
INSERT INTO episode SELECT i, bench_zipf(i, 4, 1200, 0.9), printf('%08x-%04x', bench_int(i, 5, 0, 4294967295), i % 65536),
  bench_words(i, 6, 5), 700000000 + bench_int(i, 7, 0, 90000000), bench_int(i, 8, 300, 7200),
  CASE WHEN bench_rand(i, 9) < 0.6 THEN 1 ELSE 0 END, 0, CASE WHEN bench_rand(i, 10) < 0.03 THEN 1 ELSE 0 END FROM n;
