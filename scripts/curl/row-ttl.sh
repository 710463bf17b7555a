#!/usr/bin/env bash
# Row-level TTL in direct-expiration mode, as the Row TTL spec shows it:
# each row carries its own deadline in the hidden column __DORIS_TTL_COL__
# (epoch microseconds); a row whose deadline has passed is invisible.
# Usage: HOST=127.0.0.1:8030 ./row-ttl.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
LABEL=${LABEL:-row_ttl_expirations_$(date +%s)_$$}

sql() { # sql DB 'statements': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "DROP TABLE IF EXISTS row_ttl_expirations"
sql demo "CREATE TABLE row_ttl_expirations (id INT, message STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ('replication_num' = '1', 'function_column.enable_row_ttl' = 'true')"
sql demo "SET time_zone = '+00:00'; INSERT INTO row_ttl_expirations(id, message, __DORIS_TTL_COL__) VALUES (1, 'expired', 0), (2, 'persistent', NULL), (3, 'live', NOW(6) + INTERVAL 1 DAY)"
sql demo "INSERT INTO row_ttl_expirations VALUES (4, 'omitted')"
# Row 1 expired at the epoch: the query shows 2, 3 and 4.
sql demo "SELECT id, message FROM row_ttl_expirations ORDER BY id"
sql demo "SELECT count(*) AS visible, min(id) AS first FROM row_ttl_expirations"

# Stream Load: cast the input's expiration to DATETIME(6) in the load's
# time zone. Row 11 is already expired and is loaded, not filtered.
curl -sS --location-trusted -u root: \
  -H "label:$LABEL" \
  -H 'column_separator:,' \
  -H 'timezone:+00:00' \
  -H 'columns:id,message,expiration,__DORIS_TTL_COL__=cast(expiration as datetime(6))' \
  -T - "http://$HOST/api/demo/row_ttl_expirations/_stream_load" <<'DATA'
10,stream-live,2099-01-01 00:00:00.000000
11,stream-expired,2000-01-01 00:00:00.000000
DATA
echo
sql demo "SELECT id, message FROM row_ttl_expirations WHERE id >= 10 ORDER BY id"
sql demo "SELECT count(*) AS visible, min(id) AS first FROM row_ttl_expirations WHERE id >= 10"
