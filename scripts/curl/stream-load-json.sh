#!/usr/bin/env bash
# Stream Load of JSON: one object per line (read_json_by_line), then a JSON
# array (strip_outer_array), both piped from stdin with -T - (chunked).
# Usage: HOST=127.0.0.1:8030 ./stream-load-json.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
RUN=$(date +%s)_$$

sql() { # sql DB 'statement': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"

# JSON lines: keys are matched to columns by name; numbers may be strings;
# a missing key loads NULL; unknown keys are ignored.
printf '%s\n' \
  '{"order_id": 10, "status": "created", "amount": 12.5}' \
  '{"order_id": "11", "status": "paid", "amount": "40.00", "coupon": "X1"}' \
  '{"order_id": 12, "status": "created"}' |
  curl -sS --location-trusted -u root: \
    -H "Expect:100-continue" \
    -H "label:orders_json_lines_$RUN" \
    -H "format:json" \
    -H "read_json_by_line:true" \
    -T - \
    "http://$HOST/api/demo/orders/_stream_load"
echo

# One JSON array: strip_outer_array turns its elements into rows.
echo '[{"order_id": 12, "status": "paid", "amount": 3.99}, {"order_id": 13, "status": "created", "amount": 8}]' |
  curl -sS --location-trusted -u root: \
    -H "Expect:100-continue" \
    -H "label:orders_json_array_$RUN" \
    -H "format:json" \
    -H "strip_outer_array:true" \
    -T - \
    "http://$HOST/api/demo/orders/_stream_load"
echo

sql demo "SELECT * FROM orders WHERE order_id BETWEEN 10 AND 13 ORDER BY order_id"
