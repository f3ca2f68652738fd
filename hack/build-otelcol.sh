#!/usr/bin/env bash
# Builds an OpenTelemetry Collector (`otelcol`) with the OpenTelemetry Collector Builder from Go
# modules (no release binary, no Docker) into $FAULTLINE_CACHE/otelcol-$OTELCOL_VERSION/otelcol,
# with only what the collector integration test uses (test/integration/ingest/otel-collector.test.ts):
#   receivers  hostmetrics (process scraper among others)
#   processors batch, resource (sets the k8s.* attributes a pipeline's workload is named by)
#   exporters  otlphttp, otlp (gRPC), prometheusremotewrite
# One release of core and contrib: $OTELCOL_VERSION (core's stable modules are $OTELCOL_STABLE).
# A binary that is already there is not rebuilt, so a second run returns at once. The Go module
# and build caches the build used are removed afterwards, so the cache holds only the binary.
#
# usage: hack/build-otelcol.sh
# env:   OTELCOL_VERSION OTELCOL_STABLE FAULTLINE_CACHE FAULTLINE_BUILD_NICE (default 10)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

NICE="nice -n ${FAULTLINE_BUILD_NICE:-10}"
log() { printf '[build-otelcol %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

mkdir -p "$OTELCOL_DIR" "$BUILD_LOG_DIR"
exec 8>"$OTELCOL_DIR/build.lock"
flock 8

if [ -x "$OTELCOL_BIN" ]; then
  log "otelcol $OTELCOL_VERSION cached: $OTELCOL_BIN"
  exit 0
fi

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/faultline-otelcol.XXXXXX")
# Caches of this build only, removed at the end (the module cache is read-only: go clean empties it).
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-buildvcs=false"
export GOMODCACHE="$work/gomod" GOCACHE="$work/gobuild" GOBIN="$work/bin"
cleanup() {
  go clean -modcache >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

log "installing the collector builder $OTELCOL_VERSION"
$NICE go install "go.opentelemetry.io/collector/cmd/builder@v$OTELCOL_VERSION"

core=go.opentelemetry.io/collector
contrib=github.com/open-telemetry/opentelemetry-collector-contrib
cat >"$work/manifest.yaml" <<EOF
dist:
  name: otelcol
  description: OpenTelemetry Collector for the Faultline integration tests
  output_path: $work/dist
  version: $OTELCOL_VERSION
receivers:
  - gomod: $contrib/receiver/hostmetricsreceiver v$OTELCOL_VERSION
exporters:
  - gomod: $core/exporter/otlpexporter v$OTELCOL_VERSION
  - gomod: $core/exporter/otlphttpexporter v$OTELCOL_VERSION
  - gomod: $contrib/exporter/prometheusremotewriteexporter v$OTELCOL_VERSION
processors:
  - gomod: $core/processor/batchprocessor v$OTELCOL_VERSION
  - gomod: $contrib/processor/resourceprocessor v$OTELCOL_VERSION
providers:
  - gomod: $core/confmap/provider/fileprovider v$OTELCOL_STABLE
  - gomod: $core/confmap/provider/envprovider v$OTELCOL_STABLE
EOF

log "generating and compiling the distribution (modules from the Go module proxy)"
(cd "$work" && $NICE "$GOBIN/builder" --config "$work/manifest.yaml")
mv "$work/dist/otelcol" "$OTELCOL_BIN.tmp"
mv "$OTELCOL_BIN.tmp" "$OTELCOL_BIN"
log "otelcol done: $("$OTELCOL_BIN" --version) ($(( $(date +%s) - start )) s)"
