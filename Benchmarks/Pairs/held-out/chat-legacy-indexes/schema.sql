-- A chat store that has grown indexes over the years: one on the right columns in the wrong order, a prefix
-- of it, a composite no screen uses any more, and a flag index; messages arrive all the time.
CREATE TABLE conversation ( id INTEGER PRIMARY KEY, title TEXT NOT NULL, muted INTEGER NOT NULL DEFAULT 0 );
CREATE TABLE message (
  id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL, author_id INTEGER NOT NULL, sent INTEGER NOT NULL,
  kind INTEGER NOT NULL, is_read INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE INDEX message_sent_conversation ON message (sent, conversation_id);
CREATE INDEX message_sent ON message (sent);
CREATE INDEX message_author_kind_sent ON message (author_id, kind, sent);
CREATE INDEX message_is_read ON message (is_read);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
INSERT INTO conversation SELECT i, bench_words(i, 1, 3), CASE WHEN bench_rand(i, 2) < 0.1 THEN 1 ELSE 0 END FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(180000))
INSERT INTO message SELECT i, bench_zipf(i, 3, 2500, 0.9), bench_int(i, 4, 1, 5000), i * 20, bench_pick(i, 5, '0:90|1:8|2:2'),
  CASE WHEN bench_rand(i, 6) < 0.95 THEN 1 ELSE 0 END, bench_words(i, 7, 10) FROM n;
