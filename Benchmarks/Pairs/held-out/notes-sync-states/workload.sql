-- The sync engine: what must be pushed (anything not clean).
-- freq: 300
-- hot
SELECT id, sync_state, edited FROM note WHERE sync_state != 0 ORDER BY edited LIMIT 100;
-- The trash, newest first.
-- freq: 60
SELECT id, title, trashed_at FROM note WHERE trashed_at IS NOT NULL ORDER BY trashed_at DESC;
-- Pinned notes (bit 2 of the flags).
-- freq: 200
SELECT id, title FROM note WHERE (flags & 2) != 0 ORDER BY edited DESC;
-- A notebook's notes not in the trash.
-- freq: 400
-- hot
-- draw: SELECT notebook_id FROM note
SELECT id, title, edited FROM note WHERE notebook_id = ?1 AND trashed_at IS NULL ORDER BY edited DESC LIMIT 40;
-- A server change arrives.
-- freq: 200
-- hot
-- draw: SELECT server_id FROM note
SELECT id, edited FROM note WHERE server_id = ?1;
-- Editing marks a note dirty.
-- freq: 1200
-- draw uniform: 11000000 11100000
-- draw: SELECT id FROM note
UPDATE note SET body = 'edited', edited = ?1, sync_state = 1 WHERE id = ?2;
-- Push done: clean again.
-- freq: 1000
-- draw: SELECT id FROM note
UPDATE note SET sync_state = 0 WHERE id = ?1;
-- New notes.
-- freq: 200
-- draw uniform: 1 300
-- draw uniform: 11000000 11100000
INSERT INTO note (notebook_id, title, body, edited, sync_state) VALUES (?1, 'new', 'text', ?2, 1);
