#!/usr/bin/env bash
# Copies crds/*.yaml (the only hand-edited CRD files) into the Helm chart and the OLM bundle.
# test/integration/operator/manifests.test.ts fails when a copy differs.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
for f in "$ROOT"/crds/health.faultline.io_*.yaml; do
  cp "$f" "$ROOT/manifests/helm/faultline/crds/"
  cp "$f" "$ROOT/manifests/bundle/manifests/"
done
echo "synced the CRDs of crds/ into the Helm chart and the OLM bundle"
