#!/usr/bin/env bash
# The commands `rvtrace help` lists, one per line, in its order: the one
# list gen-cli-doc.sh (docs/cli.md) and gen-man.sh (man pages) walk.
# Usage: cli-commands.sh RVTRACE
set -euo pipefail
"$1" help | awk '/^commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }'
