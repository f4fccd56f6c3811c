-- A member's books on loan (IN subquery).
-- freq: 300
-- hot
-- draw: SELECT member_id FROM loan
SELECT id, title, author FROM book WHERE id IN (SELECT book_id FROM loan WHERE member_id = ?1 AND returned IS NULL);
-- Is this book available? (NOT EXISTS, correlated)
-- freq: 500
-- hot
-- draw: SELECT id FROM book
SELECT b.id, b.title FROM book b WHERE b.id = ?1 AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned IS NULL);
-- A branch's shelf with each book's last due date (a scalar subquery).
-- freq: 40
-- draw uniform: 1 12
-- draw uniform: 1990 2020
SELECT b.id, b.title, (SELECT max(l.due) FROM loan l WHERE l.book_id = b.id) AS last_due FROM book b WHERE b.branch_id = ?1 AND b.year = ?2;
-- Overdue loans.
-- freq: 30
-- draw uniform: 19000000 20000000
SELECT l.id, l.member_id, l.book_id FROM loan l WHERE l.returned IS NULL AND l.due < ?1 ORDER BY l.due;
-- Members with a loan of this book ever (EXISTS).
-- freq: 60
-- draw: SELECT book_id FROM loan
SELECT m.id, m.name FROM member m WHERE EXISTS (SELECT 1 FROM loan l WHERE l.member_id = m.id AND l.book_id = ?1);
-- Check-out by card.
-- freq: 200
-- hot
-- draw: SELECT card FROM member
SELECT id, name FROM member WHERE card = ?1;
-- Lending.
-- freq: 200
-- draw: SELECT id FROM book
-- draw: SELECT id FROM member
-- draw uniform: 20000000 20100000
INSERT INTO loan (book_id, member_id, borrowed, due) VALUES (?1, ?2, ?3, ?3 + 1814400);
-- Returns.
-- freq: 200
-- draw uniform: 20000000 20100000
-- draw: SELECT book_id FROM loan WHERE returned IS NULL
UPDATE loan SET returned = ?1 WHERE book_id = ?2 AND returned IS NULL;
