#!/usr/bin/env bash
# `npm test`'s pre-script: prepares what the integration tests need on a fresh clone, so that
# `npm ci && npm test` is the whole set-up. Everything is cached in $FAULTLINE_CACHE (default
# ~/.cache/faultline); a warm run only tests for files and prints nothing.
#
#   Debian packages (nats-server, chromium, maven, Go, ...): installed with apt-get where the
#     machine lets us (root, or sudo without a password); otherwise one line names the command.
#   Kafka broker jars: hack/install-kafka.sh (Maven Central, about a minute).
#   kube-apiserver, etcd, helm (+ kubectl): hack/build-control-plane.sh (Go, 7-11 minutes cold
#     on 2 cores), with a progress line every 30 s.
#   The OpenTelemetry Collector of the collector test: hack/build-otelcol.sh (Go), the same way.
#
# Never fails the run for a missing tool (the tests that need it fail with their own message); it
# fails only when a download or build that it started fails. FAULTLINE_SKIP_TEST_PREPARE=1 skips it.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

[ "${FAULTLINE_SKIP_TEST_PREPARE:-}" = 1 ] && exit 0
log() { printf '[test-prepare %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

read -r -a debs <<<"$(missing_debian_packages)"
read -r -a binaries <<<"$(missing_control_plane_binaries)"
kafka_cached=1
[ -f "$KAFKA_HOME/lib/.complete" ] || kafka_cached=0
# The warm path: nothing to do, nothing printed.
[ ${#debs[@]} -eq 0 ] && [ ${#binaries[@]} -eq 0 ] && [ "$kafka_cached" = 1 ] && [ -x "$OTELCOL_BIN" ] && exit 0

if [ ${#debs[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  if command -v apt-get >/dev/null && { [ -z "$sudo" ] || sudo -n true 2>/dev/null; }; then
    log "installing Debian packages ${debs[*]} (apt-get; once)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${debs[@]}" >/dev/null
  else
    log "missing ${debs[*]}: run 'sudo apt-get install ${debs[*]}' (their tests fail until then)"
  fi
fi

mkdir -p "$BUILD_LOG_DIR"
if [ "$kafka_cached" = 0 ]; then
  if command -v mvn >/dev/null && command -v java >/dev/null; then
    log "fetching the Kafka $KAFKA_VERSION broker jars from Maven Central into $KAFKA_HOME (once)"
    with_progress "[test-prepare] Kafka jars" "$BUILD_LOG_DIR/install-kafka.log" "$HERE/install-kafka.sh" ||
      { log "hack/install-kafka.sh failed; its log:"; cat "$BUILD_LOG_DIR/install-kafka.log"; exit 1; }
    last_log_line "$BUILD_LOG_DIR/install-kafka.log"
  else
    log "the Kafka tests need maven and java: run 'sudo apt-get install maven' then 'bash hack/install-kafka.sh'"
  fi
fi

read -r -a binaries <<<"$(missing_control_plane_binaries)"
if [ ${#binaries[@]} -gt 0 ]; then
  if command -v go >/dev/null && go_is_new_enough && command -v flock >/dev/null; then
    log "building ${binaries[*]} from Go modules into $FAULTLINE_CACHE (once; 7-11 minutes on 2 cores)"
    with_progress "[test-prepare] control-plane build" "$BUILD_LOG_DIR/build-control-plane.log" \
      "$HERE/build-control-plane.sh" "${binaries[@]}" ||
      { log "hack/build-control-plane.sh failed; last lines:"; tail -n 40 "$BUILD_LOG_DIR/build-control-plane.log"; exit 1; }
    grep -E '^\[build-control-plane' "$BUILD_LOG_DIR/build-control-plane.log" | grep -E 'done|: [0-9]+ s$' || true
  else
    log "the operator tests need Go >= 1.24 to build kube-apiserver $K8S_VERSION: install Go, then 'bash hack/build-control-plane.sh'"
  fi
fi

if [ ! -x "$OTELCOL_BIN" ]; then
  if command -v go >/dev/null && go_is_new_enough && command -v flock >/dev/null; then
    log "building the OpenTelemetry Collector $OTELCOL_VERSION into $OTELCOL_DIR (once)"
    with_progress "[test-prepare] otelcol build" "$BUILD_LOG_DIR/build-otelcol.log" "$HERE/build-otelcol.sh" ||
      { log "hack/build-otelcol.sh failed; last lines:"; tail -n 40 "$BUILD_LOG_DIR/build-otelcol.log"; exit 1; }
  else
    log "the collector test needs Go to build otelcol: install Go, then 'bash hack/build-otelcol.sh'"
  fi
fi
