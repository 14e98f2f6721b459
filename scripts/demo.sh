#!/usr/bin/env bash
# make demo: run the bundled workloads through every trace path and print a
# readable summary.  Usage: scripts/demo.sh PATH/TO/rvtrace
set -uo pipefail
RVT=${1:-build/rvtrace}
cd "$(dirname "$0")/.."
"$RVT" --version
"$RVT" help
