-- A tag's screen: its unarchived bookmarks, newest first (the join table's key leads with the bookmark).
-- freq: 400
-- hot
-- draw: SELECT tag_id FROM bookmark_tag
SELECT b.id, b.title, b.added FROM bookmark b JOIN bookmark_tag bt ON bt.bookmark_id = b.id
  WHERE bt.tag_id = ?1 AND b.archived = 0 ORDER BY b.added DESC LIMIT 50;
-- A bookmark's page with its highlight count (a correlated scalar subquery).
-- freq: 300
-- hot
-- draw: SELECT id FROM bookmark
SELECT b.title, b.url, (SELECT count(*) FROM highlight h WHERE h.bookmark_id = b.id) AS highlights FROM bookmark b WHERE b.id = ?1;
-- A bookmark's highlights, newest first.
-- freq: 200
-- draw: SELECT bookmark_id FROM highlight
SELECT id, body FROM highlight WHERE bookmark_id = ?1 ORDER BY created DESC;
-- Unread from one site.
-- freq: 150
-- draw: SELECT host FROM bookmark
SELECT count(*) FROM bookmark WHERE host = ?1 AND read_at IS NULL AND archived = 0;
-- A site's latest.
-- freq: 100
-- draw: SELECT host FROM bookmark
SELECT id, title FROM bookmark WHERE host = ?1 ORDER BY added DESC LIMIT 30;
-- Save a bookmark.
-- freq: 300
-- draw text: https://new.example/a/
-- draw text: new.example
-- draw uniform: 18000000 18100000
INSERT INTO bookmark (url, host, title, added) VALUES (?1, ?2, 'saved page', ?3);
-- Tag it (the app re-tags freely).
-- freq: 600
-- draw: SELECT id FROM bookmark
-- draw uniform: 1 400
INSERT OR IGNORE INTO bookmark_tag (bookmark_id, tag_id) VALUES (?1, ?2);
-- Mark read.
-- freq: 500
-- draw uniform: 18000000 18100000
-- draw: SELECT id FROM bookmark
UPDATE bookmark SET read_at = ?1 WHERE id = ?2;
-- Remove a bookmark's highlights.
-- freq: 30
-- draw: SELECT bookmark_id FROM highlight
DELETE FROM highlight WHERE bookmark_id = ?1;
-- Nightly: archive what was read long ago.
-- freq: 2
-- draw uniform: 1000000 5000000
UPDATE bookmark SET archived = 1 WHERE archived = 0 AND read_at IS NOT NULL AND read_at < ?1;
-- The tag cloud.
-- freq: 10
SELECT t.name, count(*) AS uses FROM tag t JOIN bookmark_tag bt ON bt.tag_id = t.id GROUP BY t.id ORDER BY uses DESC LIMIT 20;
