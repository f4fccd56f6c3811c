-- A clinic scheduling app: appointments by doctor and patient, reminders sent from a queue, patient search.
CREATE TABLE clinic (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
CREATE TABLE doctor (
  id INTEGER PRIMARY KEY,
  clinic_id INTEGER NOT NULL REFERENCES clinic(id),
  name TEXT NOT NULL,
  specialty TEXT NOT NULL
);
CREATE TABLE patient (
  id INTEGER PRIMARY KEY,
  clinic_id INTEGER NOT NULL REFERENCES clinic(id),
  last_name TEXT NOT NULL,
  first_name TEXT NOT NULL,
  born INTEGER NOT NULL,
  phone TEXT
);
CREATE TABLE appointment (
  id INTEGER PRIMARY KEY,
  clinic_id INTEGER NOT NULL,
  doctor_id INTEGER NOT NULL,
  patient_id INTEGER NOT NULL,
  starts_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'booked',
  created_at INTEGER NOT NULL,
  notes TEXT
);
CREATE TABLE reminder (
  id INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL,
  send_at INTEGER NOT NULL,
  sent INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX patient_clinic ON patient(clinic_id);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO clinic SELECT i, 'Clinic ' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
INSERT INTO doctor SELECT i, 1 + (i % 40), bench_words(i, 1, 2), bench_pick(i, 2, 'general:55|pediatrics:15|cardiology:10|dermatology:10|orthopedics:10') FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(60000))
INSERT INTO patient SELECT i, bench_zipf(i, 3, 40, 0.7), bench_pick(i, 4, 'Smith:6|Garcia:5|Nguyen:4|Kim:4|Brown:3|Lee:3|Other:75') || CASE WHEN bench_rand(i, 5) < 0.75 THEN bench_int(i, 6, 1, 900) ELSE '' END,
  bench_words(i, 7, 1), bench_int(i, 8, -1500000000, 1200000000), '555-' || bench_int(i, 9, 1000, 9999) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(300000))
INSERT INTO appointment SELECT i, 1 + (d % 40), d, bench_zipf(i, 11, bench_rows(60000), 0.6),
  1700000000 + bench_int(i, 12, 0, 31536000) / 900 * 900,
  bench_pick(i, 13, 'booked:82|done:8|cancelled:7|no_show:3'), 1690000000 + i * 30,
  CASE WHEN bench_rand(i, 14) < 0.2 THEN bench_words(i, 15, 6) END
  FROM (SELECT i, bench_zipf(i, 10, 600, 0.5) AS d FROM n);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < bench_rows(250000))
INSERT INTO reminder SELECT i, bench_int(i, 16, 1, bench_rows(300000)), 1700000000 + bench_int(i, 17, 0, 31536000),
  CASE WHEN bench_rand(i, 18) < 0.97 THEN 1 ELSE 0 END FROM n;
