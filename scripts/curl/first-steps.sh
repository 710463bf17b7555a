#!/usr/bin/env bash
# A first session against a local loadgw (go run ./cmd/loadgw): create a
# database and a table, insert, query. Mirrors README.md.
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
sql() { # sql DB 'statement'
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"
sql demo "INSERT INTO orders VALUES (1, 'created', 100.00), (2, 'paid', 25.50)"
sql demo "SELECT * FROM orders ORDER BY order_id"
