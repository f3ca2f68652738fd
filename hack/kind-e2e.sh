#!/usr/bin/env bash
# The same operator integration tests against a kind cluster, for machines with Docker and kind
# (CI does not depend on it): create a cluster, build and load the image, install the Helm chart,
# run `helm test` and the mocha suites with FAULTLINE_KUBECONFIG, delete the cluster.
#
# env: KIND_CLUSTER (default faultline-e2e), KIND_NODE_IMAGE (default kindest/node:v1.34.0),
#      IMAGE (default ghcr.io/faultline/faultline:e2e), KEEP_CLUSTER=1 to keep it afterwards,
#      HELM (default: the pinned build, hack/build-control-plane.sh helm)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

CLUSTER=${KIND_CLUSTER:-faultline-e2e}
NODE_IMAGE=${KIND_NODE_IMAGE:-kindest/node:v1.34.0}
IMAGE=${IMAGE:-ghcr.io/faultline/faultline:e2e}
NS=faultline-system
for tool in docker kind; do
  command -v "$tool" >/dev/null || { echo "kind-e2e: '$tool' not found; this script needs Docker and kind" >&2; exit 2; }
done
if [ -z "${HELM:-}" ]; then "$HERE/build-control-plane.sh" helm; HELM="$HELM_BIN/helm"; fi
KUBECTL_BIN=$(resolve_kubectl)
KC=$(mktemp "${TMPDIR:-/tmp}/faultline-kind-kubeconfig.XXXXXX")

cleanup() {
  if [ "${KEEP_CLUSTER:-0}" != 1 ]; then kind delete cluster --name "$CLUSTER" >/dev/null 2>&1 || true; fi
  rm -f "$KC"
}
trap cleanup EXIT

kind create cluster --name "$CLUSTER" --image "$NODE_IMAGE" --kubeconfig "$KC" --wait 120s
docker build -t "$IMAGE" "$ROOT"
kind load docker-image "$IMAGE" --name "$CLUSTER"

k() { "$KUBECTL_BIN" --kubeconfig="$KC" "$@"; }
k apply --server-side -f "$ROOT/crds/"
k wait --for=condition=Established --timeout=60s crd -l app.kubernetes.io/part-of=faultline
"$HELM" --kubeconfig "$KC" upgrade --install faultline "$ROOT/manifests/helm/faultline" \
  --namespace "$NS" --create-namespace \
  --set image.repository="${IMAGE%:*}" --set image.tag="${IMAGE##*:}" --set image.pullPolicy=Never \
  --wait --timeout 5m
"$HELM" --kubeconfig "$KC" test faultline --namespace "$NS" --timeout 2m

cd "$ROOT"
FAULTLINE_KUBECONFIG="$KC" KUBECTL="$KUBECTL_BIN" npx mocha test/integration/operator/*.test.ts
