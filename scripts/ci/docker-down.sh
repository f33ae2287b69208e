#!/usr/bin/env bash
# Stops the Docker engine started by docker-up.sh, by its PID.
set -u
pidfile=${DOCKERD_PIDFILE:-/tmp/triage-dockerd.pid}
[ -f "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  for _ in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
fi
rm -f "$pidfile"
