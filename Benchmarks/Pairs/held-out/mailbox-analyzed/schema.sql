-- A mail client's store that keeps sqlite_stat1 (it runs ANALYZE): folders, messages, moves and deletes.
CREATE TABLE folder ( id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL, role TEXT );
CREATE TABLE message (
  id INTEGER PRIMARY KEY, folder_id INTEGER NOT NULL, thread_key TEXT NOT NULL, sender TEXT NOT NULL, subject TEXT NOT NULL,
  received INTEGER NOT NULL, unread INTEGER NOT NULL, size INTEGER NOT NULL, has_attachment INTEGER NOT NULL
);
CREATE INDEX message_received ON message (received);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
INSERT INTO folder SELECT i, (i - 1) / 40 + 1, bench_words(i, 1, 1), CASE i % 40 WHEN 1 THEN 'inbox' WHEN 2 THEN 'trash' WHEN 3 THEN 'sent' END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(150000))
INSERT INTO message SELECT i, bench_zipf(i, 2, 120, 1.3), printf('t%06d', bench_int(i, 3, 1, 50000)),
  lower(bench_words(i, 4, 1)) || '@' || bench_pick(i, 5, 'a.example|b.example|c.example|d.example'), bench_words(i, 6, 6),
  i * 200, CASE WHEN bench_rand(i, 7) < 0.1 THEN 1 ELSE 0 END, bench_int(i, 8, 2000, 400000), CASE WHEN bench_rand(i, 9) < 0.15 THEN 1 ELSE 0 END FROM n;
ANALYZE;
