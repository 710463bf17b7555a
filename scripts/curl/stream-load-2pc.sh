#!/usr/bin/env bash
# Two-phase commit by hand: a load with two_phase_commit:true is only
# PRE-COMMITTED (its rows stay invisible, survive restarts, and are aborted
# after --precommit-timeout); PUT .../_stream_load_2pc then commits it by
# txn_id (or aborts it, by txn_id or label). No jq needed: the TxnId is taken
# from the response with sed. Usage: HOST=127.0.0.1:8030 ./stream-load-2pc.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
LABEL=${LABEL:-orders_2pc_$(date +%s)_$$}

sql() { # sql DB 'statement': the HTTP SQL endpoint
  curl -s -u root: -H 'Content-Type: application/json' \
    -X POST "http://$HOST/api/query/default_cluster/$1" \
    -d "{\"stmt\": \"$2\"}"
  echo
}
sql information_schema "CREATE DATABASE IF NOT EXISTS demo"
sql demo "CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, status VARCHAR(16), amount DECIMAL(10, 2)) UNIQUE KEY(order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1"

# 1. Pre-commit: Status is Success and TwoPhaseCommit "true".
resp=$(printf '30,created,5.00\n31,created,6.00\n' |
  curl -sS --location-trusted -u root: \
    -H "Expect:100-continue" \
    -H "label:$LABEL" \
    -H "column_separator:," \
    -H "two_phase_commit:true" \
    -T - \
    "http://$HOST/api/demo/orders/_stream_load")
echo "$resp"
# The response is pretty-printed, one field per line: "TxnId": 1234,
txn_id=$(echo "$resp" | sed -n 's/^ *"TxnId": *\([0-9][0-9]*\),.*$/\1/p')
if [ -z "$txn_id" ] || ! echo "$resp" | grep -q '"Status": "Success"'; then
  echo "pre-commit failed" >&2
  exit 1
fi
echo "pre-committed txn $txn_id"

# 2. Still invisible; the label's state is PRECOMMITTED.
curl -sS -u root: "http://$HOST/api/demo/get_load_state?label=$LABEL"
echo
sql demo "SELECT count(*) FROM orders WHERE order_id IN (30, 31)"

# 3. Commit by txn id ({"status": "Success", ...}). To abort instead, send
#    txn_operation:abort, with txn_id or with label:$LABEL.
curl -sS --location-trusted -u root: -X PUT \
  -H "Expect:100-continue" \
  -H "txn_id:$txn_id" \
  -H "txn_operation:commit" \
  "http://$HOST/api/demo/_stream_load_2pc"
echo

# 4. Now visible; the state is VISIBLE.
curl -sS -u root: "http://$HOST/api/demo/get_load_state?label=$LABEL"
echo
sql demo "SELECT * FROM orders WHERE order_id IN (30, 31) ORDER BY order_id"
