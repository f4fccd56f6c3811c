-- freq: 300
-- hot
-- draw: SELECT owner_id FROM deal
SELECT id, account_id, stage, amount FROM deal WHERE owner_id = ?1 AND stage IN ('lead', 'qualified', 'proposal') ORDER BY close_date;
-- freq: 200
-- draw: SELECT account_id FROM deal
SELECT id, stage, amount, close_date FROM deal WHERE account_id = ?1 ORDER BY updated DESC;
-- freq: 250
-- hot
-- draw: SELECT account_id FROM person
SELECT id, name, title, email FROM person WHERE account_id = ?1 ORDER BY name;
-- freq: 250
-- hot
-- draw: SELECT email FROM person
SELECT id, account_id FROM person WHERE email = ?1;
-- freq: 150
-- draw: SELECT domain FROM account
SELECT id, name FROM account WHERE domain = ?1;
-- freq: 100
-- draw: SELECT owner_id FROM account
SELECT id, name, tier FROM account WHERE owner_id = ?1 AND archived = 0 ORDER BY name;
-- freq: 60
-- draw: SELECT region FROM account
SELECT tier, count(*) FROM account WHERE region = ?1 AND archived = 0 GROUP BY tier;
-- freq: 300
-- hot
-- draw: SELECT deal_id FROM activity WHERE deal_id IS NOT NULL
SELECT id, kind, at, note FROM activity WHERE deal_id = ?1 ORDER BY at DESC LIMIT 20;
-- freq: 120
-- draw: SELECT person_id FROM activity
SELECT id, kind, at FROM activity WHERE person_id = ?1 ORDER BY at DESC LIMIT 10;
-- freq: 80
-- draw: SELECT owner_id FROM activity
-- draw uniform: 39000000 39900000
SELECT kind, count(*) FROM activity WHERE owner_id = ?1 AND at > ?2 GROUP BY kind;
-- freq: 400
-- hot
-- draw: SELECT owner_id FROM task
SELECT id, title, due FROM task WHERE owner_id = ?1 AND done = 0 ORDER BY due LIMIT 30;
-- freq: 100
-- draw: SELECT deal_id FROM task
SELECT id, title, done FROM task WHERE deal_id = ?1;
-- freq: 40
-- draw uniform: 38000000 40000000
SELECT count(*) FROM task WHERE done = 0 AND due < ?1;
-- freq: 50
-- draw: SELECT owner_id FROM deal
-- draw uniform: 38000000 42000000
SELECT stage, sum(amount) FROM deal WHERE owner_id = ?1 AND close_date < ?2 GROUP BY stage;
-- freq: 30
SELECT a.id, a.name, sum(d.amount) FROM account a JOIN deal d ON d.account_id = a.id WHERE d.stage = 'won' AND a.tier = 'enterprise' GROUP BY a.id ORDER BY 3 DESC LIMIT 10;
-- freq: 20
-- draw uniform: 10000000 30000000
SELECT id, name, last_contacted FROM person WHERE last_contacted < ?1 ORDER BY last_contacted LIMIT 50;
-- freq: 300
-- draw: SELECT deal_id, person_id, owner_id FROM activity WHERE deal_id IS NOT NULL
-- draw uniform: 40000000 40100000
INSERT INTO activity (deal_id, person_id, owner_id, kind, at, note) VALUES (?1, ?2, ?3, 'call', ?4, 'logged');
-- freq: 80
-- draw: SELECT owner_id, deal_id FROM task
-- draw uniform: 40000000 42000000
INSERT INTO task (owner_id, deal_id, due, title) VALUES (?1, ?2, ?3, 'follow up');
-- freq: 150
-- draw: SELECT id FROM task WHERE done = 0
UPDATE task SET done = 1 WHERE id = ?1;
-- freq: 100
-- draw uniform: 40000000 40100000
-- draw: SELECT id FROM deal
UPDATE deal SET stage = 'proposal', updated = ?1 WHERE id = ?2;
-- freq: 80
-- draw uniform: 40000000 40100000
-- draw: SELECT id FROM person
UPDATE person SET last_contacted = ?1 WHERE id = ?2;
-- freq: 20
-- draw: SELECT account_id FROM person
-- draw text: x
INSERT INTO person (account_id, email, name) VALUES (?1, ?2 || '@new.example', 'New Person');
-- freq: 10
-- draw: SELECT id FROM account
UPDATE account SET archived = 1 WHERE id = ?1;
-- freq: 5
-- draw uniform: 1000000 2000000
DELETE FROM activity WHERE at < ?1 AND kind = 'note';
