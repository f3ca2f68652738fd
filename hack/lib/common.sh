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
