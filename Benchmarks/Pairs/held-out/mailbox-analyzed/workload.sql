-- A folder's message list.
-- freq: 500
-- hot
-- draw: SELECT folder_id FROM message
SELECT id, sender, subject, received, unread FROM message WHERE folder_id = ?1 ORDER BY received DESC LIMIT 50;
-- The unread badge of a folder.
-- freq: 400
-- draw: SELECT folder_id FROM message
SELECT count(*) FROM message WHERE folder_id = ?1 AND unread = 1;
-- A conversation.
-- freq: 300
-- hot
-- draw: SELECT thread_key FROM message
SELECT id, sender, received FROM message WHERE thread_key = ?1 ORDER BY received;
-- Messages from a sender.
-- freq: 60
-- draw: SELECT sender FROM message
SELECT id, subject FROM message WHERE sender = ?1 ORDER BY received DESC LIMIT 20;
-- New mail arrives.
-- freq: 400
-- draw: SELECT folder_id, thread_key FROM message
-- draw uniform: 31000000 31100000
INSERT INTO message (folder_id, thread_key, sender, subject, received, unread, size, has_attachment) VALUES (?1, ?2, 'x@a.example', 'hello', ?3, 1, 4000, 0);
-- Read it.
-- freq: 300
-- draw: SELECT id FROM message WHERE unread = 1
UPDATE message SET unread = 0 WHERE id = ?1;
-- Move to another folder.
-- freq: 80
-- draw uniform: 1 120
-- draw: SELECT id FROM message
UPDATE message SET folder_id = ?1 WHERE id = ?2;
-- Empty the trash of old mail.
-- freq: 5
-- draw uniform: 1 120
-- draw uniform: 1000000 5000000
DELETE FROM message WHERE folder_id = ?1 AND received < ?2;
