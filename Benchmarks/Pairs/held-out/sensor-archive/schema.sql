-- A year of readings from 900 sensors: a table of several hundred megabytes, far larger than SQLite's page cache.
CREATE TABLE sensor (
  id INTEGER PRIMARY KEY, site TEXT NOT NULL, kind TEXT NOT NULL, active INTEGER NOT NULL
);
CREATE TABLE reading (
  id INTEGER PRIMARY KEY, sensor_id INTEGER NOT NULL, taken INTEGER NOT NULL, value REAL NOT NULL,
  quality INTEGER NOT NULL, raw TEXT NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900)
INSERT INTO sensor SELECT i, 'site-' || bench_int(i, 1, 1, 40), bench_pick(i, 2, 'temp:50|humidity:30|co2:20'), CASE WHEN bench_rand(i, 3) < 0.9 THEN 1 ELSE 0 END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(900000))
INSERT INTO reading SELECT i, bench_int(i, 4, 1, 900), i * 35, bench_int(i, 5, 0, 10000) / 100.0,
  CASE WHEN bench_rand(i, 6) < 0.995 THEN 0 ELSE bench_int(i, 7, 1, 3) END,
  printf('%s|%s|%08x', bench_words(i, 8, 4), bench_words(i, 9, 4), bench_int(i, 10, 0, 4294967295)) FROM n;
