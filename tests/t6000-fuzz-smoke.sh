#!/bin/bash
# Bounded libFuzzer runs of every fuzz target (make fuzz-smoke), as part of make test.
. tests/lib/tap.sh
case "$BUILD" in */asan) skip_all "fuzz targets carry their own sanitizers: run once, in the plain pass";; esac
command -v clang >/dev/null || bail "clang missing: run ci/install-deps.sh"
make -s fuzz >"$TMP_T/build.log" 2>&1 || { tail -30 "$TMP_T/build.log"; bail "fuzz build failed"; }
exec sh tests/fuzz/smoke.sh "${FUZZ_SECONDS:-15}" build/fuzz/fuzz-*
