#!/bin/bash
# Hostile strings in names, subjects and logs: escaped on pages, in SVG plots
# and in the API, never executed (gnuplot/shell/SQL), never a cache file name;
# static files never leave the static folder.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/fw.db
PWN=$TMP_T/pwned
TOK=$("$SERVER" token add ci --db "$DB")
mkdir -p "$TMP_T/static/sub"
echo 'body{}' >"$TMP_T/static/ok.css"
echo secret >"$TMP_T/secret.txt"
ln -s "$TMP_T/secret.txt" "$TMP_T/static/link.txt"
ln -s "$TMP_T" "$TMP_T/static/sub/up"
start_server "$DB" --static "$TMP_T/static" || bail "server did not start"

SERIES="<script>alert(1)</script>'; DROP TABLE runs;-- \"q\" \`touch $PWN.1\` ../x a/b.csv"
SUBJ="\"; system(\"touch $PWN.2\"); print \" \`touch $PWN.3\` <img src=x onerror=alert(2)> & \$(touch $PWN.4)"
WL="<b>wl\"'\`system(\"touch fwpwned5\")\`"
MET="m';DROP TABLE samples;--<i>\");system(\"touch fwpwned6\");(\""
LOG='</pre><script>alert(3)</script>
set output "/tmp/x"
!touch '"$PWN.6"

make_doc "$TMP_T/h1.json" "series.name=$SERIES" "commit.subject=$SUBJ" "results.0.workload=$WL" \
	"results.0.metric=$MET" "workloads=[\"split\", \"lazyfree\"]" "boot.log_tail=$LOG" "build.log_tail=$LOG"
make_doc "$TMP_T/h2.json" "series.name=$SERIES" "commit.subject=$SUBJ 2" "results.0.workload=$WL" \
	"results.0.metric=$MET" "boot.log_tail=$LOG" commit.sha=bbbb000000000000000000000000000000000002 \
	commit.key=bbbb000000000000000000000000000000000002 commit.position=2 'results.0.samples=[80, 81]'
is "$(post "$TMP_T/h1.json" "$TOK")" 201 'hostile document 1 stored'
is "$(post "$TMP_T/h2.json" "$TOK")" 201 'hostile document 2 stored'
make_doc "$TMP_T/nl.json" "commit.subject=a
b"
is "$(post "$TMP_T/nl.json" "$TOK")" 400 'newline in a subject: 400'
like "$(cat "$TMP_T/post.out")" '"field":"commit\.subject"' '... names commit.subject'
make_doc "$TMP_T/sl.json" "results.0.metric=a/b"
is "$(post "$TMP_T/sl.json" "$TOK")" 400 "'/' in a metric name: 400"

ENC=$("$PY" -c 'import sys, urllib.parse as u; print(u.quote(sys.argv[1], safe="").replace(".", "%2E"))' "$SERIES")
ENCWL=$("$PY" -c 'import sys, urllib.parse as u; print(u.quote(sys.argv[1], safe=""))' "$WL")
ENCM=$("$PY" -c 'import sys, urllib.parse as u; print(u.quote(sys.argv[1], safe=""))' "$MET")

is "$(code /api/v1/series)" 200 'series list'
is "$(jget "$TMP_T/body" 'd["series"][0]["name"]')" "$SERIES" '... name round-trips through JSON'
is "$(code "/api/v1/series/$ENC")" 200 'series by encoded hostile name'
is "$(jget "$TMP_T/body" 'd["commits"][1]["subject"]')" "$SUBJ 2" '... subject round-trips'
is "$(code "/api/v1/series/$ENC.csv")" 200 'CSV of the hostile series'
like "$(sed -n 2p "$TMP_T/body")" "^\"<script>alert\\(1\\)</script>'; DROP" '... quoted CSV field'
is "$("$PY" -c 'import csv, sys; print(next(r[0] for r in csv.reader(open(sys.argv[1])) if r[0] != "series"))' "$TMP_T/body")" \
	"$SERIES" '... its quotes doubled: a CSV reader reads the name back'
