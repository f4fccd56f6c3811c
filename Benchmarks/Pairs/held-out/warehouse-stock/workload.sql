-- A sale or restock: upsert the level.
-- freq: 800
-- draw: SELECT sku, warehouse_id FROM stock
-- draw uniform: -3 20
-- draw uniform: 9000000 9900000
INSERT INTO stock (sku, warehouse_id, qty, updated) VALUES (?1, ?2, ?3, ?4)
  ON CONFLICT (sku, warehouse_id) DO UPDATE SET qty = qty + excluded.qty, updated = excluded.updated;
-- And log it.
-- freq: 800
-- draw: SELECT sku, warehouse_id FROM stock
-- draw uniform: -3 20
-- draw uniform: 9000000 9900000
INSERT INTO movement (sku, warehouse_id, delta, reason, created) VALUES (?1, ?2, ?3, 'sale', ?4);
-- The reorder screen of one warehouse.
-- freq: 120
-- hot
-- draw uniform: 1 40
SELECT sku, qty FROM stock WHERE warehouse_id = ?1 AND qty < 5 ORDER BY qty, sku;
-- A SKU across warehouses (the primary key serves it).
-- freq: 400
-- draw: SELECT sku FROM stock
SELECT warehouse_id, qty, reserved FROM stock WHERE sku = ?1;
-- A SKU's recent movements.
-- freq: 150
-- hot
-- draw: SELECT sku FROM movement
SELECT delta, reason, created FROM movement WHERE sku = ?1 ORDER BY created DESC LIMIT 20;
-- Nightly: drop empty levels not touched for a while.
-- freq: 2
-- draw uniform: 1000000 3000000
DELETE FROM stock WHERE qty = 0 AND updated < ?1;
-- Nightly: trim old movements.
-- freq: 2
-- draw uniform: 600000 1200000
DELETE FROM movement WHERE created < ?1;
-- Losses this week, for one warehouse.
-- freq: 30
-- draw uniform: 1 40
-- draw uniform: 8000000 8900000
SELECT sku, sum(delta) FROM movement WHERE warehouse_id = ?1 AND reason = 'loss' AND created > ?2 GROUP BY sku;
