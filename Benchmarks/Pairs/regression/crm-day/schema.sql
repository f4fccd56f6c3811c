-- A small CRM: accounts, people, deals, activities and a task list; a day of the app is two dozen statements.
CREATE TABLE account (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, domain TEXT, owner_id INTEGER NOT NULL,
  tier TEXT NOT NULL, region TEXT NOT NULL, created INTEGER NOT NULL, archived INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE person (
  id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, email TEXT NOT NULL, name TEXT NOT NULL,
  title TEXT, last_contacted INTEGER
);
CREATE TABLE deal (
  id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, owner_id INTEGER NOT NULL, stage TEXT NOT NULL,
  amount REAL NOT NULL, close_date INTEGER NOT NULL, updated INTEGER NOT NULL
);
CREATE TABLE activity (
  id INTEGER PRIMARY KEY, deal_id INTEGER, person_id INTEGER, owner_id INTEGER NOT NULL, kind TEXT NOT NULL,
  at INTEGER NOT NULL, note TEXT
);
CREATE TABLE task (
  id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, deal_id INTEGER, due INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(12000))
INSERT INTO account SELECT i, bench_words(i, 1, 2), lower(bench_words(i, 2, 1)) || i || '.example', bench_zipf(i, 3, 60, 0.8),
  bench_pick(i, 4, 'free:60|pro:30|enterprise:10'), bench_pick(i, 5, 'emea|amer|apac'), i * 1000,
  CASE WHEN bench_rand(i, 6) < 0.1 THEN 1 ELSE 0 END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(50000))
INSERT INTO person SELECT i, bench_int(i, 7, 1, bench_rows(12000)), 'p' || i || '@' || bench_words(i, 8, 1) || '.example', bench_words(i, 9, 2),
  bench_pick(i, 10, 'cto|ceo|engineer|buyer|analyst'), CASE WHEN bench_rand(i, 11) < 0.7 THEN bench_int(i, 12, 0, 40000000) END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(30000))
INSERT INTO deal SELECT i, bench_int(i, 13, 1, bench_rows(12000)), bench_zipf(i, 14, 60, 0.8),
  bench_pick(i, 15, 'lead:35|qualified:25|proposal:15|won:15|lost:10'), bench_int(i, 16, 500, 200000), bench_int(i, 17, 30000000, 45000000),
  bench_int(i, 18, 0, 40000000) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(160000))
INSERT INTO activity SELECT i, CASE WHEN bench_rand(i, 19) < 0.8 THEN bench_zipf(i, 20, bench_rows(30000), 0.5) END,
  bench_int(i, 21, 1, bench_rows(50000)), bench_zipf(i, 22, 60, 0.8), bench_pick(i, 23, 'call|email|meeting|note'), i * 250, bench_words(i, 24, 6) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(40000))
INSERT INTO task SELECT i, bench_zipf(i, 25, 60, 0.8), bench_int(i, 26, 1, bench_rows(30000)), bench_int(i, 27, 30000000, 42000000),
  CASE WHEN bench_rand(i, 28) < 0.8 THEN 1 ELSE 0 END, bench_words(i, 29, 4) FROM n;
