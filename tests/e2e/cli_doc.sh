#!/bin/bash
# docs/cli.md must be what scripts/gen-cli-doc.sh makes from the current
# help texts (run the script after changing an option).
set -u
mkdir -p "$RVT_TMP"
bash "$RVT_SRC/scripts/gen-cli-doc.sh" "$RVT_BIN" "$RVT_TMP/cli.md" || exit 1
if ! diff -u "$RVT_SRC/docs/cli.md" "$RVT_TMP/cli.md"; then
    echo "docs/cli.md is out of date: run scripts/gen-cli-doc.sh build/rvtrace"
    exit 1
fi
echo "cli_doc: docs/cli.md matches the help texts"
