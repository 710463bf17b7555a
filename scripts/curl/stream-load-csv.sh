#!/usr/bin/env bash
# Stream Load of a CSV file with curl, exactly as the Doris docs show it.
# Creates demo.orders if needed, loads three rows under a fresh label and
# queries the table. Usage: HOST=127.0.0.1:8030 ./stream-load-csv.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
# A label names the load: loading the same label twice is refused with
# "Label Already Exists", which makes retries safe. Make it unique per run.
LABEL=${LABEL:-orders_csv_$(date +%s)_$$}

sql() { # sql DB 'statement': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"

data=$(mktemp)
trap 'rm -f "$data"' EXIT
cat >"$data" <<'CSV'
1,paid,100.00
2,created,25.50
3,shipped,7.25
CSV

# -T uploads the file with PUT; -u root: is the user root with an empty
# password. --location-trusted and Expect:100-continue are what a Doris FE
# needs; loadgw answers directly and accepts them.
curl -sS --location-trusted -u root: \
  -H "Expect:100-continue" \
  -H "label:$LABEL" \
  -H "column_separator:," \
  -T "$data" \
  "http://$HOST/api/demo/orders/_stream_load"
echo

sql demo "SELECT * FROM orders ORDER BY order_id"
