#!/usr/bin/env bash
# Starts a Docker engine for the Testcontainers ITs on a machine that has none running.
#   --bridge=none --iptables=false: no bridge network and no NAT rules; containers run with host networking,
#   so all test traffic stays on 127.0.0.1.
# Writes the daemon's PID to $DOCKERD_PIDFILE (default /tmp/triage-dockerd.pid); docker-down.sh stops it.
set -euo pipefail

pidfile=${DOCKERD_PIDFILE:-/tmp/triage-dockerd.pid}
log=${DOCKERD_LOG:-/tmp/triage-dockerd.log}

if docker info >/dev/null 2>&1; then
  echo "a Docker engine is already running; using it"
  exit 0
fi

dockerd --bridge=none --iptables=false --ip6tables=false >"$log" 2>&1 &
echo $! >"$pidfile"

for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "dockerd $(docker version --format '{{.Server.Version}}') running, PID $(cat "$pidfile")"
    exit 0
  fi
  if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "dockerd exited during startup:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "dockerd did not answer within 60s:" >&2
tail -20 "$log" >&2
exit 1
