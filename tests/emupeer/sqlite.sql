-- tests/emupeer/sqlite.sql: run by sqlite3's shell on a fresh database file
-- under qemu-riscv64 and kit-emu (tests/peer/emu-programs.sh); the output
-- must be identical. Exercises the B-tree, file I/O and locking, the VDBE,
-- floating point formatting, window functions, JSON, triggers and VACUUM.
.headers on
.mode list
PRAGMA journal_mode=DELETE;
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL, grp INTEGER);
BEGIN;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
INSERT INTO t(name, v, grp) SELECT printf('n%05d', (i * 7919) % 20000), i / 7.0, i % 13 FROM c;
COMMIT;
CREATE INDEX t_name ON t(name);
CREATE INDEX t_grp_v ON t(grp, v);
SELECT count(*), sum(id), min(name), max(name), printf('%.6f', avg(v)) FROM t;
SELECT grp, count(*), printf('%.4f', sum(v)), printf('%.4f', max(v) - min(v)) FROM t GROUP BY grp ORDER BY grp;
SELECT name, v FROM t WHERE name BETWEEN 'n01000' AND 'n01005' ORDER BY name;
SELECT id, grp, printf('%.3f', v), rank() OVER (PARTITION BY grp ORDER BY v DESC) AS r
  FROM t WHERE id % 997 = 0 ORDER BY grp, r;
SELECT sum(x) FROM (SELECT v * 2 AS x FROM t WHERE grp = 5 ORDER BY v LIMIT 100 OFFSET 10);
CREATE TABLE log(msg TEXT);
CREATE TRIGGER t_del AFTER DELETE ON t BEGIN INSERT INTO log VALUES('deleted ' || old.name); END;
DELETE FROM t WHERE id % 1000 = 0;
SELECT count(*) FROM log;
SELECT msg FROM log ORDER BY msg LIMIT 3;
CREATE VIEW big AS SELECT grp, count(*) AS n FROM t GROUP BY grp HAVING n > 1535;
SELECT * FROM big;
UPDATE t SET v = v * 1.5 WHERE grp = 3;
SELECT printf('%.5e', sum(v)), total(v) FROM t;
SELECT json_object('a', 1, 'b', json_array(1, 2.5, 'x')), json_extract('{"k":[10,20,30]}', '$.k[1]');
SELECT group_concat(name, ',') FROM (SELECT name FROM t ORDER BY name LIMIT 8);
SELECT hex(zeroblob(2)), length(zeroblob(1000)), upper('kit'), substr('emulator', 3, 4), instr('abcabc', 'ca');
SELECT 1e308 * 10, -0.0, 1 / 3.0, 2.0 / 3, 9007199254740993, round(2.675, 2), cast('12abc' AS INTEGER);
SELECT sqrt(2), pow(2, 0.5), ln(10), exp(1), sin(1), floor(-2.5), ceil(2.1);
CREATE TABLE blobs(b BLOB);
INSERT INTO blobs SELECT randomblob(3000) FROM t LIMIT 300;
DELETE FROM blobs;
VACUUM;
PRAGMA integrity_check;
PRAGMA page_count;
SELECT count(*) FROM t;
