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

# created_at: ISO 8601 UTC, YYYY-MM-DDTHH:MM:SSZ with an optional fraction of seconds.
. tests/lib/server.sh
n=0
for t in 2026-11-29T22:00:00.123Z 2024-02-29T23:59:60Z 2026-01-31T00:00:00.000000001Z; do
	n=$((n + 1))
	make_doc "$TMP_T/t$n.json" "created_at=$t" "commit.key=created-ok-$n"
	out=$($SERVER import --db "$DB" "$TMP_T/t$n.json" 2>&1); rc=$?
	is "$rc" 0 "created_at $t imports"
	is "$(sqlite3 "$DB" "select created_at from runs r join commits c on c.id = r.commit_id where c.commit_key = 'created-ok-$n'")" \
		"$t" "... stored as given"
done
for t in yesterday 2026-11-29 '2026-11-29 22:00:00Z' 2026-11-29T22:00:00 2026-11-29T22:00:00+00:00 \
	2026-11-29t22:00:00z 2026-11-29T22:00Z 2026-11-29T22:00:00.Z 2026-11-29T22:00:00.1234567890Z \
	2026-13-01T00:00:00Z 2026-04-31T00:00:00Z 2026-02-29T00:00:00Z 2100-02-29T00:00:00Z \
	2026-11-29T24:00:00Z 2026-11-29T22:60:00Z 2026-11-29T22:00:61Z '2026-11-29T22:00:00Z '; do
	n=$((n + 1))
	make_doc "$TMP_T/t$n.json" "created_at=$t" "commit.key=created-bad-$n"
	out=$($SERVER import --db "$DB" "$TMP_T/t$n.json" 2>&1); rc=$?
	is "$rc" 1 "created_at '$t' is rejected"
	like "$out" "created_at: \"[^\"]*\" is not a UTC time YYYY-MM-DDTHH:MM:SSZ" "... naming the field created_at"
done
make_doc "$TMP_T/nodate.json" created_at=DELETE
out=$($SERVER import --db "$DB" "$TMP_T/nodate.json" 2>&1); rc=$?
is "$rc" 1 "missing created_at is rejected"
like "$out" "created_at: required string is missing" "... naming the field created_at"
make_doc "$TMP_T/numdate.json" created_at=1764453600
out=$($SERVER import --db "$DB" "$TMP_T/numdate.json" 2>&1); rc=$?
is "$rc" 1 "a number for created_at is rejected"
like "$out" "created_at: must be a string" "... naming the field created_at"
is "$(sqlite3 "$DB" "select count(*) from commits where commit_key like 'created-bad-%'")" 0 "nothing stored for bad created_at"

out=$($SERVER import 2>&1); rc=$?
is "$rc" 2 "import without files is a usage error"
$SERVER --help >/dev/null; is "$?" 0 "--help exits 0"
out=$($SERVER frobnicate 2>&1); rc=$?
is "$rc" 2 "unknown command exits 2"
done_testing
