#!/usr/bin/env bash
# Builds kube-apiserver, etcd and helm from Go modules (no release binaries, no Docker), pinned per
# docs operator.md §17.2-17.4, into $FAULTLINE_CACHE (default ~/.cache/faultline). A binary that is
# already there is not rebuilt, so a second run returns at once.
#
# usage: hack/build-control-plane.sh [kube-apiserver] [etcd] [helm] [kubectl]
#        (default: kube-apiserver etcd helm; kubectl only where the machine has none)
# env:   K8S_VERSION ETCD_VERSION HELM_VERSION FAULTLINE_CACHE FAULTLINE_GOMODCACHE FAULTLINE_GOCACHE
#        FAULTLINE_BUILD_NICE (default 10)
#        FAULTLINE_KEEP_GO_CACHE=1 keeps the Go module and build caches after a complete build; by
#        default they are removed once every binary is in the cache (3.8 GB after kube-apiserver,
#        etcd and helm: 2.9 GB build, 1.0 GB modules; a cached binary never needs them again).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"
go_env_for_builds

NICE="nice -n ${FAULTLINE_BUILD_NICE:-10}"
components=("$@")
[ ${#components[@]} -gt 0 ] || components=(kube-apiserver etcd helm)

mkdir -p "$CP_BIN" "$HELM_BIN" "$BUILD_LOG_DIR"
# One build at a time per cache (CI starts a background build; the test harness may call us too).
log() { printf '[build-control-plane %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

exec 9>"$FAULTLINE_CACHE/build.lock"
flock -n 9 || { log "another build holds $FAULTLINE_CACHE/build.lock; waiting for it"; flock 9; }

new_module() { # $1 = module name; prints the temp dir
  local work
  work=$(mktemp -d "${TMPDIR:-/tmp}/faultline-gobuild.XXXXXX")
  (cd "$work" && go mod init "$1" >/dev/null 2>&1)
  echo "$work"
}

# A throwaway module that requires k8s.io/kubernetes@$K8S_VERSION with every staging module mapped
# to its published v0.Y.Z. Kubernetes' own go.mod maps them to ./staging/..., and those replaces do
# not apply to a consumer, so the list is derived from that go.mod (never typed here).
k8s_module() { # prints the module dir
  local work kgomod staging gd mods m
  work=$(new_module faultline.local/kube-binaries)
  kgomod=$(cd "$work" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
    sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  [ -f "$kgomod" ] || { log "no go.mod for k8s.io/kubernetes@$K8S_VERSION"; return 1; }
  staging="v0.${K8S_VERSION#v1.}"
  mods=$(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\)[[:space:]]*=>[[:space:]]*\./staging/src/k8s\.io/[a-z0-9-]*[[:space:]]*$#\1#p' "$kgomod")
  [ -n "$mods" ] || { log "no staging replaces found in $kgomod"; return 1; }
  local args=()
  for m in $mods; do args+=("-replace=$m=$m@$staging"); done
  gd=$(sed -n 's/^godebug \(.*\)$/\1/p' "$kgomod" | head -1)
  [ -n "$gd" ] && args+=("-godebug=$gd")
  (cd "$work" && go mod edit "${args[@]}")
  echo "$work"
}

k8s_ldflags() { # version stamp, as Kubernetes' hack/lib/version.sh sets it
  local minor ld p
  minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
  ld="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"
    ld="$ld -X $p.gitTreeState=clean -X $p.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  done
  echo "$ld"
}

build_k8s_command() { # $1 = command name under k8s.io/kubernetes/cmd
  local cmd=$1 out="$CP_BIN/$1" work
  [ -x "$out" ] && { log "$cmd $K8S_VERSION cached"; return; }
  log "building $cmd $K8S_VERSION"
  work=$(k8s_module)
  (cd "$work" && $NICE go get "k8s.io/kubernetes/cmd/$cmd@$K8S_VERSION")
  (cd "$work" && $NICE go build -mod=mod -trimpath -ldflags "$(k8s_ldflags)" -o "$out.tmp" "k8s.io/kubernetes/cmd/$cmd")
  mv "$out.tmp" "$out"
  rm -rf "$work"
  if [ "$cmd" = kubectl ]; then log "$cmd done: $("$out" version --client | head -1)"
  else log "$cmd done: $("$out" --version)"; fi
}

build_etcd() {
  local out="$CP_BIN/etcd"
  [ -x "$out" ] && { log "etcd $ETCD_VERSION cached"; return; }
  log "building etcd $ETCD_VERSION"
  local work
  work=$(new_module faultline.local/etcd-binary)
  (cd "$work" && $NICE go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION")
  (cd "$work" && $NICE go build -mod=mod -trimpath \
    -ldflags "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=module-build" \
    -o "$out.tmp" go.etcd.io/etcd/server/v3)
  mv "$out.tmp" "$out"
  rm -rf "$work"
  log "etcd done: $("$out" --version | head -1)"
}

build_helm() {
  local out="$HELM_BIN/helm"
  [ -x "$out" ] && { log "helm $HELM_VERSION cached"; return; }
  log "building helm $HELM_VERSION"
  local tmpbin
  tmpbin=$(mktemp -d "${TMPDIR:-/tmp}/faultline-helm.XXXXXX")
  # helm's v3 module has no replace lines, so go install works directly.
  GOBIN="$tmpbin" $NICE go install -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  mv "$tmpbin/helm" "$out"
  rm -rf "$tmpbin"
  log "helm done: $("$out" version --short)"
}

for c in "${components[@]}"; do
  start=$(date +%s)
  case "$c" in
    kube-apiserver) build_k8s_command kube-apiserver ;;
    kubectl) build_k8s_command kubectl ;; # only for machines without kubectl (hack/ci-prepare.sh)
    etcd) build_etcd ;;
    helm) build_helm ;;
    *) log "unknown component '$c' (kube-apiserver, etcd, helm, kubectl)"; exit 2 ;;
  esac
  log "$c: $(( $(date +%s) - start )) s"
done

# Bound the cache: once every binary is built, the Go caches of these builds are dead weight.
if [ "${FAULTLINE_KEEP_GO_CACHE:-}" != 1 ] && [ -z "$(missing_control_plane_binaries)" ] &&
   { [ -d "$GOCACHE" ] || [ -d "$GOMODCACHE" ]; }; then
  freed=$(du -sm "$GOCACHE" "$GOMODCACHE" 2>/dev/null | awk '{s += $1} END {print s + 0}')
  go clean -cache
  go clean -modcache
  log "removed the Go build and module caches ($freed MB; FAULTLINE_KEEP_GO_CACHE=1 keeps them)"
fi
