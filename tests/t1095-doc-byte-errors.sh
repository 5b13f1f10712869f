#!/bin/bash
# Byte-level problems in a run document are refused naming the field path:
# a \u0000 escape (cJSON would cut the string there: "hostile-08\u0000evil"
# must not be a duplicate of "hostile-08"), invalid UTF-8 inside a string,
# duplicate keys deep in the document; keys with control characters are
# escaped in the error (no raw newline in an answer).
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB" 2>/dev/null)
start_server "$DB" || bail "server did not start"

make_doc "$TMP_T/h8.json" series.name=hostile-08
is "$(post "$TMP_T/h8.json" "$TOK")" 201 'series hostile-08 stored'
# raw FILE PY-EXPR: FILE = the sealed hostile-08 document's text, changed by PY-EXPR on t.
raw() { "$PY" -c 'import sys; t = open(sys.argv[1], "rb").read(); sys.stdout.buffer.write(eval(sys.argv[2]))' \
	"$TMP_T/h8.json" "$2" >"$1"; }
field() { jget "$TMP_T/post.out" 'd["error"]["field"]'; }

raw "$TMP_T/nul.json" 't.replace(b"\"hostile-08\"", b"\"hostile-08\\u0000evil\"")'
is "$(post "$TMP_T/nul.json" "$TOK")" 400 'series.name "hostile-08\u0000evil": 400, not a duplicate'
is "$(field)" series.name '... names series.name'
like "$(jget "$TMP_T/post.out" 'd["error"]["detail"]')" 'u0000' '... and says \u0000'
raw "$TMP_T/nulkey.json" 't.replace(b"\"order\"", b"\"ord\\u0000er\"")'
is "$(post "$TMP_T/nulkey.json" "$TOK")" 400 'a \u0000 escape in a key: 400'
like "$(field)" '^results\[0\]\.params\.ord' '... names the key results[0].params.ord...'
make_doc "$TMP_T/bs.json" series.name='hostile-08\u0000evil'
is "$(post "$TMP_T/bs.json" "$TOK")" 201 'an escaped backslash before u0000 is text, not NUL: stored'
is "$(sqlite3 "$DB" "SELECT count(*) FROM series WHERE name = 'hostile-08\\u0000evil'")" 1 '... verbatim'

# refused WHAT PY-EXPR FIELD: the changed document is refused (400) naming FIELD, in strict UTF-8 JSON.
refused() {
	raw "$TMP_T/bad.json" "$2"
	is "$(post "$TMP_T/bad.json" "$TOK")" 400 "$1: 400"
	is "$(field)" "$3" "... names $3"
	strict_json "$TMP_T/post.out"
	ok $? '... the error answer is strictly valid UTF-8 JSON'
}
refused 'invalid UTF-8 in a string' 't.replace(b"\"ext4\"", b"\"ex\xff\xfet4\"")' 'results[2].params.fs'
refused 'invalid UTF-8 in a key' 't.replace(b"\"memcg_mib\"", b"\"memcg\xc3_mib\"")' 'results[2].params.memcg\xc3_mib'
refused 'a duplicate key' 't.replace(b"\"memcg_mib\"", b"\"fs\": \"xfs\", \"memcg_mib\"")' 'results[2].params.fs'
refused 'a newline in a key (escaped in the path)' 't.replace(b"\"order\"", b"\"or\\nder\"")' 'results[0].params.or\nder'
cp "$TMP_T/bad.json" "$TMP_T/nl.json"
is "$(grep -c . "$TMP_T/post.out")" 1 '... the answer is one line'
"$SERVER" import --db "$DB" "$TMP_T/nl.json" 2>"$TMP_T/import.err"
is "$(grep -c . "$TMP_T/import.err")" 1 'import prints the error on one line too'

stop_server
is $? 0 'server exits 0'
done_testing
