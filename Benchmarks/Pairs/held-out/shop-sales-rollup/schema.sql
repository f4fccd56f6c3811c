-- A point-of-sale history: reports group and sum by store, product and day.
CREATE TABLE sale (
  id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, product_id INTEGER NOT NULL, day INTEGER NOT NULL,
  qty INTEGER NOT NULL, amount REAL NOT NULL, cashier_id INTEGER NOT NULL, voided INTEGER NOT NULL DEFAULT 0
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(250000))
INSERT INTO sale SELECT i, bench_zipf(i, 1, 80, 0.6), bench_zipf(i, 2, 4000, 1.0), 19000 + i * 730 / bench_rows(250000),
  bench_int(i, 3, 1, 6), bench_int(i, 4, 100, 20000) / 100.0, bench_int(i, 5, 1, 400), CASE WHEN bench_rand(i, 6) < 0.005 THEN 1 ELSE 0 END FROM n;
