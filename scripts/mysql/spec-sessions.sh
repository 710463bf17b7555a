#!/usr/bin/env bash
# The three feature specs' sessions through the mysql command-line client
# against a local loadgw (go run ./cmd/loadgw): the MySQL port (9030) for
# SQL, the HTTP port (8030) for the stream loads. Re-runnable.
#   MYSQL_HOST=127.0.0.1 MYSQL_PORT=9030 HOST=127.0.0.1:8030 scripts/mysql/spec-sessions.sh
set -euo pipefail
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1}
MYSQL_PORT=${MYSQL_PORT:-9030}
HOST=${HOST:-127.0.0.1:8030}
mysql_() { mysql -h "$MYSQL_HOST" -P "$MYSQL_PORT" -uroot -t "$@"; }

echo "== Row Binlog: raw change records with before images"
mysql_ <<'SQL'
DROP DATABASE IF EXISTS spec_binlog;
CREATE DATABASE spec_binlog;
USE spec_binlog;
CREATE TABLE orders (
    order_id BIGINT,
    status   VARCHAR(16),
    amount   DECIMAL(10, 2)
)
UNIQUE KEY(order_id)
DISTRIBUTED BY HASH(order_id) BUCKETS 8
PROPERTIES (
    "enable_unique_key_merge_on_write" = "true",
    "binlog.enable" = "true",
    "binlog.format" = "ROW",
    "binlog.need_historical_value" = "true",
    "binlog.ttl_seconds" = "86400"
);
INSERT INTO orders VALUES (1, 'created', 100.00);
INSERT INTO orders VALUES (1, 'paid', 100.00);
DELETE FROM orders WHERE order_id = 1;
INSERT INTO orders VALUES (1, 'created', 150.00);
SELECT __DORIS_BINLOG_OP__ AS op, order_id, status, amount,
       __BEFORE__status__, __BEFORE__amount__
FROM binlog("table" = "orders")
ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__;
SQL

echo "== Flexible partial column update"
mysql_ <<'SQL'
DROP DATABASE IF EXISTS d1;
CREATE DATABASE d1;
USE d1;
CREATE TABLE t1 (
  `k` int(11) NULL,
  `v1` BIGINT NULL,
  `v2` BIGINT NULL DEFAULT "9876",
  `v3` BIGINT NOT NULL DEFAULT "0",
  `v4` BIGINT NOT NULL DEFAULT "1234",
  `v5` BIGINT NULL
) UNIQUE KEY(`k`) DISTRIBUTED BY HASH(`k`) BUCKETS 1
PROPERTIES(
"replication_num" = "1",
"enable_unique_key_merge_on_write" = "true",
"enable_unique_key_skip_bitmap_column" = "true"
);
INSERT INTO t1 VALUES (0,0,0,0,0,0), (1,1,1,1,1,1), (2,2,2,2,2,2), (3,3,3,3,3,3), (4,4,4,4,4,4), (5,5,5,5,5,5);
SELECT * FROM t1 ORDER BY k;
SQL
curl -s --location-trusted -u root: -H "Expect: 100-continue" -H "strict_mode:false" -H "format:json" \
  -H "read_json_by_line:true" -H "unique_key_update_mode:UPDATE_FLEXIBLE_COLUMNS" -T - \
  -XPUT "http://$HOST/api/d1/t1/_stream_load" <<'DATA'
{"k": 0, "__DORIS_DELETE_SIGN__": 1}
{"k": 1, "v1": 10}
{"k": 2, "v2": 20, "v5": 25}
{"k": 3, "v3": 30}
{"k": 4, "v4": 20, "v1": 43, "v3": 99}
{"k": 5, "v5": null}
{"k": 6, "v1": 999, "v3": 777}
{"k": 2, "v4": 222}
{"k": 1, "v2": 111, "v3": 111}
DATA
echo
mysql_ d1 -e 'SELECT * FROM t1 ORDER BY k'

echo "== Row-level TTL"
mysql_ <<'SQL'
DROP DATABASE IF EXISTS spec_ttl;
CREATE DATABASE spec_ttl;
USE spec_ttl;
SET time_zone = '+00:00';
CREATE TABLE row_ttl_events (
    id INT,
    event_time DATETIME(6) NULL,
    message STRING
)
DUPLICATE KEY(id)
DISTRIBUTED BY HASH(id) BUCKETS 1
PROPERTIES (
    "replication_num" = "1",
    "function_column.enable_row_ttl" = "true",
    "function_column.ttl_col" = "event_time",
    "function_column.ttl" = "1 day",
    "function_column.ttl_time_zone" = "+00:00"
);
INSERT INTO row_ttl_events VALUES
    (1, NOW(6) - INTERVAL 2 DAY, 'expired'),
    (2, NULL, 'persistent'),
    (3, NOW(6), 'live');
SELECT id, message FROM row_ttl_events ORDER BY id;
SQL
