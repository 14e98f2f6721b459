#!/bin/bash
# README.md's tour runs as written (issue #13 item 4): its indented command
# lines (with their continuations) are extracted verbatim and run in a
# temporary directory where build/rvtrace and programs/ stand for this
# build and the source tree's workloads.  Any failing command fails the
# test (bash -e; the pipes into head are allowed their SIGPIPE).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/readme_tour"
rm -rf "$t"; mkdir -p "$t/build"
ln -s "$RVT_BIN" "$t/build/rvtrace"
ln -s "$RVT_SRC/programs" "$t/programs"
awk '/^## A tour/ {on = 1; next} on && /^## / {exit} on && /^    / {print substr($0, 5)}' \
    "$RVT_SRC/README.md" >"$t/tour.sh"
n=$(grep -c 'build/rvtrace' "$t/tour.sh")
[ "$n" -ge 10 ] || { echo "FAIL: only $n tour commands found in README.md"; exit 1; }
# every rvtrace command the tour names must exist
for c in $(grep -o 'build/rvtrace [a-z]*' "$t/tour.sh" | awk '{print $2}' | sort -u); do
    "$RVT_BIN" help "$c" >/dev/null 2>&1 || { echo "FAIL: the tour uses 'rvtrace $c', which does not exist"; exit 1; }
done
cd "$t" || exit 1
if ! bash -e tour.sh >tour.out 2>tour.err; then
    echo "FAIL: the README tour stops:"; tail -5 tour.err; exit 1
fi
echo "readme_tour: $n commands ran"
