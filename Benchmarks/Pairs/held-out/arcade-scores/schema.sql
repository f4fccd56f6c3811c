-- An arcade's leaderboards: a score table read top-down with ties broken by who got there first.
CREATE TABLE player ( id INTEGER PRIMARY KEY, handle TEXT NOT NULL, country TEXT NOT NULL );
CREATE TABLE score (
  id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, player_id INTEGER NOT NULL, points INTEGER NOT NULL,
  achieved INTEGER NOT NULL, verified INTEGER NOT NULL DEFAULT 1
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(20000))
INSERT INTO player SELECT i, 'p' || i, bench_pick(i, 1, 'gb|us|fr|de|jp|br|in') FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(200000))
INSERT INTO score SELECT i, bench_zipf(i, 2, 60, 1.2), bench_zipf(i, 3, bench_rows(20000), 0.7), bench_int(i, 4, 0, 1000000), i * 30,
  CASE WHEN bench_rand(i, 5) < 0.98 THEN 1 ELSE 0 END FROM n;
