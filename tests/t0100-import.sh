#!/bin/bash
# import CLI: stores, re-import is a no-op, bad documents exit 1 naming the field.
. tests/lib/tap.sh
DB=$TMP_T/fw.db

out=$($SERVER import --db "$DB" schema/examples/run-ok.json 2>&1); rc=$?
is "$rc" 0 "import of the example exits 0"
like "$out" "^stored local:[0-9a-f]{64} \(3 results, 4 samples\)" "import says what it stored"
out=$($SERVER import --db "$DB" schema/examples/run-ok.json 2>&1); rc=$?
is "$rc" 0 "re-import exits 0"
like "$out" "^unchanged " "re-import says unchanged"
is "$(sqlite3 "$DB" 'select count(*) from runs')" 1 "one run stored"

sed 's/"61.96"/"x"/; s/61.96/"x"/' schema/examples/run-ok.json > "$TMP_T/bad.json"
out=$($SERVER import --db "$DB" "$TMP_T/bad.json" 2>&1); rc=$?
is "$rc" 1 "bad document exits 1"
like "$out" "results\[0\]\.samples\[0\]: not a finite number" "error names the field path"
is "$(sqlite3 "$DB" 'select count(*) from samples')" 4 "nothing written for the bad document"

out=$($SERVER import --db "$DB" "$TMP_T/missing.json" 2>&1); rc=$?
is "$rc" 1 "missing file exits 1"
like "$out" "missing.json: No such file" "missing file named"

head -c 2000000 /dev/zero | tr '\0' ' ' > "$TMP_T/huge.json"
out=$($SERVER import --db "$DB" "$TMP_T/huge.json" 2>&1); rc=$?
is "$rc" 1 "oversized file exits 1"
like "$out" "size limit" "oversized file explained"

# seal fills in ids; a sealed generated document imports
tests/lib/gen-doc.py --series "sealed" > "$TMP_T/gen.json"
$SERVER seal "$TMP_T/gen.json" > "$TMP_T/sealed.json"; rc=$?
is "$rc" 0 "seal succeeds"
$SERVER import -q --db "$DB" "$TMP_T/sealed.json"; rc=$?
is "$rc" 0 "sealed document imports"
is "$(sqlite3 "$DB" "select count(*) from series where name = 'sealed'")" 1 "sealed series stored"

out=$($SERVER import 2>&1); rc=$?
is "$rc" 2 "import without files is a usage error"
$SERVER --help >/dev/null; is "$?" 0 "--help exits 0"
out=$($SERVER frobnicate 2>&1); rc=$?
is "$rc" 2 "unknown command exits 2"
done_testing
