#!/usr/bin/env bash
# Stops the etcd + kube-apiserver that hack/start-control-plane.sh started: exactly the pids in
# $FAULTLINE_RUN/*.pid (SIGTERM, then SIGKILL after 10 s). --clean also removes the state dir.
#
# --holder PID (the test harness): release that holder; stop only when the control plane was
# started by a harness (auto-stop marker) and no other live holder (a parallel test run) remains.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"
RUN=$FAULTLINE_RUN
[ -d "$RUN" ] || exit 0
if [ -z "${FAULTLINE_STOP_LOCKED:-}" ]; then
  exec 8>"$RUN.lock"
  flock 8
fi

if [ "${1:-}" = "--holder" ]; then
  holder=${2:?--holder needs a pid}
  rm -f "$RUN/holders/$holder"
  for h in "$RUN"/holders/*; do
    [ -e "$h" ] || continue
    if kill -0 "$(basename "$h")" 2>/dev/null; then
      echo "[stop-control-plane] still in use by pid $(basename "$h"); leaving it running" >&2
      exit 0
    fi
    rm -f "$h"
  done
  if [ ! -f "$RUN/auto-stop" ]; then
    echo "[stop-control-plane] started by hand (no auto-stop marker); leaving it running" >&2
    exit 0
  fi
  shift 2
fi

stop_one() {
  local name=$1 pidfile="$RUN/$1.pid" pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if pid_is "$pidfile" "$name"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do pid_is "$pidfile" "$name" || break; sleep 0.2; done
    if pid_is "$pidfile" "$name"; then
      echo "[stop-control-plane] $name ($pid) still running after 10 s; SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
  echo "[stop-control-plane] stopped $name ($pid)" >&2
}

stop_one kube-apiserver
stop_one etcd
if [ "${1:-}" = "--clean" ]; then rm -rf "$RUN"; fi
