#!/bin/bash
# Issue 18 "Python": the python/ package's pytest tests (python/tests/)
# against this build's librvtrace.so and rvtrace.  Skips (77) without a
# python3 that has cffi and pytest (Debian python3-cffi, python3-pytest;
# scripts/setup.sh installs them); the Dask test skips itself without
# python3-dask/python3-distributed.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
BUILD=$(cd "$(dirname "$RVT_BIN")" && pwd)
PY=
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import cffi, pytest' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with cffi and pytest"; exit 77; }
[ -f "$BUILD/librvtrace.so" ] || { echo "FAIL: no $BUILD/librvtrace.so"; exit 1; }
# A sanitizer build's library needs its runtime loaded first, which an
# uninstrumented python3 does not do (make asan runs the C tests instead).
if ldd "$BUILD/librvtrace.so" 2>/dev/null | grep -q 'libasan\|libtsan'; then
  echo "SKIP: $BUILD/librvtrace.so is a sanitizer build"; exit 77
fi
mkdir -p "$RVT_TMP/python"
export RVTRACE_LIB=$BUILD/librvtrace.so PYTHONDONTWRITEBYTECODE=1
cd "$RVT_SRC/python" || exit 1
exec "$PY" -m pytest -q -p no:cacheprovider --basetemp="$RVT_TMP/python/pytest" tests
