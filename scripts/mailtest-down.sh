#!/usr/bin/env bash
# Stop what mailtest-up.sh started under BASE_DIR, by PID only, and wait
# (at most 10 s) until both are gone. The directory is left in place.
# usage: mailtest-down.sh BASE_DIR
set -uo pipefail
B=$(realpath -m "${1:?usage: mailtest-down.sh BASE_DIR}")
pids=()
for f in "$B/postfix/spool/pid/master.pid" "$B/dovecot/run/master.pid"; do
  [ -s "$f" ] || continue
  pid=$(tr -d ' \n' < "$f")
  case $pid in '' | *[!0-9]*) continue ;; esac
  # a pid whose process has exited but was never reaped (a zombie) counts as gone
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || continue
  [ "$state" = Z ] && continue
  kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
done
for _ in $(seq 1 100); do
  alive=
  for pid in "${pids[@]}"; do
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || continue
    [ "$state" = Z ] || alive=1
  done
  [ -z "$alive" ] && break
  sleep 0.1
done
rm -f "$B/dovecot/run/master.pid"
[ -z "$alive" ] || { echo "mailtest-down: still running after 10 s: ${pids[*]}" >&2; exit 1; }
echo "mail system under $B stopped"
