#!/usr/bin/env bash
# Times `loadgw load` against doris-streamloader on the same CSV file, both
# loading into a fresh loadgw over loopback with the same number of workers.
#
#   DORIS_STREAMLOADER=/path/to/doris-streamloader scripts/bench/loader-vs-streamloader.sh [rows] [workers]
#
# doris-streamloader is not built here: build it from
# github.com/apache/doris-streamloader (go generate && go build) and point
# DORIS_STREAMLOADER at the binary.
set -euo pipefail
rows=${1:-4000000}
workers=${2:-4}
sl=${DORIS_STREAMLOADER:?set DORIS_STREAMLOADER to the doris-streamloader binary}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/loadgw" ./cmd/loadgw
awk -v n="$rows" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,name_%d,%d.%02d,2026-11-%02d 10:%02d:%02d\n", i, i % 1000, i % 100000, i % 100, i % 28 + 1, i % 60, i % 60 }' > "$tmp/data.csv"
"$tmp/loadgw" --data-dir "$tmp/data" --http-addr 127.0.0.1:18930 --mysql-addr= >"$tmp/log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf http://127.0.0.1:18930/api/health >/dev/null && break; sleep 0.1; done
q() { curl -sf -u root: -X POST http://127.0.0.1:18930/api/query/default_cluster/"$1" -d "{\"stmt\": \"$2\"}" >/dev/null; }
q information_schema "CREATE DATABASE bench"
for t in a b; do
  q bench "CREATE TABLE $t (id BIGINT, name VARCHAR(32), amount DECIMAL(10, 2), ts DATETIME) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1"
done
echo "file: $rows rows, $(du -h "$tmp/data.csv" | cut -f1), $workers workers"
s=$(date +%s.%N)
"$tmp/loadgw" load --host 127.0.0.1:18930 --db bench --table a --workers "$workers" --progress none -H column_separator:, "$tmp/data.csv" >/dev/null
e=$(date +%s.%N)
echo "loadgw load:        $(echo "$rows / ($e - $s)" | bc) rows/s"
s=$(date +%s.%N)
"$sl" --source_file="$tmp/data.csv" --url=http://127.0.0.1:18930 --header="column_separator:," --db=bench --table=b --u=root --p= --workers="$workers" >"$tmp/sl.out" 2>&1
e=$(date +%s.%N)
echo "doris-streamloader: $(echo "$rows / ($e - $s)" | bc) rows/s"
for t in a b; do
  curl -s -u root: -X POST http://127.0.0.1:18930/api/query/default_cluster/bench -d "{\"stmt\": \"SELECT count(*) FROM $t\"}" | tr -d ' \n' | sed 's/.*"data":\[\[\([0-9]*\)\]\].*/'"$t"' rows: \1\n/'
done
