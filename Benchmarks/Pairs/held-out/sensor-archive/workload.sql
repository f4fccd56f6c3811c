-- A sensor's chart for a day.
-- freq: 200
-- hot
-- draw uniform: 1 900
-- draw uniform: 0 31000000
SELECT taken, value FROM reading WHERE sensor_id = ?1 AND taken BETWEEN ?2 AND ?2 + 86400 ORDER BY taken;
-- The latest reading of a sensor.
-- freq: 600
-- hot
-- draw uniform: 1 900
SELECT taken, value FROM reading WHERE sensor_id = ?1 ORDER BY taken DESC LIMIT 1;
-- Readings flagged bad this week.
-- freq: 30
-- draw uniform: 30000000 31000000
SELECT id, sensor_id, quality FROM reading WHERE quality > 0 AND taken > ?1;
-- Hourly averages of a sensor for a week.
-- freq: 20
-- draw uniform: 1 900
-- draw uniform: 0 30000000
SELECT taken / 3600, avg(value) FROM reading WHERE sensor_id = ?1 AND taken >= ?2 AND taken < ?2 + 604800 GROUP BY taken / 3600;
-- Ingest.
-- freq: 900
-- draw uniform: 1 900
-- draw uniform: 31500000 31600000
-- draw real: 0 100
INSERT INTO reading (sensor_id, taken, value, quality, raw) VALUES (?1, ?2, ?3, 0, 'ingested');
-- Retention: delete the oldest hour.
-- freq: 3
-- draw uniform: 0 3600
DELETE FROM reading WHERE taken < ?1;
