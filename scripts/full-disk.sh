#!/bin/sh
# full-disk.sh: a load on a nearly full 64 MiB volume fails with
# DISK_REACH_CAPACITY_LIMIT, the server stays up, reads work, and loads
# succeed again once space is freed. Needs root (tmpfs mount), curl, python3.
# Usage: sudo scripts/full-disk.sh  (from the repository root)
set -eu
MNT=$(mktemp -d); PORT=18939; BIN=$MNT.loadgw
go build -o "$BIN" ./cmd/loadgw
mount -t tmpfs -o size=64m tmpfs "$MNT"
trap 'kill $PID 2>/dev/null; sleep 1; umount "$MNT"; rm -f "$BIN"' EXIT
dd if=/dev/zero of="$MNT/filler" bs=1M count=20 2>/dev/null
"$BIN" --data-dir "$MNT/data" --http-addr 127.0.0.1:$PORT --mysql-addr= >"$MNT.log" 2>&1 & PID=$!
sleep 1
q() { curl -s -u root: -H 'Content-Type: application/json' -d "{\"stmt\":\"$1\"}" http://127.0.0.1:$PORT/api/query/default_cluster/d; echo; }
q "CREATE DATABASE d" >/dev/null
q "CREATE TABLE d.t (k INT, v VARCHAR(200)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1" >/dev/null
python3 -c "
import sys
for i in range(60000): sys.stdout.write('%d,%s\n' % (i, 'x'*150))" >"$MNT.csv"
load() { curl -s -u root: -T "$MNT.csv" -H 'column_separator: ,' -H 'Expect:' http://127.0.0.1:$PORT/api/d/t/_stream_load | grep -E '"Status"|"Message"'; }
for i in 1 2 3 4 5; do echo "load $i:"; load; done   # the last ones: Fail, DISK_REACH_CAPACITY_LIMIT
q "SELECT count(*) FROM d.t"                           # reads work
rm "$MNT/filler"; echo "after freeing space:"; load    # Success
kill -0 $PID && echo "server alive"
rm -f "$MNT.csv" "$MNT.log"
