#!/bin/bash
# Valid UTF-8 in, valid UTF-8 out: names made of 2-, 3- and 4-byte characters
# at every byte alignment, filling each field to its length limit, never come
# back split (JSON API, pages, report.txt, CLI), and identifiers are never
# truncated: a 299-byte metric id from the series answer works in /api/v1/trend.
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
mkdir -p "$TMP_T/docs"

# fill CHAR OFFSET BYTES: OFFSET x's, then CHAR as often as fits in BYTES bytes.
fill() { "$PY" -c 'import sys; c, o, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]); print("x" * o + c * ((n - o) // len(c.encode())))' "$@"; }
CASES=
for c in é € 😀; do
	w=$(printf %s "$c" | wc -c)
	for o in $(seq 0 $((w - 1))); do
		tag=$w-$o
		fields=$("$PY" -c 'import json, sys; a = sys.argv; print(json.dumps({"series.name": a[1], "series.base": a[2],
			"commit.sha": a[3], "commit.subject": a[1], "results.0.workload": a[4], "results.0.variant": a[4],
			"results.0.metric": a[5], "environment.host": a[2]}))' \
			"$(fill "$c" "$o" 200)" "$(fill "$c" "$o" 199)" "$(fill "$c" "$o" 100)" \
			"$(fill "$c" "$o" 100)" "$(fill "$c" "$o" 99)")
		"$PY" tests/lib/gen-named.py "$TMP_T/docs" "$tag" "$fields" || bail "gen $tag"
		CASES="$CASES $tag"
	done
done
for f in "$TMP_T"/docs/*.json; do "$SERVER" seal "$f" >"$f.sealed" || bail "seal $f"; done
"$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.sealed
ok $? 'nine series of multibyte names at their length limits imported'
start_server "$DB" || bail "server did not start"

enc() { "$PY" -c 'import sys, urllib.parse as u; print(u.quote(sys.argv[1], safe=""))' "$1"; }
# get URL WHAT: 200 and strictly valid UTF-8 JSON (or text for report.txt, HTML for pages).
bad=0
get() { # returns 1 on a failure
	local c
	c=$(code "$1")
	if [ "$c" != 200 ]; then
		bad=$((bad + 1)); diag "$2: $c for $1"; return 1
	elif [ "$3" = json ] && ! strict_json "$TMP_T/body"; then
		bad=$((bad + 1)); diag "$2: invalid UTF-8 JSON"; return 1
	elif ! strict_utf8 "$TMP_T/body"; then
		bad=$((bad + 1)); diag "$2: invalid UTF-8"; grep -ao '.\{20\}[^[:print:]]\{0,2\}</a>' "$TMP_T/body" | head -2 | sed 's/^/# /'
	fi
}
get /api/v1/series 'series list' json
get /api/v1/regressions 'regressions' json
get / index html
nseries=0
for tag in $CASES; do
	name=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["series"]["name"])' "$TMP_T/docs/$tag-0.json")
	N=$(enc "$name")
	get "/api/v1/series/$N" "$tag series" json || continue
	cp "$TMP_T/body" "$TMP_T/series.json"
	ids=$(jget "$TMP_T/series.json" '"\n".join(m["metric"] for m in d["metrics"])')
	base=$(jget "$TMP_T/series.json" 'd["commits"][0]["sha"]')
	head=$(jget "$TMP_T/series.json" 'd["commits"][1]["sha"]')
	while IFS= read -r id; do
		get "/api/v1/trend?series=$N&metric=$(enc "$id")" "$tag trend of the metric id the series answer gave" json
		get "/series/$N/metric/$(enc "${id%%/*}")/$(enc "$(echo "$id" | cut -d/ -f2)")/$(enc "${id##*/}")" "$tag metric page" html
	done <<<"$ids"
	get "/api/v1/compare?series=$N&base=$(enc "$base")&head=$(enc "$head")" "$tag compare" json
	get "/api/v1/series/$N/report.txt" "$tag report.txt" text
	get "/series/$N" "$tag series page" html
	get "/series/$N/commit/$(enc "$head")" "$tag commit page" html
	"$SERVER" report --db "$DB" --series "$name" >"$TMP_T/report.out" 2>&1
	strict_utf8 "$TMP_T/report.out" || { bad=$((bad + 1)); diag "$tag: report command output invalid UTF-8"; }
	nseries=$((nseries + 1))
done
is "$nseries" 9 'every series answered'
is "$bad" 0 'every answer 200 and valid UTF-8 (JSON strictly), metric ids round-trip'
code "/api/v1/series/$(enc "$(fill é 1 200)")" >/dev/null
like "$(jget "$TMP_T/body" '" ".join(str(len(m["metric"].encode())) for m in d["metrics"])')" ' 299$' \
	'the id of a 99+99+99-byte metric is 299 bytes, not truncated'
"$SERVER" regressions --db "$DB" >"$TMP_T/regs.out" 2>&1
strict_utf8 "$TMP_T/regs.out"
ok $? 'the regressions command prints valid UTF-8'

stop_server
is $? 0 'server exits 0'
done_testing
