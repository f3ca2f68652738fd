# shellcheck shell=bash disable=SC2034  # variables for the scripts that source this file
# Shared settings for the hack/ scripts. Source it; it defines no side effects beyond variables.
# Cache layout (operator.md §17.2-17.4, issue 6):
#   $FAULTLINE_CACHE/bin/k8s-<ver>-etcd-<ver>/{kube-apiserver,etcd}
#   $FAULTLINE_CACHE/bin/helm-<ver>/helm
#   $FAULTLINE_CACHE/go/{mod,build}        GOMODCACHE / GOCACHE of these builds only
#   $FAULTLINE_CACHE/logs/                 build logs

K8S_VERSION=${K8S_VERSION:-v1.34.10}
ETCD_VERSION=${ETCD_VERSION:-v3.6.4}
# Helm 3.19 is built on the Kubernetes 0.34 libraries, the same line as the API server above.
HELM_VERSION=${HELM_VERSION:-v3.19.5}

FAULTLINE_CACHE=${FAULTLINE_CACHE:-${FAULTLINE_TOOLS:-${HOME:-/tmp}/.cache/faultline}}
CP_BIN="$FAULTLINE_CACHE/bin/k8s-$K8S_VERSION-etcd-$ETCD_VERSION"
HELM_BIN="$FAULTLINE_CACHE/bin/helm-$HELM_VERSION"
BUILD_LOG_DIR="$FAULTLINE_CACHE/logs"

# Where a running control plane keeps its state (pids, pki, kubeconfig, logs).
FAULTLINE_RUN=${FAULTLINE_RUN:-${TMPDIR:-/tmp}/faultline-control-plane}

# kubectl: the dispatcher of the Google Cloud SDK picks a binary by server version and falls back
# to 1.32 for a 1.34 server, so prefer kubectl.1.33 beside the resolved dispatcher (§17.2).
resolve_kubectl() {
  if [ -n "${KUBECTL:-}" ]; then echo "$KUBECTL"; return; fi
  local k dir
  k=$(command -v kubectl || true)
  if [ -n "$k" ]; then
    dir=$(dirname "$(readlink -f "$k")")
    if [ -x "$dir/kubectl.1.33" ]; then echo "$dir/kubectl.1.33"; return; fi
    echo "$k"; return
  fi
  # No kubectl on this machine: the one hack/ci-prepare.sh built from the same module as the API server.
  echo "$CP_BIN/kubectl"
}

go_env_for_builds() {
  export GOTOOLCHAIN=local CGO_ENABLED=0
  export GOMODCACHE="${FAULTLINE_GOMODCACHE:-$FAULTLINE_CACHE/go/mod}"
  export GOCACHE="${FAULTLINE_GOCACHE:-$FAULTLINE_CACHE/go/build}"
  export GOFLAGS="-buildvcs=false"
}

