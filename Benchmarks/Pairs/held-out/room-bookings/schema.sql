-- Meeting rooms: bookings as intervals; the app asks which of a few rooms are free.
CREATE TABLE room ( id INTEGER PRIMARY KEY, building_id INTEGER NOT NULL, capacity INTEGER NOT NULL, name TEXT NOT NULL );
CREATE TABLE booking (
  id INTEGER PRIMARY KEY, room_id INTEGER NOT NULL, organizer_id INTEGER NOT NULL, starts INTEGER NOT NULL, ends INTEGER NOT NULL,
  status TEXT NOT NULL, title TEXT
);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
INSERT INTO room SELECT i, bench_int(i, 1, 1, 30), bench_pick(i, 2, '4|6|8|12|20'), 'Room ' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(160000))
INSERT INTO booking SELECT i, bench_int(i, 3, 1, 600), bench_int(i, 4, 1, 8000), i * 120 + bench_int(i, 5, 0, 3600),
  i * 120 + 3600 + bench_int(i, 6, 0, 7200), bench_pick(i, 7, 'confirmed:90|tentative:7|cancelled:3'), bench_words(i, 8, 3) FROM n;
