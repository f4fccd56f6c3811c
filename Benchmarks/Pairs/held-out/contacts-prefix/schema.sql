-- An address book: searches by name prefix (LIKE, GLOB), by e-mail in any case, by phone.
CREATE TABLE contact (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT,
  phone TEXT,
  company TEXT,
  starred INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(90000))
INSERT INTO contact SELECT i,
  bench_pick(i, 1, 'Ada|Ben|Cleo|Dev|Eli|Fay|Gus|Hana|Ivo|Jun|Kai|Lea|Max|Nia|Oto|Pia|Raj|Sam|Tia|Uma|Vic|Wen|Yara|Zed'),
  upper(substr(bench_words(i, 2, 1), 1, 1)) || substr(bench_words(i, 2, 1), 2) || substr(bench_words(i, 13, 1), 1, 2) || CASE WHEN bench_rand(i, 3) < 0.5 THEN 'son' ELSE 'ley' END,
  CASE WHEN bench_rand(i, 4) < 0.85 THEN lower(bench_words(i, 5, 1)) || i || '@' || bench_pick(i, 6, 'mail.test|post.example|corp.example') END,
  CASE WHEN bench_rand(i, 7) < 0.7 THEN '+44' || bench_int(i, 8, 7000000000, 7999999999) END,
  CASE WHEN bench_rand(i, 9) < 0.5 THEN bench_words(i, 10, 2) END,
  CASE WHEN bench_rand(i, 11) < 0.02 THEN 1 ELSE 0 END,
  bench_int(i, 12, 0, 100000000) FROM n;
