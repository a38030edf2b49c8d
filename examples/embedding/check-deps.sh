#!/usr/bin/env bash
# The embedding example's runtime dependencies hold no Hazelcast: agents-demo declares it optional
# (only the command line's cluster uses it), so a program that takes agents-demo for the debugger
# does not get it (AttachDebuggerTest checks the same on the test's paths). Run from anywhere after
# `mvn -B install -DskipTests` (CI runs it); arguments go to Maven, e.g. -Dmaven.repo.local=DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "check-deps: $*" >&2; exit 1; }

tree=$(mktemp)
trap 'rm -f "$tree"' EXIT
# the plugin's version pinned: Maven's default for dependency:tree differs between Maven versions
mvn -B -q -f examples/embedding/pom.xml "$@" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:tree -Dscope=runtime -DoutputFile="$tree"
cat "$tree"
grep -q 'dev\.crowdtree:agents-demo:jar' "$tree" \
  || fail "dev.crowdtree:agents-demo is not among the example's runtime dependencies; nothing was checked"
if grep -q 'com\.hazelcast' "$tree"; then
  fail "com.hazelcast is among the embedding example's runtime dependencies (tree above): agents-demo must" \
    "declare com.hazelcast:hazelcast with <optional>true</optional>, so debugger users do not get it"
fi
echo "check-deps: no com.hazelcast among the embedding example's runtime dependencies"