is "$(code "/api/v1/trend?series=$ENC&metric=$ENCWL%2Fpmd-to-0%2F$ENCM")" 200 'trend by hostile names'
bad=0
for u in /api/v1/series "/api/v1/series/$ENC" "/api/v1/trend?series=$ENC&metric=$ENCWL%2Fpmd-to-0%2F$ENCM" \
	/api/v1/regressions "/api/v1/compare?series=$ENC&base=3b2f6a1c&head=bbbb0000"; do
	code "$u" >/dev/null
	strict_json "$TMP_T/body" || bad=$((bad + 1))
done
is "$bad" 0 'every JSON answer is strictly valid UTF-8 JSON'

check_page() { # check_page URL description
	is "$(code "$1")" 200 "$2"
	if grep -Eqi '<script|<img src=x|<b>wl|<i>' "$TMP_T/body"; then
		ok 1 "$2: no raw markup"
		grep -Eoi '.{40}(<script|<img src=x|<b>wl|<i>).{20}' "$TMP_T/body" | head -3 | sed 's/^/# /'
	else
		ok 0 "$2: no raw markup"
	fi
}
check_page / 'index'
like "$(cat "$TMP_T/body")" '&lt;script&gt;alert\(1\)&lt;/script&gt;&#39;; DROP TABLE runs;-- &quot;q&quot;' '... name escaped'
like "$(cat "$TMP_T/body")" "href=\"/series/$(printf %s "$ENC" | sed 's/\./%2E/g')\"" '... link fully percent-encoded'
check_page "/series/$ENC" 'series page'
like "$(cat "$TMP_T/body")" '&quot;; system\(&quot;touch' '... subject escaped'
like "$(cat "$TMP_T/body")" '&lt;b&gt;wl&quot;&#39;`system' '... workload escaped'
check_page "/series/$ENC/metric/$ENCWL/pmd-to-0/$ENCM" 'metric page'
check_page "/series/$ENC/commit/bbbb0000" 'commit page'
like "$(cat "$TMP_T/body")" '&lt;/pre&gt;&lt;script&gt;alert\(3\)' '... log tail escaped'

for size in small big; do
	is "$(code "/plot/$ENC/$ENCWL/pmd-to-0/$ENCM/$size.svg")" 200 "$size plot of hostile names"
	like "$(head -c 200 "$TMP_T/body")" '<svg' "... is SVG"
	# Labels are reduced to [A-Za-z0-9 ._:,()+-]: words may remain, markup and quotes cannot.
	if grep -Eqi '<script|<img|<b>|<i>|onerror=|`' "$TMP_T/body"; then
		ok 1 "... no hostile text inside the SVG"
	else
		ok 0 "... no hostile text inside the SVG"
	fi
	"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP_T/body"
	is $? 0 "... SVG is well-formed XML"
done
is "$(ls "$TMP_T/cache" | grep -vc '^[0-9a-f]\{64\}\.svg$')" 0 'cache file names are hashes only'
is "$(ls "$TMP_T" | grep -c pwned)" 0 'no injected command ran (no file appeared)'
is "$(find "$TMP_T/cache" "$PWD" -maxdepth 2 -name 'fwpwned*' | wc -l)" 0 '... also not relative to the server or gnuplot'
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs')" 2 'no injected SQL ran (runs intact)'
is "$(sqlite3 "$DB" 'SELECT count(*) FROM samples')" 8 '... samples intact'

# Static folder: traversal (plain, encoded, double-encoded), dot-files, symlinks out.
for p in '/static/../secret.txt' '/static/%2e%2e/secret.txt' '/static/..%2fsecret.txt' '/static/%2e%2e%2fsecret.txt' \
	'/static/%252e%252e/secret.txt' '/static/sub/up/secret.txt' '/static/link.txt' '/static/.%2e/secret.txt' \
	'/static//etc/passwd' '/static/ok.css%00.txt' '/static/sub'; do
	c=$(curl -s --path-as-is -o "$TMP_T/body" -w '%{http_code}' "$URL$p")
	if [ "$c" = 404 ] && ! grep -q secret "$TMP_T/body"; then ok 0 "traversal $p: 404"; else ok 1 "traversal $p: $c"; fi
done
is "$(code /static/ok.css)" 200 'a real static file still works'

stop_server
is $? 0 'server exits 0'
done_testing
