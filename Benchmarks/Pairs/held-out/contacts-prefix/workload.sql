-- Type-ahead on the last name (LIKE is case-insensitive by default).
-- freq: 500
-- hot
-- draw: SELECT substr(last_name, 1, 3) || '%' FROM contact
SELECT id, first_name, last_name FROM contact WHERE last_name LIKE ?1 ORDER BY last_name, first_name LIMIT 20;
-- The same with GLOB, case-sensitive.
-- freq: 200
-- draw: SELECT substr(last_name, 1, 2) || '*' FROM contact
SELECT id, first_name, last_name FROM contact WHERE last_name GLOB ?1 LIMIT 20;
-- Sign-in: e-mail in any case.
-- freq: 400
-- hot
-- draw: SELECT upper(email) FROM contact WHERE email IS NOT NULL
SELECT id FROM contact WHERE lower(email) = lower(?1);
-- Caller ID.
-- freq: 300
-- hot
-- draw: SELECT phone FROM contact WHERE phone IS NOT NULL
SELECT id, first_name, last_name FROM contact WHERE phone = ?1;
-- Favourites.
-- freq: 150
SELECT id, first_name, last_name FROM contact WHERE starred = 1 ORDER BY last_name;
-- Sync: what changed since.
-- freq: 40
-- draw uniform: 99000000 99900000
SELECT id, updated FROM contact WHERE updated > ?1 ORDER BY updated;
-- Edits.
-- freq: 200
-- draw uniform: 100000000 100100000
-- draw: SELECT id FROM contact
UPDATE contact SET updated = ?1, company = 'edited' WHERE id = ?2;
-- New contacts.
-- freq: 100
-- draw uniform: 100000000 100100000
INSERT INTO contact (first_name, last_name, email, phone, updated) VALUES ('New', 'Person', 'new@mail.test', NULL, ?1);
