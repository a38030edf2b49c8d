#!/usr/bin/env bash
# The embedding example's model in every tool of the command line, from the repository's root after
# `mvn -B install -DskipTests` and `mvn -f examples/embedding/pom.xml package` (CI runs it). The guards
# are a model (--model target/guards.jar: columns with per-agent initial values, the intruder, sight
# and movement systems); their node types alone load with --nodes. Every run of the same settings
# must give the same world hash, whatever the tool, the worker count or the number of cluster members.
set -euo pipefail
cd "$(dirname "$0")/../.."
CLI="java -jar agents-demo/target/agents-demo.jar"
JAR=examples/embedding/target/guards.jar
MODEL="--model $JAR"
NODES="--nodes $JAR"
TREE=examples/embedding/guards.json
SETTINGS="--agents 4000 --seed 3"

fail() { echo "check-cli: $*" >&2; exit 1; }
hash_of() { grep -o 'world hash: [0-9a-f]*' <<<"$1" | cut -d' ' -f3; }
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# waits for "... on http://127.0.0.1:PORT/" in a server's log; prints the address
address() {
  local log=$1 url=""
  for _ in $(seq 1 150); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1 || true)
    [ -n "$url" ] && break
    sleep 0.2
  done
  [ -n "$url" ] || fail "the server did not start: $(cat "$log")"
  echo "$url"
}

# validate, dot, trace: the model's node types, or the node types alone
$CLI validate $MODEL $TREE | grep -q "OK: tree 'Guards', 5 states" || fail "validate --model"
$CLI validate $NODES $TREE | grep -q "OK: tree 'Guards', 5 states" || fail "validate --nodes"
$CLI dot $MODEL $TREE | grep -q '^digraph "Guards"' || fail "dot"
trace=$($CLI trace $NODES examples/embedding/scenario.json)
grep -q "a0 2 transition Root/Patrol -> Root/Chase" <<<"$trace" || fail "trace: agent 0 does not chase at tick 2"
grep -q "a1 8 transition Root/Patrol -> Root/Respond" <<<"$trace" || fail "trace: agent 1 does not respond at tick 8"
[ "$trace" = "$($CLI trace --runtime reference $NODES examples/embedding/scenario.json)" ] || fail "trace: the runtimes differ"
[ "$trace" = "$($CLI trace $MODEL examples/embedding/scenario.json)" ] || fail "trace: --model and --nodes differ"

# run: the same hash on 1 and 2 workers; saved at tick 50 and loaded for 30 more: the 80-tick world
run=$($CLI run $MODEL $SETTINGS --ticks 80 --workers 2 --quiet)
grep -q "mode: model 'guards'" <<<"$run" || fail "run: not the guards model: $run"
grep -q "movement" <<<"$run" || fail "run: no movement phase"
h=$(hash_of "$run")
[ "$h" = "$(hash_of "$($CLI run $MODEL $SETTINGS --ticks 80 --workers 1 --quiet)")" ] || fail "run: 1 and 2 workers differ"
$CLI run $MODEL $SETTINGS --ticks 50 --quiet --save "$tmp/g.snap" >/dev/null
[ "$h" = "$(hash_of "$($CLI run $MODEL --load "$tmp/g.snap" --ticks 30 --quiet)")" ] || fail "run: --save/--load differs"
$CLI run --load "$tmp/g.snap" --ticks 1 --quiet 2>"$tmp/err" && fail "run --load without --model was accepted"
grep -q "it is a snapshot of model 'guards'" "$tmp/err" || fail "run --load without --model: $(cat "$tmp/err")"

# LOD and frames: the model has positions
$CLI run $MODEL $SETTINGS --ticks 20 --lod --quiet --png "$tmp/png" --png-every 10 | grep -q "^lod: tick periods" || fail "run --lod"
[ -f "$tmp/png/frame-000020.png" ] || fail "run --png wrote no frame"

# record, then replay it in the debugger's verifier (on another worker count)
rec=$($CLI run $MODEL $SETTINGS --ticks 80 --quiet --record "$tmp/g.rec" --record-every 20)
[ "$h" = "$(hash_of "$rec")" ] || fail "run --record changed the run"
$CLI debug $MODEL --replay "$tmp/g.rec" --verify --workers 2 | grep -q "replayed 80 ticks to tick 80: world hash $h, as recorded" \
  || fail "debug --replay --verify"

# the cluster: one process (--regions 4, one member) and 3 local members, the same hash; one region
# is the whole world
[ "$h" = "$(hash_of "$($CLI run $MODEL $SETTINGS --ticks 80 --regions 1 --quiet)")" ] || fail "run --regions 1 is not the whole world"
r4=$(hash_of "$($CLI run $MODEL $SETTINGS --ticks 80 --regions 4 --quiet)")
[ "$r4" = "$(hash_of "$($CLI run $MODEL $SETTINGS --ticks 80 --regions 4 --local-members 3 --quiet)")" ] \
  || fail "the cluster: 1 and 3 members differ"

# sweep: a job of the same settings gives the run's hash
sweep=$($CLI sweep $MODEL --seeds 3..4 --agents 4000 --ticks 80 --local-members 2 --quiet 2>/dev/null)
grep -q "| 3 | 4000 | 80 | .* | $h |" <<<"$sweep" || fail "sweep: seed 3 is not the run's world: $sweep"

# serve: the viewer's /meta names the model; serve --debug: an agent's columns, and time travel
$CLI serve $MODEL --agents 4000 --port 0 >"$tmp/serve.log" 2>&1 &
pids+=($!)
url=$(address "$tmp/serve.log")
curl -fsS "${url}meta" | grep -q '"model":"guards"' || fail "serve: /meta"
$CLI serve --debug $MODEL --agents 4000 --port 0 >"$tmp/debug.log" 2>&1 &
pids+=($!)
url=$(address "$tmp/debug.log")
agent=$(curl -fsS "${url}api/agent?id=0")
grep -q '"columns":{' <<<"$agent" && grep -q '"distance":' <<<"$agent" && grep -q '"homeX":' <<<"$agent" \
  || fail "serve --debug: /api/agent has no model columns: $agent"
curl -fsS -X POST "${url}api/pause" >/dev/null
curl -fsS "${url}api/status" | grep -q '"historyFrom":' || fail "serve --debug: no time travel"

# debug on a scenario, run in the model's world (its systems move the guards)
$CLI debug $MODEL examples/embedding/scenario.json --port 0 --paused >"$tmp/scenario.log" 2>&1 &
pids+=($!)
url=$(address "$tmp/scenario.log")
curl -fsS -X POST "${url}api/step" >/dev/null
curl -fsS "${url}api/agent?id=0" | grep -q '"vx":' || fail "debug --model on a scenario: no model columns"

# compare: the tree on our runtime against the reference interpreter
if [ -f bench/target/benchmarks.jar ]; then
  java -jar bench/target/benchmarks.jar compare $MODEL --agents 2000 --ticks 20 --budget 2 --out "$tmp/compare" >"$tmp/compare.log" 2>&1 \
    || fail "compare --model: $(tail -5 "$tmp/compare.log")"
fi

echo "check-cli: validate, dot, trace, run (save/load, LOD, frames, record), debug --replay --verify, the cluster,"
echo "check-cli: sweep, serve, serve --debug, debug and compare run the guards model; world hash $h everywhere"
