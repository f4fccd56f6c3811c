-- A read-later app: bookmarks, tags through a WITHOUT ROWID join table, and highlights.
CREATE TABLE bookmark (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  host TEXT NOT NULL,
  title TEXT NOT NULL,
  added INTEGER NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  read_at INTEGER
);
CREATE TABLE tag (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE bookmark_tag (
  bookmark_id INTEGER NOT NULL,
  tag_id INTEGER NOT NULL,
  PRIMARY KEY (bookmark_id, tag_id)
) WITHOUT ROWID;
CREATE TABLE highlight (
  id INTEGER PRIMARY KEY,
  bookmark_id INTEGER NOT NULL,
  created INTEGER NOT NULL,
  body TEXT NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
INSERT INTO tag SELECT i, 'tag' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(150000))
INSERT INTO bookmark SELECT i, 'https://' || h || '/a/' || i, h, bench_words(i, 2, 5), i * 120,
  CASE WHEN bench_rand(i, 3) < 0.6 THEN 1 ELSE 0 END,
  CASE WHEN bench_rand(i, 4) < 0.7 THEN i * 120 + bench_int(i, 5, 60, 864000) END
  FROM (SELECT i, 'site' || bench_zipf(i, 1, 2000, 0.9) || '.example' AS h FROM n);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(420000))
INSERT OR IGNORE INTO bookmark_tag SELECT bench_int(i, 6, 1, bench_rows(150000)), bench_zipf(i, 7, 400, 0.8) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(120000))
INSERT INTO highlight SELECT i, bench_zipf(i, 8, bench_rows(150000), 0.5), i * 150, bench_words(i, 9, 12) FROM n;
