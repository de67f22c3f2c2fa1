#!/usr/bin/env bash
# Makes sure a JDK with jmods is available (JAVA_HOME, or `java` on PATH),
# installing Debian's openjdk-17-jdk-headless when it is not.
set -euo pipefail
home=${JAVA_HOME:-}
if [ -z "$home" ] && command -v java >/dev/null 2>&1; then
    home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi
if [ -n "$home" ] && [ -f "$home/jmods/java.base.jmod" ]; then
    exit 0
fi
echo "no JDK with jmods found; installing openjdk-17-jdk-headless" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jdk-headless
