#!/usr/bin/env bash
# Start PostgreSQL and Redis if they are not answering (the commands from the machine notes).
set -uo pipefail
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "[services] starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "[services] starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  fi
fi
for _ in $(seq 1 20); do
  pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && break
  sleep 0.5
done
