#!/usr/bin/env bash
# The README's complete minimal pom.xml ("Use it as a library"), as a user copies it, builds a
# program that compiles a tree against the installed artifacts, which then runs (after `mvn install`).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/<!-- minimal-pom -->/{f=1; next} f && /^```xml/{p=1; next} p && /^```/{exit} p' README.md > "$tmp/pom.xml"
grep -q "<artifactId>statetree-system</artifactId>" "$tmp/pom.xml" || { echo "check-minimal-pom: no pom found in README.md" >&2; exit 1; }
mkdir -p "$tmp/src/main/java/com/example"
cat > "$tmp/src/main/java/com/example/Hello.java" <<'JAVA'
package com.example;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.compiler.StateTreeCompiler;
import dev.crowdtree.statetree.json.StateTreeJson;

public class Hello {
    public static void main(String[] args) throws Exception {
        CompiledStateTree tree = StateTreeJson.compile("hello.json",
                "{\"name\": \"Hello\", \"root\": {\"name\": \"Root\", \"tasks\": [{\"type\": \"run\"}]}}",
                StateTreeCompiler.withBuiltins());
        System.out.println("compiled tree '" + tree.name + "', " + tree.stateCount + " state");
    }
}
JAVA
mvn -B -q -f "$tmp/pom.xml" package dependency:build-classpath -Dmdep.outputFile="$tmp/cp.txt"
out=$(java -cp "$tmp/target/classes:$(cat "$tmp/cp.txt")" com.example.Hello)
[ "$out" = "compiled tree 'Hello', 1 state" ] || { echo "check-minimal-pom: the program printed: $out" >&2; exit 1; }
echo "check-minimal-pom: the README's pom.xml builds and runs a program against the installed library"
