#!/usr/bin/env bash
# Stream Load with column mapping and a filter: the file's fields get names
# in "columns", table columns are computed with col=expr, and "where" drops
# rows (counted as NumberUnselectedRows, not as errors).
# Usage: HOST=127.0.0.1:8030 ./stream-load-mapping.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
LABEL=${LABEL:-orders_mapping_$(date +%s)_$$}

sql() { # sql DB 'statement': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"

# The file has the amount in cents and the status in lower case, separated
# by "|". Order 22 has a zero amount and is skipped by the where clause.
data=$(mktemp)
trap 'rm -f "$data"' EXIT
cat >"$data" <<'CSV'
20|created|1999
21|paid|250
22|cancelled|0
CSV

# "columns" names the file's fields in order (order_id, st, cents), then
# computes table columns from them with col=expr; a field named like a table
# column (order_id) goes there directly. "where" filters on the table's
# columns after the mapping, as in Doris.
curl -sS --location-trusted -u root: \
  -H "Expect:100-continue" \
  -H "label:$LABEL" \
  -H "column_separator:|" \
  -H "columns: order_id, st, cents, status=upper(st), amount=cents/100" \
  -H "where: amount > 0" \
  -T "$data" \
  "http://$HOST/api/demo/orders/_stream_load"
echo

sql demo "SELECT * FROM orders WHERE order_id BETWEEN 20 AND 22 ORDER BY order_id"
