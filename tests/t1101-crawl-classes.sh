#!/bin/bash
# The generated half of the crawl (tests/lib/crawl-classes.py says what): cut
# multibyte names, many or big request parts, extreme values in an export and
# \u0000 in documents, drawn from a seed printed here. A failure replays with
#   FW_CRAWL_SEED=<seed> prove tests/t1101-crawl-classes.sh
. tests/lib/tap.sh
. tests/lib/server.sh
SEED=${FW_CRAWL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
diag "seed $SEED (replay: FW_CRAWL_SEED=$SEED prove $0)"
DB=$TMP_T/fw.db
mkdir -p "$TMP_T/work"
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail import
TOK=$("$SERVER" token add crawl --scopes ingest --db "$DB" 2>/dev/null)
start_server "$DB" || bail "server did not start"
"$PY" tests/lib/crawl-classes.py "$SEED" "$TMP_T/work" "$SERVER" "$URL" "$DB" "$TOK" >"$TMP_T/crawl.out" 2>&1
ok $? 'the generated crawl ran'
grep -v '^checks ' "$TMP_T/crawl.out" | head -20 | sed 's/^/# /'
like "$(tail -1 "$TMP_T/crawl.out")" '^checks [0-9]{3,} problems 0$' \
	"every generated case handled (seed $SEED): UTF-8 cuts, an answer to every request, export links, NUL refused alike"
diag "$(tail -1 "$TMP_T/crawl.out")"
is "$(code /healthz)" 200 'the server is alive'
stop_server
is $? 0 'server exits 0'
done_testing
