-- A doctor's day, in order.
-- freq: 500
-- hot
-- draw: SELECT doctor_id, starts_at, starts_at + 86400 FROM appointment
SELECT id, patient_id, starts_at, status FROM appointment WHERE doctor_id = ?1 AND starts_at >= ?2 AND starts_at < ?3 ORDER BY starts_at;
-- A patient's next booked appointments.
-- freq: 400
-- hot
-- draw: SELECT patient_id, starts_at FROM appointment
SELECT id, doctor_id, starts_at FROM appointment WHERE patient_id = ?1 AND status = 'booked' AND starts_at > ?2 ORDER BY starts_at LIMIT 5;
-- Patient search at the front desk: a clinic's patients by surname prefix.
-- freq: 300
-- draw: SELECT clinic_id, substr(last_name, 1, 3) || '%' FROM patient
SELECT id, last_name, first_name, born FROM patient WHERE clinic_id = ?1 AND last_name LIKE ?2 ORDER BY last_name, first_name LIMIT 20;
-- The reminder queue: what is due and not sent.
-- freq: 120
-- hot
-- draw uniform: 1700000000 1731536000
SELECT id, appointment_id FROM reminder WHERE sent = 0 AND send_at < ?1 ORDER BY send_at LIMIT 100;
-- A clinic's cancellations since a date, by doctor.
-- freq: 20
-- draw: SELECT clinic_id, starts_at FROM appointment
SELECT doctor_id, count(*) FROM appointment WHERE clinic_id = ?1 AND status = 'cancelled' AND starts_at >= ?2 GROUP BY doctor_id;
-- A patient's no-shows.
-- freq: 100
-- draw: SELECT patient_id FROM appointment
SELECT count(*) FROM appointment WHERE patient_id = ?1 AND status = 'no_show';
-- A clinic's doctors of a specialty.
-- freq: 150
-- draw: SELECT clinic_id, specialty FROM doctor
SELECT id, name FROM doctor WHERE clinic_id = ?1 AND specialty = ?2 ORDER BY name;
-- Book an appointment.
-- freq: 300
-- draw: SELECT clinic_id, id FROM doctor
-- draw: SELECT id FROM patient
-- draw uniform: 1700000000 1731536000
-- draw uniform: 1731536000 1731600000
INSERT INTO appointment (clinic_id, doctor_id, patient_id, starts_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5);
-- Queue its reminder.
-- freq: 300
-- draw: SELECT id FROM appointment
-- draw uniform: 1700000000 1731536000
INSERT INTO reminder (appointment_id, send_at) VALUES (?1, ?2);
-- Mark a reminder sent.
-- freq: 400
-- draw: SELECT id FROM reminder
UPDATE reminder SET sent = 1 WHERE id = ?1;
-- Cancel.
-- freq: 60
-- draw: SELECT id FROM appointment
UPDATE appointment SET status = 'cancelled' WHERE id = ?1;
-- Front desk edits a patient's phone.
-- freq: 40
-- draw text: 555-
-- draw: SELECT id FROM patient
UPDATE patient SET phone = ?1 WHERE id = ?2;
