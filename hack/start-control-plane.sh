#!/usr/bin/env bash
# Starts a real etcd + kube-apiserver on loopback (no Docker), the envtest recipe of operator.md
# §17.1/§17.5: a throwaway openssl CA, a serving certificate, an admin client certificate in
# system:masters, a service-account signer, and a kubeconfig at $FAULTLINE_RUN/kubeconfig.
# Builds the binaries first when the cache lacks them (hack/build-control-plane.sh).
#
# Already running (pids alive, /readyz ok): prints the kubeconfig path and exits 0 without
# touching anything. Prints "FAULTLINE_CONTROL_PLANE=started|reused" and then
# "KUBECONFIG=<path>" as its last two lines on stdout (logs go to stderr).
#
# Sharing between test runs: with --holder PID (the test harness passes its own pid) the caller is
# recorded in $FAULTLINE_RUN/holders/, and a control plane started that way is marked auto-stop;
# hack/stop-control-plane.sh --holder PID stops it only when no other live holder remains.
# A control plane started without --holder (by hand) is never stopped by a harness.
#
# env: FAULTLINE_RUN (state dir, default ${TMPDIR:-/tmp}/faultline-control-plane)
#      FAULTLINE_APISERVER_PORT, FAULTLINE_ETCD_PORT, FAULTLINE_ETCD_PEER_PORT (default: free ports)
#      FAULTLINE_START_TIMEOUT (seconds, default 180), KUBECTL
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

RUN=$FAULTLINE_RUN
PKI="$RUN/pki"
KC="$RUN/kubeconfig"
TIMEOUT=${FAULTLINE_START_TIMEOUT:-180}
KUBECTL_BIN=$(resolve_kubectl)

