#!/usr/bin/env bash
# Table Streams: a stream on a Row Binlog table, read and consumed with
# SQL, then consumed over the HTTP change feed by stream-consumer.sh.
# Usage: HOST=127.0.0.1:8030 ./change-feed.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
HERE=$(cd "$(dirname "$0")" && pwd)

sql() { # sql DB 'statements': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "DROP STREAM IF EXISTS orders_feed"
sql demo "DROP STREAM IF EXISTS orders_sync"
sql demo "DROP TABLE IF EXISTS orders_cdc"
sql demo "DROP TABLE IF EXISTS orders_copy"
sql demo "CREATE TABLE orders_cdc (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1 PROPERTIES ('enable_unique_key_merge_on_write' = 'true', 'binlog.enable' = 'true', 'binlog.format' = 'ROW', 'binlog.need_historical_value' = 'true')"
sql demo "CREATE TABLE orders_copy (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1 PROPERTIES ('enable_unique_key_merge_on_write' = 'true')"
sql demo "INSERT INTO orders_cdc VALUES (1, 'created', 100.00), (2, 'created', 200.00)"
# Two streams, each with its own offsets: one consumed with SQL, one over HTTP.
sql demo "CREATE STREAM orders_sync ON TABLE orders_cdc COMMENT 'sync to orders_copy' PROPERTIES ('type' = 'min_delta', 'show_initial_rows' = 'true')"
sql demo "CREATE STREAM orders_feed ON TABLE orders_cdc PROPERTIES ('type' = 'detail')"
sql demo "INSERT INTO orders_cdc VALUES (1, 'paid', 100.00), (3, 'created', 300.00)"
sql demo "DELETE FROM orders_cdc WHERE order_id = 2"
# Reading does not consume.
sql demo "SELECT order_id, status, __DORIS_STREAM_CHANGE_TYPE_COL__ FROM orders_feed ORDER BY __DORIS_STREAM_SEQUENCE_COL__, __DORIS_STREAM_LSN_COL__"
# INSERT ... SELECT consumes, in the same transaction as its rows.
sql demo "INSERT INTO orders_copy (order_id, status, amount, __DORIS_DELETE_SIGN__) SELECT order_id, status, amount, CASE WHEN __DORIS_STREAM_CHANGE_TYPE_COL__ = 'DELETE' THEN 1 ELSE 0 END FROM orders_sync WHERE __DORIS_STREAM_CHANGE_TYPE_COL__ IN ('APPEND', 'UPDATE_AFTER', 'DELETE')"
sql demo "SELECT * FROM orders_copy ORDER BY order_id"
sql demo "SELECT STREAM_NAME, CONSUMPTION_STATUS != 'N/A' AS consumed, LAST_CONSUMPTION_TIME > 0 AS has_time FROM information_schema.table_stream_consumption WHERE DB_NAME = 'demo' AND STREAM_NAME IN ('orders_sync', 'orders_feed') ORDER BY STREAM_NAME"

# The HTTP change feed: one batch by hand ...
curl -sS -u root: "http://$HOST/api/demo/orders_feed/_changes?wait=0s&max_rows=100"
# ... then the consumer drains the stream and commits each batch.
HOST=$HOST DB=demo STREAM=orders_feed "$HERE/stream-consumer.sh"
sql demo "SELECT count(*) FROM orders_feed"
