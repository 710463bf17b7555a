#!/usr/bin/env bash
# A consumer of a Table Stream's HTTP change feed that commits after it
# processed each batch: GET .../_changes answers NDJSON changes and a last
# line {"checkpoint":T,"rows":N,"more":B}; the consumer processes the rows,
# records T with its output, then POSTs {"tso": T} to .../_commit.
# If the commit is lost (a crash, a network error), the next batch delivers
# the same changes again; the rows whose "tso" is at or below the
# checkpoint recorded in $STATE are dropped (and the initial image of a
# show_initial_rows stream, "tso":-1, once a checkpoint was processed), so
# each change is processed exactly once. Without $STATE the consumer is
# at-least-once.
# Usage: HOST=127.0.0.1:8030 DB=demo STREAM=orders_feed [FOLLOW=1] [STATE=file] ./stream-consumer.sh
set -euo pipefail
HOST=${HOST:-127.0.0.1:8030}
DB=${DB:-demo}
STREAM=${STREAM:-orders_feed}
FOLLOW=${FOLLOW:-0}       # 1: keep long-polling; 0: stop once drained
WAIT=${WAIT:-1s}          # long poll per request, at most 60s
MAX_ROWS=${MAX_ROWS:-1000}
STATE=${STATE:-}          # file holding the processed checkpoint

processed=0
if [[ -n $STATE && -s $STATE ]]; then processed=$(<"$STATE"); fi

process() { # one change per line; replace with the real work
  printf '%s\n' "$1"
}

while :; do
  batch=$(curl -sS -u root: "http://$HOST/api/$DB/$STREAM/_changes?wait=$WAIT&max_rows=$MAX_ROWS")
  last=${batch##*$'\n'}
  if [[ $last != '{"checkpoint":'* ]]; then
    echo "change feed error: $last" >&2
    exit 1
  fi
  checkpoint=${last#'{"checkpoint":'}
  checkpoint=${checkpoint%%,*}
  rows=${last#*'"rows":'}
  rows=${rows%%,*}
  if ((rows > 0)); then
    while IFS= read -r line; do
      [[ $line == '{"op":'* ]] || continue
      tso=${line#*'"tso":'}
      tso=${tso%%,*}
      # tso -1 marks the initial image of a show_initial_rows stream: it
      # comes before any checkpoint was processed.
      if ((tso > processed)) || ((tso < 0 && processed == 0)); then process "$line"; fi
    done <<<"$batch"
  fi
  processed=$checkpoint
  if [[ -n $STATE ]]; then printf '%s\n' "$processed" >"$STATE"; fi
  curl -sS -u root: -X POST "http://$HOST/api/$DB/$STREAM/_commit" -d "{\"tso\": $checkpoint}"
  echo
  if ((rows == 0)) && [[ $FOLLOW != 1 ]]; then
    break
  fi
done
