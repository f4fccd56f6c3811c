-- A forum: threads and posts; notifications look for posts by or in reply to a user.
CREATE TABLE thread (
  id INTEGER PRIMARY KEY,
  board_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  last_post_at INTEGER NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE post (
  id INTEGER PRIMARY KEY,
  thread_id INTEGER NOT NULL,
  author_id INTEGER NOT NULL,
  reply_to_author INTEGER,
  created INTEGER NOT NULL,
  flagged INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(8000))
INSERT INTO thread SELECT i, bench_int(i, 1, 1, 25), bench_words(i, 2, 6), bench_int(i, 3, 0, 50000000), 0 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(120000))
INSERT INTO post SELECT i, bench_zipf(i, 4, bench_rows(8000), 0.8), bench_zipf(i, 5, 6000, 1.05),
  CASE WHEN bench_rand(i, 6) < 0.4 THEN bench_zipf(i, 7, 6000, 1.05) END, i * 400,
  CASE WHEN bench_rand(i, 8) < 0.004 THEN 1 ELSE 0 END, bench_words(i, 9, 12) FROM n;
