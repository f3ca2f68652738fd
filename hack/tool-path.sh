#!/usr/bin/env bash
# Prints where a tool lives, from the same pins as the build (hack/lib/common.sh), so tests and
# scripts never repeat versions. usage: hack/tool-path.sh kube-apiserver|etcd|helm|kubectl|otelcol|run-dir
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"
case "${1:-}" in
  kube-apiserver) echo "$CP_BIN/kube-apiserver" ;;
  etcd) echo "$CP_BIN/etcd" ;;
  helm) echo "$HELM_BIN/helm" ;;
  kubectl) resolve_kubectl ;;
  otelcol) echo "$OTELCOL_BIN" ;;
  run-dir) echo "$FAULTLINE_RUN" ;;
  *) echo "usage: $0 kube-apiserver|etcd|helm|kubectl|otelcol|run-dir" >&2; exit 2 ;;
esac