log() { printf '[start-control-plane %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
alive() { pid_is "$RUN/$1.pid" "$1"; }

HOLDER=""
if [ "${1:-}" = "--holder" ]; then HOLDER=${2:?--holder needs a pid}; fi
register_holder() { [ -z "$HOLDER" ] || { mkdir -p "$RUN/holders"; : >"$RUN/holders/$HOLDER"; }; }

# One start at a time for this run dir (parallel test runs share one control plane).
mkdir -p "$(dirname "$RUN")"
exec 8>"$RUN.lock"
flock 8

if alive etcd && alive kube-apiserver && [ -f "$RUN/env" ]; then
  # shellcheck disable=SC1091
  . "$RUN/env"
  if [ "$(curl -s --max-time 5 --cacert "$PKI/ca.crt" "https://127.0.0.1:$APISERVER_PORT/readyz" || true)" = ok ]; then
    log "already running (kube-apiserver pid $(cat "$RUN/kube-apiserver.pid"), port $APISERVER_PORT)"
    register_holder
    echo "FAULTLINE_CONTROL_PLANE=reused"
    echo "KUBECONFIG=$KC"
    exit 0
  fi
fi
if alive etcd || alive kube-apiserver; then
  log "a half-running control plane is in $RUN; stopping it first"
  FAULTLINE_STOP_LOCKED=1 "$HERE/stop-control-plane.sh" >&2
fi

if [ ! -x "$CP_BIN/kube-apiserver" ] || [ ! -x "$CP_BIN/etcd" ]; then
  log "binaries missing in $CP_BIN; building (or waiting for a running build)"
  "$HERE/build-control-plane.sh" kube-apiserver etcd >&2
fi

rm -rf "$RUN"
mkdir -p "$PKI" "$RUN/etcd-data"
chmod 700 "$RUN/etcd-data"
chmod 700 "$RUN"

# --- certificates (one CA signs the serving and the client certificate) ---------------------
(
  cd "$PKI"
  exec >/dev/null 2>"$RUN/openssl.log"
  openssl ecparam -name prime256v1 -genkey -noout -out ca.key
  openssl req -x509 -new -key ca.key -sha256 -days 7 -subj "/CN=faultline-test-ca" -out ca.crt
  openssl ecparam -name prime256v1 -genkey -noout -out apiserver.key
  openssl req -new -key apiserver.key -subj "/CN=localhost" -out apiserver.csr
  printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature,keyEncipherment' \
    'extendedKeyUsage=serverAuth' 'subjectAltName=DNS:localhost,IP:127.0.0.1' >serving.ext
  openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 -days 7 \
    -extfile serving.ext -out apiserver.crt
  openssl ecparam -name prime256v1 -genkey -noout -out admin.key
  openssl req -new -key admin.key -subj "/O=system:masters/CN=faultline-admin" -out admin.csr
  printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
    'extendedKeyUsage=clientAuth' >client.ext
  openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 -days 7 \
    -extfile client.ext -out admin.crt
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out sa.key
  openssl pkey -in sa.key -pubout -out sa.pub
)

# --- ports -------------------------------------------------------------------------------------
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
    node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
ETCD_PORT=${FAULTLINE_ETCD_PORT:-$(free_port)}
ETCD_PEER_PORT=${FAULTLINE_ETCD_PEER_PORT:-$(free_port)}
APISERVER_PORT=${FAULTLINE_APISERVER_PORT:-$(free_port)}
while [ "$ETCD_PEER_PORT" = "$ETCD_PORT" ]; do ETCD_PEER_PORT=$(free_port); done
while [ "$APISERVER_PORT" = "$ETCD_PORT" ] || [ "$APISERVER_PORT" = "$ETCD_PEER_PORT" ]; do APISERVER_PORT=$(free_port); done

wait_until() { # $1 = what, $2 = deadline (epoch s), rest = command
  local what=$1 deadline=$2; shift 2
  until "$@"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then log "timed out waiting for $what"; return 1; fi
    sleep 0.3
  done
}
fail_with_logs() {
  log "start failed; last log lines follow"
  for f in "$RUN"/etcd.log "$RUN"/kube-apiserver.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 40 "$f" >&2; }
  done
  FAULTLINE_STOP_LOCKED=1 "$HERE/stop-control-plane.sh" >&2 || true
  exit 1
}

# --- etcd ---------------------------------------------------------------------------------------
etcd_flags=(
  --name faultline-test --data-dir "$RUN/etcd-data"
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT"
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT"
  --initial-cluster "faultline-test=http://127.0.0.1:$ETCD_PEER_PORT"
  --logger=zap --log-level=warn
)
"$CP_BIN/etcd" --help 2>&1 | grep -q -- '--unsafe-no-fsync' && etcd_flags+=(--unsafe-no-fsync=true)
# 8>&-: the servers must not inherit the start lock.
setsid "$CP_BIN/etcd" "${etcd_flags[@]}" </dev/null >"$RUN/etcd.log" 2>&1 8>&- &
echo $! >"$RUN/etcd.pid"
deadline=$(( $(date +%s) + TIMEOUT ))
etcd_healthy() { curl -sf --max-time 2 "http://127.0.0.1:$ETCD_PORT/health" >/dev/null && alive etcd; }
wait_until etcd "$deadline" etcd_healthy || fail_with_logs
log "etcd $ETCD_VERSION up on 127.0.0.1:$ETCD_PORT"

# --- kube-apiserver -----------------------------------------------------------------------------
# advertise-address 127.0.0.1 + endpoint reconciler none: works on machines without a default route.
setsid "$CP_BIN/kube-apiserver" \
  --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
  --cert-dir="$PKI" --client-ca-file="$PKI/ca.crt" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$APISERVER_PORT" \
  --endpoint-reconciler-type=none \
  --authorization-mode=RBAC \
  --service-account-issuer="https://127.0.0.1:$APISERVER_PORT" \
  --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
  --service-cluster-ip-range=10.0.0.0/24 --allow-privileged=true \
  --disable-admission-plugins=ServiceAccount \
  </dev/null >"$RUN/kube-apiserver.log" 2>&1 8>&- &
echo $! >"$RUN/kube-apiserver.pid"
apiserver_ready() {
  alive kube-apiserver || return 2
  [ "$(curl -s --max-time 5 --cacert "$PKI/ca.crt" "https://127.0.0.1:$APISERVER_PORT/readyz" || true)" = ok ]
}
wait_until kube-apiserver "$deadline" apiserver_ready || fail_with_logs

# --- kubeconfig ---------------------------------------------------------------------------------
k() { "$KUBECTL_BIN" --kubeconfig="$KC" "$@"; }
k config set-cluster faultline-test --server="https://127.0.0.1:$APISERVER_PORT" \
  --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
k config set-credentials faultline-admin --client-certificate="$PKI/admin.crt" \
  --client-key="$PKI/admin.key" --embed-certs=true >/dev/null
k config set-context faultline-test --cluster=faultline-test --user=faultline-admin >/dev/null
k config use-context faultline-test >/dev/null
chmod 600 "$KC"
default_ns() { k get namespace default >/dev/null 2>&1; }
wait_until "namespace default" "$deadline" default_ns || fail_with_logs

cat >"$RUN/env" <<EOF
KUBECONFIG=$KC
APISERVER_PORT=$APISERVER_PORT
ETCD_PORT=$ETCD_PORT
ETCD_PEER_PORT=$ETCD_PEER_PORT
CP_BIN=$CP_BIN
EOF
if [ -n "$HOLDER" ]; then : >"$RUN/auto-stop"; fi
register_holder
log "kube-apiserver $("$CP_BIN/kube-apiserver" --version | awk '{print $2}') ready on https://127.0.0.1:$APISERVER_PORT"
echo "FAULTLINE_CONTROL_PLANE=started"
echo "KUBECONFIG=$KC"