# True when pid file $1 names a live process whose command is the binary $2 (so a stale pid file
# after a reboot, now naming an unrelated process, is never treated as ours).
pid_is() {
  local pidfile=$1 binary=$2 pid
  [ -f "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | head -n 1 | grep -q "/$binary\$"
}

# Kafka broker for the bus tests (operator.md §17.8): jars from Maven Central, run with `java -cp`.
KAFKA_VERSION=${KAFKA_VERSION:-4.1.1}
LOG4J_SLF4J_VERSION=${LOG4J_SLF4J_VERSION:-2.24.3}
KAFKA_HOME="$FAULTLINE_CACHE/kafka-$KAFKA_VERSION"

# OpenTelemetry Collector for the collector integration test (hack/build-otelcol.sh): one release
# of core and contrib (contrib's hostmetrics receiver builds on Go 1.26 at 0.160.0), and core's
# stable modules of the same release.
OTELCOL_VERSION=${OTELCOL_VERSION:-0.160.0}
OTELCOL_STABLE=${OTELCOL_STABLE:-1.66.0}
OTELCOL_DIR="$FAULTLINE_CACHE/otelcol-$OTELCOL_VERSION"
OTELCOL_BIN="$OTELCOL_DIR/otelcol"

# Node.js (docs/adr/0015-node-lts.md): the LTS line the suite runs on, and the oldest supported line
# that gets a second run of the unit tests. Official builds from the npm registry (node-linux-<arch>,
# the binary package behind the `node` package), one install prefix per line under the cache.
NODE_LTS_VERSION=${NODE_LTS_VERSION:-26.12.1}
NODE_OLDEST_VERSION=${NODE_OLDEST_VERSION:-22.23.3}

node_prefix() { # $1 = version; the LTS keeps the plain node/ prefix
  if [ "$1" = "$NODE_LTS_VERSION" ]; then echo "$FAULTLINE_CACHE/node"; else echo "$FAULTLINE_CACHE/node-${1%%.*}"; fi
}

# Prints the bin directory of Node $1, installing it first when the cache lacks that exact version.
# Needs some npm on PATH for the first install (any version); idempotent and quiet when cached.
ensure_node() {
  local version=$1 arch prefix bin
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
  prefix=$(node_prefix "$version")
  bin="$prefix/node_modules/node-linux-$arch/bin"
  if [ "$("$bin/node" --version 2>/dev/null)" != "v$version" ]; then
    echo "[node] installing node-linux-$arch@$version into $prefix" >&2
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-$arch@$version" >&2
    [ "$("$bin/node" --version 2>/dev/null)" = "v$version" ] || { echo "[node] install of $version failed" >&2; return 1; }
  fi
  echo "$bin"
}

# Debian packages the tests need (openssl, curl, flock, Go, nats-server for the bus tests, prometheus
# for the remote-write test, chromium for the dashboard end-to-end tests, maven and java for the
# Kafka jars); prints the missing ones.
missing_debian_packages() {
  local missing=()
  command -v openssl >/dev/null || missing+=(openssl)
  command -v curl >/dev/null || missing+=(curl)
  command -v flock >/dev/null || missing+=(util-linux)
  command -v go >/dev/null || missing+=(golang-go)
  command -v nats-server >/dev/null || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
  [ -x /usr/bin/prometheus ] || missing+=(prometheus)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v mvn >/dev/null || missing+=(maven)
  command -v java >/dev/null || missing+=(default-jre-headless)
  echo "${missing[*]}"
}

# The Go builds need Go >= 1.24 (kube-apiserver $K8S_VERSION).
go_is_new_enough() {
  case "$(go env GOVERSION 2>/dev/null || echo none)" in go1.2[4-9]*|go1.[3-9]*) return 0 ;; *) return 1 ;; esac
}

# The control-plane binaries the tests use: kube-apiserver, etcd, helm, and kubectl where the
# machine has none. Prints the ones not in the cache.
missing_control_plane_binaries() {
  local missing=()
  [ -x "$CP_BIN/kube-apiserver" ] || missing+=(kube-apiserver)
  [ -x "$CP_BIN/etcd" ] || missing+=(etcd)
  [ -x "$HELM_BIN/helm" ] || missing+=(helm)
  command -v kubectl >/dev/null || [ -x "$CP_BIN/kubectl" ] || missing+=(kubectl)
  echo "${missing[*]}"
}

# The last non-blank line of log file $1 without terminal colour codes, at most 120 characters.
last_log_line() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-120
}

# Runs a command with its output in log file $2 and prints "<label> still running (N s): <last log
# line>" every $FAULTLINE_PROGRESS_SECONDS (default 30) so a long build never looks hung.
# usage: with_progress LABEL LOG command...; returns the command's exit code.
with_progress() {
  local label=$1 logfile=$2 pid waited=0 every=${FAULTLINE_PROGRESS_SECONDS:-30} rc=0
  shift 2
  "$@" >"$logfile" 2>&1 </dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1; waited=$((waited + 1))
    if [ $((waited % every)) -eq 0 ]; then
      printf '%s still running (%d s): %s\n' "$label" "$waited" "$(last_log_line "$logfile")"
    fi
  done
  wait "$pid" || rc=$?
  return "$rc"
}
