#!/usr/bin/env bash
# CI preparation for the control-plane tests (called by .ci/run).
#
#   hack/ci-prepare.sh start   apt packages (openssl, curl), then the Go builds of kube-apiserver,
#                              etcd and helm (plus kubectl when the machine has none) in the
#                              background; returns at once. Run `npm ci` meanwhile.
#                              The Kafka broker jars come from Maven Central meanwhile
#                              (hack/install-kafka.sh), also in the background.
#                              The OpenTelemetry Collector of the collector test
#                              (hack/build-otelcol.sh) builds in the background too.
#   hack/ci-prepare.sh wait    waits for all three, prints their log tails and timings; non-zero
#                              exit when one failed. Instant when everything is cached.
# Debian packages: openssl, curl, util-linux, Go, nats-server (bus tests), prometheus (remote-write test), chromium (dashboard
# end-to-end tests), maven (Kafka jars).
#   hack/ci-prepare.sh         both, in sequence.
# Cache: $FAULTLINE_CACHE (default ~/.cache/faultline); a second run builds nothing.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

STATE="$FAULTLINE_CACHE/ci-build"
mkdir -p "$STATE" "$BUILD_LOG_DIR"
log() { printf '[ci-prepare %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

install_apt_packages() {
  local missing
  read -r -a missing <<<"$(missing_debian_packages)"
  if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get install ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  go_is_new_enough || { log "Go >= 1.24 is needed to build kube-apiserver $K8S_VERSION (found $(go env GOVERSION 2>/dev/null || echo none))"; return 1; }
}

start_build() {
  local components=(kube-apiserver etcd helm)
  command -v kubectl >/dev/null || components+=(kubectl)
  if [ -x "$CP_BIN/kube-apiserver" ] && [ -x "$CP_BIN/etcd" ] && [ -x "$HELM_BIN/helm" ] &&
     { command -v kubectl >/dev/null || [ -x "$CP_BIN/kubectl" ]; }; then
    log "control-plane binaries cached in $FAULTLINE_CACHE"
    echo 0 >"$STATE/rc"; : >"$STATE/build.log"; rm -f "$STATE/pid"
    return
  fi
  rm -f "$STATE/rc"
  log "building ${components[*]} in the background (log: $STATE/build.log)"
  (
    start=$(date +%s)
    rc=0
    "$HERE/build-control-plane.sh" "${components[@]}" >"$STATE/build.log" 2>&1 || rc=$?
    echo "total $(( $(date +%s) - start )) s" >>"$STATE/build.log"
    echo "$rc" >"$STATE/rc"
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$STATE/pid"
}

wait_build() {
  local waited=0
  if [ ! -f "$STATE/rc" ] && [ ! -f "$STATE/pid" ]; then
    log "no background build was started; building now"
    start_build
  fi
  while [ ! -f "$STATE/rc" ]; do
    if [ -f "$STATE/pid" ] && ! kill -0 "$(cat "$STATE/pid")" 2>/dev/null && [ ! -f "$STATE/rc" ]; then
      log "background build vanished without a result"; tail -n 40 "$STATE/build.log" || true; return 1
    fi
    sleep 2; waited=$((waited + 2))
    [ $((waited % 60)) -eq 0 ] && log "still building ($waited s): $(grep -E '^\[build-control-plane' "$STATE/build.log" | tail -n 1)"
  done
  local rc
  rc=$(cat "$STATE/rc")
  grep -E '^\[build-control-plane|^total' "$STATE/build.log" || true
  if [ "$rc" != 0 ]; then
    log "control-plane build failed (exit $rc); last lines:"; tail -n 60 "$STATE/build.log"; return "$rc"
  fi
  log "control-plane binaries ready (waited $waited s): $CP_BIN, $HELM_BIN"
}

start_kafka_fetch() {
  rm -f "$STATE/kafka.rc"
  (
    rc=0
    "$HERE/install-kafka.sh" >"$STATE/kafka.log" 2>&1 || rc=$?
    echo "$rc" >"$STATE/kafka.rc"
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$STATE/kafka.pid"
}

wait_kafka_fetch() {
  [ -f "$STATE/kafka.rc" ] || [ -f "$STATE/kafka.pid" ] || start_kafka_fetch
  while [ ! -f "$STATE/kafka.rc" ]; do
    if ! kill -0 "$(cat "$STATE/kafka.pid")" 2>/dev/null && [ ! -f "$STATE/kafka.rc" ]; then
      log "Kafka jar fetch vanished without a result"; tail -n 40 "$STATE/kafka.log" || true; return 1
    fi
    sleep 2
  done
  cat "$STATE/kafka.log"
  local rc
  rc=$(cat "$STATE/kafka.rc")
  [ "$rc" = 0 ] || { log "Kafka jar fetch failed (exit $rc)"; return "$rc"; }
}

start_otelcol_build() {
  if [ -x "$OTELCOL_BIN" ]; then
    log "otelcol $OTELCOL_VERSION cached in $OTELCOL_DIR"
    echo 0 >"$STATE/otelcol.rc"; : >"$STATE/otelcol.log"; rm -f "$STATE/otelcol.pid"
    return
  fi
  rm -f "$STATE/otelcol.rc"
  log "building otelcol $OTELCOL_VERSION in the background (log: $STATE/otelcol.log)"
  (
    start=$(date +%s)
    rc=0
    "$HERE/build-otelcol.sh" >"$STATE/otelcol.log" 2>&1 || rc=$?
    echo "total $(( $(date +%s) - start )) s" >>"$STATE/otelcol.log"
    echo "$rc" >"$STATE/otelcol.rc"
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$STATE/otelcol.pid"
}

wait_otelcol_build() {
  [ -f "$STATE/otelcol.rc" ] || [ -f "$STATE/otelcol.pid" ] || start_otelcol_build
  local waited=0
  while [ ! -f "$STATE/otelcol.rc" ]; do
    if ! kill -0 "$(cat "$STATE/otelcol.pid")" 2>/dev/null && [ ! -f "$STATE/otelcol.rc" ]; then
      log "otelcol build vanished without a result"; tail -n 40 "$STATE/otelcol.log" || true; return 1
    fi
    sleep 2; waited=$((waited + 2))
    [ $((waited % 60)) -eq 0 ] && log "still building otelcol ($waited s)"
  done
  grep -E '^\[build-otelcol|^total' "$STATE/otelcol.log" || true
  local rc
  rc=$(cat "$STATE/otelcol.rc")
  if [ "$rc" != 0 ]; then
    log "otelcol build failed (exit $rc); last lines:"; tail -n 60 "$STATE/otelcol.log"; return "$rc"
  fi
  log "otelcol ready (waited $waited s): $OTELCOL_BIN"
}

case "${1:-all}" in
  start) install_apt_packages; start_kafka_fetch; start_build; start_otelcol_build ;;
  wait) wait_kafka_fetch; wait_build; wait_otelcol_build ;;
  all) install_apt_packages; start_kafka_fetch; start_build; start_otelcol_build; wait_kafka_fetch; wait_build; wait_otelcol_build ;;
  *) echo "usage: $0 [start|wait]" >&2; exit 2 ;;
esac
