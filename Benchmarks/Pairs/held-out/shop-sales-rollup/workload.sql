-- A store's best sellers over a period.
-- freq: 60
-- hot
-- draw uniform: 1 80
-- draw uniform: 19000 19700
SELECT product_id, sum(qty) FROM sale WHERE store_id = ?1 AND day BETWEEN ?2 AND ?2 + 30 GROUP BY product_id ORDER BY 2 DESC LIMIT 20;
-- A product's daily sales.
-- freq: 120
-- hot
-- draw: SELECT product_id FROM sale
SELECT day, sum(qty), sum(amount) FROM sale WHERE product_id = ?1 GROUP BY day;
-- Takings by day for one store (the day's till report).
-- freq: 200
-- draw uniform: 1 80
-- draw uniform: 19000 19729
SELECT sum(amount), count(*) FROM sale WHERE store_id = ?1 AND day = ?2 AND voided = 0;
-- Voided sales to review.
-- freq: 20
SELECT id, store_id, cashier_id, amount FROM sale WHERE voided = 1 ORDER BY day DESC;
-- A cashier's day.
-- freq: 40
-- draw uniform: 1 400
-- draw uniform: 19000 19729
SELECT count(*), sum(amount) FROM sale WHERE cashier_id = ?1 AND day = ?2;
-- Sales come in.
-- freq: 2000
-- draw uniform: 1 80
-- draw uniform: 1 4000
-- draw uniform: 1 400
INSERT INTO sale (store_id, product_id, day, qty, amount, cashier_id) VALUES (?1, ?2, 19730, 1, 9.99, ?3);
