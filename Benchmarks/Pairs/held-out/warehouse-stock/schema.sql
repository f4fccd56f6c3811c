-- Stock levels per SKU and warehouse, kept by upserts, and a movement log trimmed by deletes.
CREATE TABLE stock (
  sku TEXT NOT NULL,
  warehouse_id INTEGER NOT NULL,
  qty INTEGER NOT NULL,
  reserved INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL,
  PRIMARY KEY (sku, warehouse_id)
);
CREATE TABLE movement (
  id INTEGER PRIMARY KEY,
  sku TEXT NOT NULL,
  warehouse_id INTEGER NOT NULL,
  delta INTEGER NOT NULL,
  reason TEXT NOT NULL,
  created INTEGER NOT NULL
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(60000))
INSERT OR IGNORE INTO stock SELECT printf('SKU%06d', bench_int(i, 1, 1, 30000)), bench_zipf(i, 2, 40, 0.7),
  CASE WHEN bench_rand(i, 3) < 0.08 THEN 0 ELSE bench_int(i, 4, 1, 500) END, 0, bench_int(i, 5, 0, 10000000) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(150000))
INSERT INTO movement SELECT i, printf('SKU%06d', bench_int(i, 6, 1, 30000)), bench_zipf(i, 7, 40, 0.7),
  bench_int(i, 8, -20, 20), bench_pick(i, 9, 'sale:70|restock:20|return:5|loss:5'), i * 60 FROM n;
