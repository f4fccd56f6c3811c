-- Notifications: a user's posts or replies to them (an OR of two columns).
-- freq: 300
-- hot
-- draw: SELECT author_id, author_id FROM post
SELECT id, thread_id, created FROM post WHERE author_id = ?1 OR reply_to_author = ?2 ORDER BY created DESC LIMIT 25;
-- A thread's page.
-- freq: 500
-- hot
-- draw: SELECT thread_id FROM post
SELECT id, author_id, body, created FROM post WHERE thread_id = ?1 ORDER BY created LIMIT 40;
-- Moderation: flagged posts of a thread, or any post by a banned author in it.
-- freq: 40
-- draw: SELECT thread_id, author_id FROM post
SELECT id FROM post WHERE thread_id = ?1 AND (flagged = 1 OR author_id = ?2);
-- The moderation queue.
-- freq: 60
SELECT id, thread_id, author_id FROM post WHERE flagged = 1 ORDER BY created;
-- A board's threads by activity.
-- freq: 250
-- draw uniform: 1 25
SELECT id, title, last_post_at FROM thread WHERE board_id = ?1 ORDER BY last_post_at DESC LIMIT 30;
-- Threads active since, on any of three boards.
-- freq: 50
-- draw uniform: 1 25
-- draw uniform: 1 25
-- draw uniform: 1 25
-- draw uniform: 40000000 49000000
SELECT id, title FROM thread WHERE (board_id = ?1 OR board_id = ?2 OR board_id = ?3) AND last_post_at > ?4;
-- New posts.
-- freq: 400
-- draw: SELECT thread_id, author_id FROM post
-- draw uniform: 50000000 51000000
INSERT INTO post (thread_id, author_id, reply_to_author, created, body) VALUES (?1, ?2, NULL, ?3, 'a new post');
-- Bump the thread.
-- freq: 400
-- draw uniform: 50000000 51000000
-- draw: SELECT id FROM thread
UPDATE thread SET last_post_at = ?1 WHERE id = ?2;
