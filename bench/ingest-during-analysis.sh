#!/usr/bin/env bash
# Remote-write ingest while the analysis of a backfill runs (docs/ingest-performance.md): starts the
# built service (npm start's settings), then three times: one round of rw-load.mjs (1 000 000
# samples, new workloads: a backfill), waits until the event loop is busy analysing it, sends a
# second round meanwhile ("BUSY"), and waits for quiet. Prints each round's JSON line behind IDLE
# or BUSY. Needs `npm run build` and the shared tools (RW_LOAD, default ../shared/tools/perf).
#   bash bench/ingest-during-analysis.sh OUT_PREFIX [ENV=VALUE ...]
set -u
proj=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?output prefix}; shift
rw_load=${RW_LOAD:-$proj/../shared/tools/perf/rw-load.mjs}
tmp=$(mktemp -d); export PROJECT_DIR=$proj
cd "$proj"
env -u SVC_API_KEY SVC_PORT=18080 SVC_OTLP_PORT=18317 SVC_OTLP_HTTP_PORT=0 SVC_STATSD_PORT=0 SVC_GRPC_PORT=0 SVC_DASHBOARD_PORT=0 \
  SVC_BIND_ADDRESS=127.0.0.1 SVC_DATA_DIR="$tmp/data" SVC_INGEST_RPS=1000000 MALLOC_MMAP_THRESHOLD_=131072 "$@" \
  node --max-semi-space-size=64 dist/api-server/src/main.js >"$out.svc.log" 2>&1 &
svc=$!
for i in $(seq 1 60); do curl -sf http://127.0.0.1:18080/api/v2/ready >/dev/null && break; sleep 0.5; done
main_cpu() { awk '{print $14+$15}' /proc/$svc/task/$svc/stat; }
for r in 1 2 3; do
  node "$rw_load" --url http://127.0.0.1:18080/api/v2/write --requests 2000 --series 500 --json --prefix idle$r | sed 's/^/IDLE /' >> "$out"
  # wait until the analysis is running (main thread >50% over 0.5 s)
  for i in $(seq 1 60); do a=$(main_cpu); sleep 0.5; b=$(main_cpu); [ $((b-a)) -ge 25 ] && break; done
  sleep 2
  node "$rw_load" --url http://127.0.0.1:18080/api/v2/write --requests 2000 --series 500 --json --prefix busy$r | sed 's/^/BUSY /' >> "$out"
  # wait for quiet
  for i in $(seq 1 200); do a=$(main_cpu); sleep 1; b=$(main_cpu); [ $((b-a)) -le 5 ] && break; done
done
kill $svc; wait $svc; rm -rf $tmp
