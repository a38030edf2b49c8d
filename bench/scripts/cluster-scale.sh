#!/usr/bin/env bash
# The cluster figures of docs/SCALE.md: the crowd in 8 regions on 1, 2 and 3 members, each member a
# separate JVM on 127.0.0.1, the driver a fourth. Prints each run's summary lines (ticks/s, exchange
# bytes per tick, barrier wait, world hash). Needs agents-demo/target/agents-demo.jar (mvn package).
#
#   bench/scripts/cluster-scale.sh [AGENTS] [TICKS] [MEMBER_COUNTS]
#   bench/scripts/cluster-scale.sh 1000000 200 "1 2 3"
set -euo pipefail
cd "$(dirname "$0")/../.."
AGENTS=${1:-1000000}
TICKS=${2:-200}
COUNTS=${3:-"1 2 3"}
JAR=${JAR:-agents-demo/target/agents-demo.jar}
export CROWDTREE_CLUSTER_SECRET=${CROWDTREE_CLUSTER_SECRET:-"cluster-scale benchmark secret"}
NAME="scale-$$"
BASE=${BASE_PORT:-6701}
PIDS=()
stop() { for p in "${PIDS[@]:-}"; do kill -9 "$p" 2>/dev/null || true; done; PIDS=(); }
trap stop EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for M in $COUNTS; do
  JOIN=""
  for ((i = 0; i < M; i++)); do JOIN="${JOIN:+$JOIN,}127.0.0.1:$((BASE + i))"; done
  for ((i = 0; i < M; i++)); do
    java -Xmx6g -jar "$JAR" member --port "$BASE" --join "$JOIN" --cluster-name "$NAME-$M" > "/tmp/cluster-scale-member-$i.log" 2>&1 &
    PIDS+=("$!")
    until grep -q "crowdtree member" "/tmp/cluster-scale-member-$i.log" 2>/dev/null; do sleep 0.2; done
  done
  echo "== $M member(s) =="
  java -Xmx2g -jar "$JAR" run --cluster "$JOIN" --cluster-name "$NAME-$M" --regions 8 --agents "$AGENTS" \
    --ticks "$TICKS" --quiet | grep -E "^crowdtree run|^setup|^ticks|^tick time|^exchange|^barrier|^checkpoints|^world hash|member 127"
  stop
  BASE=$((BASE + 10))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
