-- A conversation, newest first.
-- freq: 800
-- hot
-- draw: SELECT conversation_id FROM message
SELECT id, author_id, sent, text FROM message WHERE conversation_id = ?1 ORDER BY sent DESC LIMIT 50;
-- Unread in a conversation.
-- freq: 500
-- draw: SELECT conversation_id FROM message
SELECT count(*) FROM message WHERE conversation_id = ?1 AND is_read = 0;
-- Load older messages.
-- freq: 200
-- draw: SELECT conversation_id, sent FROM message
SELECT id, author_id, sent, text FROM message WHERE conversation_id = ?1 AND sent < ?2 ORDER BY sent DESC LIMIT 50;
-- Messages arrive.
-- freq: 3000
-- draw uniform: 1 2500
-- draw uniform: 1 5000
-- draw uniform: 4000000 4100000
INSERT INTO message (conversation_id, author_id, sent, kind, is_read, text) VALUES (?1, ?2, ?3, 0, 0, 'hi');
-- Reading marks them.
-- freq: 600
-- draw: SELECT conversation_id FROM message
UPDATE message SET is_read = 1 WHERE conversation_id = ?1 AND is_read = 0;
