#!/bin/bash
# A cached analysis is keyed by the analysis' code, not by the build's
# version: a foliowatch rebuilt for anything else (a page, the API: another
# `git describe`) reads a year of cached analyses instead of redoing them.
# build/tests/other-build is the same analysis linked with another version.
. tests/lib/tap.sh
OTHER=$BUILD/tests/other-build
[ -x "$OTHER" ] || bail "no $OTHER (make all)"
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
"$SERVER" report --db "$DB" --series demo --format json >/dev/null || bail report
cached=$(sqlite3 "$DB" "SELECT data_hash FROM analysis_cache WHERE key = 'series:1'")
like "$cached" '^[0-9a-f]{64}$' 'the server cached the analysis of the demo series'
read -r version hash < <("$OTHER" "$DB" demo)
is "$version" another-build-of-the-same-analysis '... a build of another version reads it'
[ "$version" != "$("$SERVER" --version 2>&1 | awk '{print $NF}')" ]
ok $? "... (its version is not the server's)"
is "$hash" "$cached" '... under the same key: the cached analysis is its answer, nothing recomputed'
is "$(sqlite3 "$DB" "SELECT count(*) FROM analysis_cache WHERE key = 'series:1'")" 1 '... one cached analysis of the series'
done_testing
