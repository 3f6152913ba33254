-- tests/peer/sql/basic.sql: run by sqlite3 shells built by kitcc and by gcc; outputs must match
.headers on
.mode list
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT NOT NULL, dept TEXT, salary REAL, hired DATE);
CREATE INDEX emp_dept ON emp(dept);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO emp(name, dept, salary, hired)
  SELECT 'emp' || i, CASE i % 5 WHEN 0 THEN 'eng' WHEN 1 THEN 'ops' WHEN 2 THEN 'sales' WHEN 3 THEN 'hr' ELSE 'legal' END,
         1000 + (i * 7919) % 5000 + (i % 3) * 0.25, date('2000-01-01', '+' || (i * 13 % 9000) || ' days')
  FROM n;
SELECT count(*), sum(salary), round(avg(salary), 4), min(hired), max(hired) FROM emp;
SELECT dept, count(*) AS n, round(avg(salary), 2) AS avg, max(salary) FROM emp GROUP BY dept ORDER BY dept;
SELECT name, salary, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM emp WHERE id % 97 = 0 ORDER BY name;
SELECT dept, group_concat(name, ',') FROM (SELECT * FROM emp WHERE id < 12 ORDER BY id) GROUP BY dept ORDER BY dept;
CREATE TABLE dept(name TEXT PRIMARY KEY, floor INTEGER);
INSERT INTO dept VALUES ('eng', 3), ('ops', 1), ('sales', 2), ('hr', 1);
SELECT d.floor, count(e.id), sum(e.salary > 4000) FROM emp e LEFT JOIN dept d ON e.dept = d.name GROUP BY d.floor ORDER BY d.floor;
SELECT printf('%5d|%-8s|%08.3f|%x|%e|%q', 42, 'abc', 3.14159, 255, 12345.678, 'it''s');
SELECT upper('hello'), lower('WORLD'), length('héllo'), substr('abcdef', 2, 3), replace('aaa', 'a', 'bb'), instr('hello', 'll'), trim('  x  '), hex('kit');
SELECT 7 / 2, 7 % 3, 7.0 / 2, -7 / 2, 1 << 40, abs(-5), typeof(1), typeof(1.0), typeof('x'), typeof(NULL), typeof(x'00');
SELECT json_object('a', 1, 'b', json_array(1, 2, 'x')), json_extract('{"k":{"v":[10,20,30]}}', '$.k.v[1]');
SELECT date('2024-02-28', '+1 day'), strftime('%Y-%j', '2023-12-31'), julianday('2000-01-01') - julianday('1999-12-01');
BEGIN;
UPDATE emp SET salary = salary * 1.1 WHERE dept = 'eng';
DELETE FROM emp WHERE id % 10 = 0;
ROLLBACK;
SELECT count(*), round(sum(salary), 2) FROM emp;
CREATE TABLE log(msg TEXT);
CREATE TRIGGER emp_del AFTER DELETE ON emp BEGIN INSERT INTO log VALUES ('deleted ' || old.name); END;
DELETE FROM emp WHERE id IN (5, 6, 7);
SELECT * FROM log ORDER BY msg;
CREATE VIEW rich AS SELECT name, salary FROM emp WHERE salary > 5900;
SELECT count(*), min(name) FROM rich;
SELECT id, name FROM emp WHERE name LIKE 'emp1_' ORDER BY id DESC LIMIT 5 OFFSET 2;
SELECT name FROM emp WHERE name GLOB 'emp19[0-3]' ORDER BY 1;
WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, n + 1 FROM fib WHERE n < 60) SELECT max(a) FROM fib;
SELECT sum(x), total(x), avg(x) FROM (SELECT value AS x FROM json_each('[1.5, 2.25, 1e10, -3]'));
SELECT quote(zeroblob(4)), randomblob(0) IS NOT NULL, coalesce(NULL, NULL, 'c'), nullif(3, 3), iif(1 < 2, 'y', 'n');
CREATE TABLE t2(a, b, UNIQUE(a, b));
INSERT OR IGNORE INTO t2 VALUES (1, 2), (1, 2), (2, 3);
INSERT INTO t2 VALUES (3, 4) ON CONFLICT DO NOTHING;
SELECT * FROM t2 ORDER BY a;
SELECT a, b, sum(a) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t2;
EXPLAIN QUERY PLAN SELECT * FROM emp WHERE dept = 'eng';
PRAGMA integrity_check;
