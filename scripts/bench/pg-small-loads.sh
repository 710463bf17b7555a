#!/usr/bin/env bash
# PostgreSQL 15's side of issue 12's concurrent small loads (cmd/loadbench
# --clients), on a throwaway cluster of this machine: each transaction
# sends rows rows of loadbench's table (k BIGINT, v1 INT, v2 VARCHAR(32),
# ts) as one multi-row INSERT (simple protocol: the server parses every
# row, as loadgw parses every JSON row), with fsync and synchronous_commit
# on (a loadgw Success is durable too).
#
#   scripts/bench/pg-small-loads.sh [seconds]
#
# Workloads, as loadbench's:
#   mow-binlog  8 clients x 1,000 rows, INSERT ... ON CONFLICT DO UPDATE into
#               a table with a primary key on k, every key already there,
#               wal_level=logical and REPLICA IDENTITY FULL (the WAL carries
#               every change with its before image, as Row Binlog with
#               before images does)
#   dup         8 clients x 1,000 rows, plain INSERT into a table with a
#               non-unique index on k (a Duplicate Key table keeps its rows
#               in k order)
#   dup-1       the same, one client
#   mow-32      32 clients x 100 rows, upserts, wal_level=replica
# Each client upserts its own keys (no two concurrent transactions share a
# row), as loadbench's concurrent loads take consecutive key blocks.
# Each workload runs twice: rows sent as a VALUES list, and rows generated
# in the server (see script). Prints pgbench's transactions/s and the p50/p99/max latency from its
# per-transaction log.
set -euo pipefail
secs=${1:-10}
bin=/usr/lib/postgresql/15/bin
port=55433
tmp=$(mktemp -d /tmp/pgsmall.XXXXXX)
chown postgres "$tmp"
pgdo() { su postgres -c "$*"; }
trap 'pgdo "$bin/pg_ctl -D $tmp/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
pgdo "$bin/initdb -D $tmp/data -A trust -U postgres" >/dev/null
start() { # wal_level
  pgdo "$bin/pg_ctl -D $tmp/data -l $tmp/log -w -o '-p $port -c listen_addresses=127.0.0.1 -c shared_buffers=256MB -c max_wal_size=4GB -c wal_level=$1 -c max_connections=100' start" >/dev/null
}
stop() { pgdo "$bin/pg_ctl -D $tmp/data -w stop" >/dev/null; }
psqlc() { psql -h 127.0.0.1 -p $port -U postgres -q -v ON_ERROR_STOP=1 -c "$1" postgres; }

# script rows upsert mode: one transaction of rows rows at keys
# :base..:base+rows-1, sent as a VALUES list (mode values) or generated in
# the server (mode gen: nothing to send or parse, PostgreSQL's write path
# alone, a ceiling the network and the parser do not touch).
script() {
  local rows=$1 upsert=$2 mode=$3 f=$tmp/$1-$2-$3.sql
  {
    echo "\\set base (:client_id * 10 + random(0, 9)) * $rows"
    if [[ $mode == gen ]]; then
      printf "INSERT INTO t (k, v1, v2, ts) SELECT g, g * 7919 %% 1000000, 'some text of 20 chs', '2026-11-29 10:00:00' FROM generate_series(:base, :base + %d) g" $((rows - 1))
    else
      printf 'INSERT INTO t (k, v1, v2, ts) VALUES '
      for ((i = 0; i < rows; i++)); do
        ((i > 0)) && printf ', '
        printf "(:base + %d, %d, 'some text of 20 chs', '2026-11-29 10:00:00')" $i $((i * 7919 % 1000000))
      done
    fi
    if [[ $upsert == 1 ]]; then
      printf ' ON CONFLICT (k) DO UPDATE SET v1 = EXCLUDED.v1, v2 = EXCLUDED.v2, ts = EXCLUDED.ts'
    fi
    echo ';'
  } >"$f"
  echo "$f"
}

# run name clients rows upsert: pgbench for secs seconds with each mode,
# then the figures.
run() {
  local name=$1 clients=$2 rows=$3 upsert=$4 f mode proto
  for mode in values gen; do
    f=$(script "$rows" "$upsert" "$mode")
    proto=simple
    [[ $mode == gen ]] && proto=prepared
    rm -f "$tmp"/pgbench_log.*
    (cd "$tmp" && pgbench -h 127.0.0.1 -p $port -U postgres -n -M $proto -c "$clients" -j "$clients" -T 2 -f "$f" postgres >/dev/null) # warm-up
    rm -f "$tmp"/pgbench_log.*
    out=$(cd "$tmp" && pgbench -h 127.0.0.1 -p $port -U postgres -n -M $proto -c "$clients" -j "$clients" -T "$secs" -l -f "$f" postgres)
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    cat "$tmp"/pgbench_log.* | awk '{print $3}' | sort -n | awk -v name="$name $mode" -v tps="$tps" '
      { a[NR] = $1 }
      END { printf "%-18s %8.0f tx/s  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms  (%d tx)\n", name, tps, a[int(NR*0.5)+1]/1000, a[int(NR*0.99)+1]/1000, a[NR]/1000, NR }'
  done
}

# prepare keys pk identity: the table, every client's keys loaded when pk.
prepare() {
  local keys=$1 pk=$2 identity=$3
  psqlc "DROP TABLE IF EXISTS t"
  if [[ $pk == 1 ]]; then
    psqlc "CREATE TABLE t (k bigint PRIMARY KEY, v1 int, v2 varchar(32), ts timestamp)"
    psqlc "INSERT INTO t SELECT g, 0, 'preloaded', '2026-11-29 09:00:00' FROM generate_series(0, $keys - 1) g"
  else
    psqlc "CREATE TABLE t (k bigint, v1 int, v2 varchar(32), ts timestamp)"
    psqlc "CREATE INDEX ON t (k)"
  fi
  [[ $identity == full ]] && psqlc "ALTER TABLE t REPLICA IDENTITY FULL"
  psqlc "VACUUM ANALYZE t"
  psqlc "CHECKPOINT"
}

echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}'), $secs s per run, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
start logical
prepare 80000 1 full
run mow-binlog 8 1000 1
stop
start replica
prepare 0 0 default
run dup 8 1000 0
prepare 0 0 default
run dup-1 1 1000 0
prepare 32000 1 default
run mow-32 32 100 1
stop
