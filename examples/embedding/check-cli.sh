#!/usr/bin/env bash
# The embedding example's node types in the command line's five tools, through --nodes, from the
# repository's root after `mvn -B install -DskipTests` and `mvn -f examples/embedding/pom.xml package`
# (CI runs it; the same checks, in more detail, are agents-demo's NodesCliTest and ServeAloneTest).
set -euo pipefail
cd "$(dirname "$0")/../.."
CLI="java -jar agents-demo/target/agents-demo.jar"
NODES="--nodes examples/embedding/target/guards.jar"
TREE=examples/embedding/guards.json

fail() { echo "check-cli: $*" >&2; exit 1; }

$CLI validate $NODES $TREE | grep -q "OK: tree 'Guards', 5 states" || fail "validate"
$CLI dot $NODES $TREE | grep -q '^digraph "Guards"' || fail "dot"
trace=$($CLI trace $NODES examples/embedding/scenario.json)
grep -q "a0 2 transition Root/Patrol -> Root/Chase" <<<"$trace" || fail "trace: agent 0 does not chase at tick 2"
grep -q "a1 8 transition Root/Patrol -> Root/Respond" <<<"$trace" || fail "trace: agent 1 does not respond at tick 8"
[ "$trace" = "$($CLI trace --runtime reference $NODES examples/embedding/scenario.json)" ] || fail "trace: the runtimes differ"
run=$($CLI run $NODES --tree $TREE --agents 5000 --ticks 50 --quiet)
grep -q "mode: the tree alone" <<<"$run" || fail "run: not alone"
grep -Eq "Root/Patrol +5000 +100.0%" <<<"$run" || fail "run: occupancy"
log=$(mktemp)
$CLI serve $NODES --tree $TREE --agents 5000 --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || fail "serve did not start: $(cat "$log")"
curl -fsS "${url}meta" | grep -q '"tree":"Guards"' || fail "serve: /meta"
echo "check-cli: validate, dot, trace, run and serve take the embedding example's node types"
