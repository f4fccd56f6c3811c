-- freq: 5
SELECT a FROM t WHERE b = 1;
SELECT c FROM t;
