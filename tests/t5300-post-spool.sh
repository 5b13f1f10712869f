#!/bin/bash
# Posting with the server down: documents are spooled, nothing is lost; `post`
# sends them once the server is up, each stored once; a refused token keeps
# the spool; a rejected document moves to spool/rejected.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
SPOOL=$TMP_T/spool
for i in 1 2 3; do
	tests/lib/gen-doc.py --series spool --commit-index "$i" > "$TMP_T/raw$i.json"
	"$SERVER" seal "$TMP_T/raw$i.json" > "$TMP_T/doc$i.json" || bail "seal"
done
"$SERVER" token add runner --db "$DB" > "$TMP_T/token" || bail "token"
DEAD=http://127.0.0.1:$(free_port)   # nothing listens there

out=$("$COLLECT" post --url "$DEAD" --token-file "$TMP_T/token" --spool "$SPOOL" --retries 1 --backoff 0.1 \
	"$TMP_T"/doc1.json "$TMP_T"/doc2.json 2>&1); rc=$?
is "$rc" 1 "post to a server that is down fails"
like "$out" "cannot reach" "and says why"
is "$(ls "$SPOOL"/*.json | wc -l)" 2 "both documents wait in the spool"

start_server "$DB" || bail "server did not start"
echo "not-the-token" > "$TMP_T/bad-token"
out=$("$COLLECT" post --url "$URL" --token-file "$TMP_T/bad-token" --spool "$SPOOL" --retries 0 2>&1); rc=$?
is "$rc" 1 "a refused token fails"
is "$(ls "$SPOOL"/*.json | wc -l)" 2 "and keeps the spool (the token is wrong, not the documents)"

out=$("$COLLECT" post --url "$URL" --token-file "$TMP_T/token" --spool "$SPOOL" "$TMP_T/doc3.json" 2>&1); rc=$?
is "$rc" 0 "post with the server up sends the spool and the new document"
is "$(ls "$SPOOL"/*.json 2>/dev/null | wc -l)" 0 "spool empty"
is "$(sqlite3 "$DB" "select count(*) from runs")" 3 "three runs stored"
out=$("$COLLECT" post --url "$URL" --token-file "$TMP_T/token" --spool "$SPOOL" "$TMP_T"/doc*.json 2>&1); rc=$?
is "$rc" 0 "sending them all again succeeds"
like "$out" "unchanged" "as unchanged"
is "$(sqlite3 "$DB" "select count(*) from runs")" 3 "each stored once"

sed 's/"lower_is_better"/"sideways"/' "$TMP_T/raw1.json" > "$TMP_T/bad.json"
cp "$TMP_T/bad.json" "$SPOOL/"
out=$("$COLLECT" post --url "$URL" --token-file "$TMP_T/token" --spool "$SPOOL" 2>&1); rc=$?
is "$rc" 0 "a rejected document does not block the spool"
like "$out" "rejected with HTTP 400" "the rejection is reported"
is "$(ls "$SPOOL"/rejected/ | wc -l)" 1 "and the document is kept in spool/rejected"
stop_server
done_testing
