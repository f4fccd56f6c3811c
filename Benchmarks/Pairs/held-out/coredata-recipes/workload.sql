-- The SQL Core Data prints for the app's fetch requests and saves (bound values, as its log shows them).
-- A tag's recipes, newest first (the many-to-many relationship through Z_3TAGS).
-- freq: 300
-- hot
-- draw: SELECT Z_5TAGS FROM Z_3TAGS
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZFAVORITE, t0.ZRATING, t0.ZSERVINGS, t0.ZTITLE, t0.ZUUID, t0.ZAUTHOR FROM ZRECIPE t0 JOIN Z_3TAGS t1 ON t0.Z_PK = t1.Z_3RECIPES WHERE t1.Z_5TAGS = ? ORDER BY t0.ZCREATED DESC LIMIT 50;
-- A recipe's tags (the relationship fault fired).
-- freq: 400
-- draw: SELECT Z_PK FROM ZRECIPE
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 JOIN Z_3TAGS t1 ON t0.Z_PK = t1.Z_5TAGS WHERE t1.Z_3RECIPES = ?;
-- A recipe's ingredients in order (the to-many relationship, sorted).
-- freq: 400
-- hot
-- draw: SELECT Z_PK FROM ZRECIPE
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAMOUNT, t0.ZNAME, t0.ZPOSITION, t0.ZUNIT, t0.ZRECIPE FROM ZINGREDIENT t0 WHERE t0.ZRECIPE = ? ORDER BY t0.ZPOSITION;
-- Open a recipe from a shared link: by its UUID.
-- freq: 150
-- hot
-- draw: SELECT ZUUID FROM ZRECIPE
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 WHERE t0.ZUUID = ? LIMIT 1;
-- An author's favourites count.
-- freq: 120
-- draw: SELECT ZAUTHOR FROM ZRECIPE
SELECT COUNT( DISTINCT t0.Z_PK) FROM ZRECIPE t0 WHERE ( t0.ZAUTHOR = ? AND t0.ZFAVORITE = 1);
-- Favourites, best rated first.
-- freq: 100
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZRATING FROM ZRECIPE t0 WHERE t0.ZFAVORITE = 1 ORDER BY t0.ZRATING DESC;
-- Recipes using an ingredient (a to-many key path in the predicate: ANY ingredients.name == ?).
-- freq: 40
-- draw: SELECT ZNAME FROM ZINGREDIENT
SELECT DISTINCT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 JOIN ZINGREDIENT t1 ON t0.Z_PK = t1.ZRECIPE WHERE t1.ZNAME = ? LIMIT 100;
-- Title search (CONTAINS[cd]).
-- freq: 30
-- draw: SELECT substr(ZTITLE, 1, 4) FROM ZRECIPE
SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZRECIPE t0 WHERE NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0) ORDER BY t0.ZTITLE LIMIT 50;
-- Saving a new recipe, its ingredients and tags.
-- freq: 60
-- draw sequence: 900001
-- draw uniform: 1 3000
-- draw real: 780000000 790000000
-- draw text: R
INSERT INTO ZRECIPE(Z_PK, Z_ENT, Z_OPT, ZFAVORITE, ZSERVINGS, ZAUTHOR, ZCREATED, ZRATING, ZTITLE, ZUUID) VALUES(?, 3, 1, 0, 2, ?, ?, 0.0, ?, NULL);
-- freq: 480
-- draw sequence: 9000001
-- draw uniform: 1 8
-- draw: SELECT Z_PK FROM ZRECIPE
INSERT INTO ZINGREDIENT(Z_PK, Z_ENT, Z_OPT, ZPOSITION, ZRECIPE, ZAMOUNT, ZNAME, ZUNIT) VALUES(?, 2, 1, ?, ?, 1.0, 'salt', 'g');
-- freq: 180
-- draw: SELECT Z_PK FROM ZRECIPE
-- draw uniform: 1 300
INSERT OR REPLACE INTO Z_3TAGS(Z_3RECIPES, Z_5TAGS) VALUES(?, ?);
-- Toggling a favourite.
-- freq: 90
-- draw uniform: 0 1
-- draw: SELECT Z_PK FROM ZRECIPE
UPDATE ZRECIPE SET ZFAVORITE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?;
-- Deleting a recipe's ingredients (the cascade Core Data runs).
-- freq: 20
-- draw: SELECT Z_PK FROM ZRECIPE
DELETE FROM ZINGREDIENT WHERE ZRECIPE = ?;
