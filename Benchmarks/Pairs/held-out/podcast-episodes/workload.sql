-- Bound parameters throughout, as the app's prepared statements run them.
-- A show's page: newest episodes first.
-- freq: 400
-- hot
-- draw: SELECT show_id FROM episode
SELECT id, title, published_at, duration, played FROM episode WHERE show_id = ? ORDER BY published_at DESC LIMIT 30;
-- The badge: unplayed episodes of a show.
-- freq: 300
-- draw: SELECT show_id FROM episode
SELECT count(*) FROM episode WHERE show_id = ? AND played = 0;
-- Feed refresh: is this episode known?
-- freq: 600
-- hot
-- draw: SELECT guid FROM episode
SELECT id FROM episode WHERE guid = ?;
-- The downloads screen.
-- freq: 80
SELECT id, show_id, title FROM episode WHERE downloaded = 1 ORDER BY published_at DESC;
-- Up next: the subscribed shows' unplayed episodes of the last month.
-- freq: 60
-- draw uniform: 785000000 789000000
SELECT e.id, e.title, e.published_at FROM episode e JOIN show s ON s.id = e.show_id WHERE s.subscribed = 1 AND e.played = 0 AND e.published_at > ? ORDER BY e.published_at DESC LIMIT 50;
-- Feed refresh inserts new episodes.
-- freq: 500
-- draw uniform: 1 1200
-- draw text: guid-
-- draw uniform: 789000000 790000000
INSERT INTO episode (show_id, guid, title, published_at, duration) VALUES (?, ?, 'new episode', ?, 1800);
-- Playback progress.
-- freq: 900
-- draw uniform: 1 1000
-- draw: SELECT id FROM episode
UPDATE episode SET position = ?, played = 0 WHERE id = ?;
-- Mark a show played.
-- freq: 20
-- draw: SELECT show_id FROM episode
UPDATE episode SET played = 1 WHERE show_id = ? AND played = 0;
