-- A lending library: books, members and loans; the app's screens use subqueries.
CREATE TABLE member (
  id INTEGER PRIMARY KEY,
  card TEXT NOT NULL,
  name TEXT NOT NULL,
  branch_id INTEGER NOT NULL
);
CREATE TABLE book (
  id INTEGER PRIMARY KEY,
  isbn TEXT NOT NULL,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  branch_id INTEGER NOT NULL,
  year INTEGER NOT NULL
);
CREATE TABLE loan (
  id INTEGER PRIMARY KEY,
  book_id INTEGER NOT NULL,
  member_id INTEGER NOT NULL,
  borrowed INTEGER NOT NULL,
  due INTEGER NOT NULL,
  returned INTEGER
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(15000))
INSERT INTO member SELECT i, printf('C%07d', i * 7), bench_words(i, 1, 2), bench_int(i, 2, 1, 12) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(40000))
INSERT INTO book SELECT i, printf('978%010d', bench_int(i, 3, 0, 9999999999)), bench_words(i, 4, 4), bench_words(i, 5, 2),
  bench_int(i, 6, 1, 12), bench_int(i, 7, 1950, 2024) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(200000))
INSERT INTO loan SELECT i, bench_zipf(i, 8, bench_rows(40000), 0.7), bench_zipf(i, 9, bench_rows(15000), 0.6),
  i * 100, i * 100 + 1814400, CASE WHEN bench_rand(i, 10) < 0.97 THEN i * 100 + bench_int(i, 11, 86400, 2592000) END FROM n;
