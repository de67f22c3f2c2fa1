#!/usr/bin/env bash
# Installs what the tests read besides the repository itself:
#   - a JDK with jmods (JAVA_HOME, or `java` on PATH), else Debian's
#     openjdk-17-jdk-headless;
#   - Debian's jython 2.7.3 jar (real-world class files with the CLDC
#     StackMap attribute);
#   - Graphviz (`dot`), which renders the exported call graph in a test;
#   - tmux, in which scripts/smoke-repl.sh types into the shell;
#   - Chromium, which renders the call graph's HTML page headless.
set -euo pipefail
packages=()
home=${JAVA_HOME:-}
if [ -z "$home" ] && command -v java >/dev/null 2>&1; then
    home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi
if [ -z "$home" ] || [ ! -f "$home/jmods/java.base.jmod" ]; then
    packages+=(openjdk-17-jdk-headless)
fi
if [ ! -f /usr/share/java/jython-2.7.3.jar ]; then
    packages+=(jython)
fi
if ! command -v dot >/dev/null 2>&1; then
    packages+=(graphviz)
fi
if ! command -v tmux >/dev/null 2>&1; then
    packages+=(tmux)
fi
if ! command -v chromium >/dev/null 2>&1; then
    packages+=(chromium)
fi
if [ ${#packages[@]} -eq 0 ]; then
    exit 0
fi
echo "installing ${packages[*]}" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"
