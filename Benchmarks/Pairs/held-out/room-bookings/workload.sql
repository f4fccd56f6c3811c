-- Free/busy for a few rooms over an hour (an IN list of four, an interval overlap).
-- freq: 500
-- hot
-- draw each 4: SELECT id FROM room
-- draw: SELECT starts FROM booking
SELECT room_id, starts, ends FROM booking WHERE room_id IN (?1, ?2, ?3, ?4) AND starts < ?5 + 3600 AND ends > ?5 AND status != 'cancelled';
-- A room's day.
-- freq: 300
-- hot
-- draw uniform: 1 600
-- draw: SELECT starts FROM booking
SELECT id, starts, ends, title FROM booking WHERE room_id = ?1 AND starts BETWEEN ?2 AND ?2 + 86400 ORDER BY starts;
-- My bookings.
-- freq: 200
-- draw: SELECT organizer_id FROM booking
SELECT id, room_id, starts FROM booking WHERE organizer_id = ?1 AND starts > 19000000 ORDER BY starts;
-- Tentative ones to confirm.
-- freq: 40
SELECT id, room_id, organizer_id FROM booking WHERE status = 'tentative' ORDER BY starts;
-- Booking.
-- freq: 300
-- draw uniform: 1 600
-- draw uniform: 1 8000
-- draw uniform: 19200000 19300000
INSERT INTO booking (room_id, organizer_id, starts, ends, status, title) VALUES (?1, ?2, ?3, ?3 + 3600, 'confirmed', 'meeting');
-- Cancelling.
-- freq: 60
-- draw: SELECT id FROM booking
UPDATE booking SET status = 'cancelled' WHERE id = ?1;
