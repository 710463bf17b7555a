#!/usr/bin/env bash
# A load with bad rows: rows that do not fit the table are filtered and
# written to an error log. max_filter_ratio (filtered / total, default 0)
# decides whether the load still succeeds; the response's ErrorURL serves
# the log, one "Reason: ... src line [...]" per bad row.
# Usage: HOST=127.0.0.1:8030 ./error-log.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
LABEL=${LABEL:-orders_errors_$(date +%s)_$$}

sql() { # sql DB 'statement': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"

# Row 41 has a status longer than VARCHAR(16) (cut to 16 characters, as
# Doris does without strict_mode, it is still over 16 bytes), row 42 lacks a
# field: 2 of 4 rows are filtered, a ratio of 0.5, which max_filter_ratio
# allows.
resp=$(printf '40,paid,1.00\n41,expédié-à-entrepôt,2.00\n42,paid\n43,paid,4.00\n' |
  curl -sS --location-trusted -u root: \
    -H "Expect:100-continue" \
    -H "label:$LABEL" \
    -H "column_separator:," \
    -H "max_filter_ratio:0.5" \
    -T - \
    "http://$HOST/api/demo/orders/_stream_load")
echo "$resp"

# "ErrorURL": "http://HOST/api/_load_error_log?file=..." is present when rows
# were filtered. Fetching it needs the same Basic auth as the load (unless
# loadgw runs with --error-log-public).
error_url=$(echo "$resp" | sed -n 's/^ *"ErrorURL": *"\([^"]*\)".*$/\1/p')
if [ -z "$error_url" ]; then
  echo "no ErrorURL in the response" >&2
  exit 1
fi
curl -sS -f -u root: "$error_url"
