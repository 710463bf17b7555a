#!/usr/bin/env bash
# Table Stream reads in a loop beside many small loads: every stream
# statement takes a consistent view (upsert.Writer.View), which waits for
# the queued commit groups. One client runs `SELECT count(*)` on a stream of
# an idle table while cmd/loadbench's clients send 100-row merge-on-write
# loads to the same server; prints the stream statements done and the
# loads/s.
#
#   scripts/bench/stream-reads-under-load.sh [loadgw-binary] [clients] [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
bin=${1:-}
clients=${2:-32}
secs=${3:-20}
if [[ -z $bin ]]; then
  go build -o "$tmp/loadgw" ./cmd/loadgw
  bin=$tmp/loadgw
fi
go build -o "$tmp/loadbench" ./cmd/loadbench
addr=127.0.0.1:18932
"$bin" --data-dir "$tmp/data" --http-addr $addr --mysql-addr= >"$tmp/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -sf http://$addr/api/health >/dev/null && break; sleep 0.1; done
q() { curl -sf -m 60 -u root: -X POST http://$addr/api/query/default_cluster/"$1" -d "{\"stmt\": \"$2\"}" >/dev/null; }
q information_schema "CREATE DATABASE IF NOT EXISTS bench"
q bench 'CREATE TABLE o (k BIGINT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (\"binlog.enable\" = \"true\", \"binlog.format\" = \"ROW\")'
q bench 'CREATE STREAM s ON TABLE o PROPERTIES (\"type\" = \"append_only\")'
"$tmp/loadbench" --addr $addr --model mow --clients "$clients" --rows 100 --duration "${secs}s" >"$tmp/lb.out" 2>&1 &
lb=$!
sleep 3
n=0
s=$(date +%s.%N)
while kill -0 $lb 2>/dev/null; do q bench "SELECT count(*) FROM s"; n=$((n + 1)); done
e=$(date +%s.%N)
echo "stream SELECTs: $n in $(echo "$e - $s" | bc) s"
grep -E "loads/s" "$tmp/lb.out"
