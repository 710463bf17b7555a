#!/usr/bin/env bash
# Row Binlog, as the spec shows it: a merge-on-write table that records
# every row change with its commit TSO and the row before the change, read
# back with binlog() and @incr. Usage: HOST=127.0.0.1:8030 ./row-binlog.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
LABEL=${LABEL:-orders_binlog_$(date +%s)_$$}

sql() { # sql DB 'statements': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "DROP TABLE IF EXISTS orders_binlog"
sql demo "CREATE TABLE orders_binlog (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 8 PROPERTIES ('enable_unique_key_merge_on_write' = 'true', 'binlog.enable' = 'true', 'binlog.format' = 'ROW', 'binlog.need_historical_value' = 'true', 'binlog.ttl_seconds' = '86400')"
sql demo "INSERT INTO orders_binlog VALUES (1, 'created', 100.00)"
sql demo "INSERT INTO orders_binlog VALUES (1, 'paid', 100.00)"
sql demo "DELETE FROM orders_binlog WHERE order_id = 1"
sql demo "INSERT INTO orders_binlog VALUES (1, 'created', 150.00)"

# A stream load is one transaction: its rows share one TSO.
curl -sS --location-trusted -u root: \
  -H "label:$LABEL" \
  -H 'column_separator:,' \
  -T - "http://$HOST/api/demo/orders_binlog/_stream_load" <<'DATA'
1,shipped,150.00
2,created,20.00
DATA
echo

# The raw change records: 0 insert, 1 update, 2 delete, with before images.
sql demo "SELECT __DORIS_BINLOG_OP__ AS op, order_id, status, amount, __BEFORE__status__, __BEFORE__amount__ FROM binlog('table' = 'orders_binlog') ORDER BY __DORIS_BINLOG_TSO__, __DORIS_BINLOG_LSN__"
# The net change since the table was created: one append per live key.
sql demo "SELECT order_id, status, amount, __DORIS_BINLOG_OP__ AS op FROM orders_binlog@incr('incrementType' = 'MIN_DELTA') ORDER BY order_id"
