#!/bin/bash
# import stores documents 64 to a transaction (each a savepoint): what it
# stores and says is what one transaction a document gives, a refused
# document leaves the others of its batch, and a batch SQLite rolls back is
# never said to be stored: every "stored" line names a run in the database.
. tests/lib/tap.sh
. tests/lib/server.sh
# shellcheck disable=SC2046
gen_sealed "$TMP_T/a" batches tcg@runner-1 12 $(for i in $(seq 0 11); do printf 'c%d:%d:%s:1:1:1 ' "$i" "$i" \
	"$([ "$i" = 0 ] && echo - || echo "c$((i - 1))")"; done) || bail gen
mapfile -t docs < <(ls "$TMP_T"/a/*.sealed | sort)
is "${#docs[@]}" 144 "144 sealed documents (12 commits x 12 boots)"
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); d["results"][0]["samples"][0] = "x"; print(json.dumps(d))' \
	"${docs[69]}" > "$TMP_T/bad.json"
list=("${docs[@]:0:70}" "$TMP_T/bad.json" "${docs[0]}" "${docs[@]:70}")  # a refused one, a duplicate

# one transaction a document (the reference): each imported alone
for f in "${list[@]}"; do "$SERVER" import -q --db "$TMP_T/one.db" "$f" 2>/dev/null; done
"$SERVER" import --db "$TMP_T/batch.db" "${list[@]}" > "$TMP_T/out" 2> "$TMP_T/err"; rc=$?
is "$rc" 1 "a refused document among 146: exit 1"
like "$(cat "$TMP_T/err")" "bad.json: " "... it is named"
is "$(grep -c '^stored ' "$TMP_T/out")" 144 "... the 144 others stored (three batches)"
is "$(grep -n '^unchanged ' "$TMP_T/out" | cut -d: -f1)" 71 "... the duplicate said unchanged, in its place"
is "$(grep -o 'from .*' "$TMP_T/out" | sed 's/^from //' | tr '\n' ' ')" \
	"$(printf '%s ' "${docs[@]:0:70}" "${docs[0]}" "${docs[@]:70}")" "... one line a document, in the order given"
digest() { sqlite3 "$1" "SELECT group_concat(run_id || ' ' || doc_hash, ' ') FROM (SELECT run_id, doc_hash FROM runs ORDER BY run_id);
	SELECT count(*), total(value) FROM samples; SELECT count(*), total(value) FROM counters" | sha256sum; }
is "$(digest "$TMP_T/batch.db")" "$(digest "$TMP_T/one.db")" \
	"the runs, samples and counters of one transaction a document"

# SQLite rolls the second batch back at its 16th document (RAISE(ROLLBACK)): its first 15 are lost
rid() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["run_id"])' "$1"; }
victim=$(rid "${docs[79]}")
sqlite3 "$TMP_T/lost.db" 'SELECT 1' >/dev/null && "$SERVER" import -q --db "$TMP_T/lost.db" "${docs[143]}" || bail "lost.db"
sqlite3 "$TMP_T/lost.db" "CREATE TRIGGER lose AFTER INSERT ON runs WHEN NEW.run_id = '$victim'
	BEGIN SELECT RAISE(ROLLBACK, 'the disk is full (test)'); END" || bail trigger
"$SERVER" import --db "$TMP_T/lost.db" "${docs[@]:0:143}" > "$TMP_T/out2" 2> "$TMP_T/err2"; rc=$?
is "$rc" 1 "a batch rolled back: exit 1"
is "$(grep -cF "not stored: its batch of documents was rolled back (by the error of ${docs[79]})" "$TMP_T/err2")" 15 \
	"... each of its 15 documents before the one that failed named as not stored, and why"
said=$(sed -n 's/^stored \([^ ]*\) .*/\1/p' "$TMP_T/out2" | sort | tr '\n' ' ')
have=$(sqlite3 "$TMP_T/lost.db" "SELECT run_id FROM runs WHERE run_id != '$(rid "${docs[143]}")' ORDER BY run_id" |
	sort | tr '\n' ' ')
is "$said" "$have" "... every run said stored is in the database, and only those"
is "$(sqlite3 "$TMP_T/lost.db" 'SELECT count(*) FROM runs')" 128 "... 143 - 16 + the one before"
sqlite3 "$TMP_T/lost.db" 'DROP TRIGGER lose' || bail drop
"$SERVER" import --db "$TMP_T/lost.db" "${docs[@]}" > "$TMP_T/out3"; rc=$?
is "$rc $(grep -c '^stored ' "$TMP_T/out3") $(grep -c '^unchanged ' "$TMP_T/out3")" "0 16 128" \
	"imported again: the 16 lost are stored, the rest unchanged"
is "$(digest "$TMP_T/lost.db")" "$(digest "$TMP_T/one.db")" "... the same runs as one transaction a document"
done_testing
