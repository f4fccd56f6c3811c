-- The board: highest first, the earlier of equal scores first.
-- freq: 600
-- hot
-- draw: SELECT game_id FROM score
SELECT player_id, points, achieved FROM score WHERE game_id = ?1 ORDER BY points DESC, achieved ASC LIMIT 10;
-- A player's best on a game.
-- freq: 300
-- draw: SELECT game_id, player_id FROM score
SELECT max(points) FROM score WHERE game_id = ?1 AND player_id = ?2;
-- A player's rank: how many did better.
-- freq: 200
-- draw: SELECT game_id, points FROM score
SELECT count(*) FROM score WHERE game_id = ?1 AND points > ?2;
-- A player's recent games.
-- freq: 150
-- draw: SELECT player_id FROM score
SELECT game_id, points, achieved FROM score WHERE player_id = ?1 ORDER BY achieved DESC LIMIT 20;
-- Scores waiting for verification.
-- freq: 30
SELECT id, game_id, player_id FROM score WHERE verified = 0 ORDER BY achieved;
-- New scores.
-- freq: 1500
-- draw: SELECT game_id, player_id FROM score
-- draw uniform: 0 1000000
-- draw uniform: 6000000 6100000
INSERT INTO score (game_id, player_id, points, achieved) VALUES (?1, ?2, ?3, ?4);
