#!/bin/bash
# Errors that say what is wrong: run names the one condition that failed;
# commands that only read refuse a missing --db (naming it) and do not create
# it, commands that write still may; regressions lists everything by default
# and refuses bad --status/--fail-on values naming the allowed ones; an
# unsealed document (POST or import) is told about `foliowatch-server seal`;
# token add says the token is shown only once (stderr; the token alone on stdout);
# serve's and regressions' numbers (--threads, --listen's port, --set) are
# checked, a bad one named.
. tests/lib/tap.sh
. tests/lib/server.sh
SRC=$PWD
# A cache that cannot be used (a file): a command that should have stopped at a
# usage error but goes on to real work (unpacking and building a kernel) fails fast.
export FOLIOWATCH_CACHE="$TMP_T/cache-is-a-file"
: >"$FOLIOWATCH_CACHE"
# run ARGS...: sets rc, out, err
run() {
	out=$(timeout 20 "$@" 2>"$TMP_T/stderr" </dev/null)
	rc=$?
	err=$(<"$TMP_T/stderr")
}

# --- kernel --mbox applies onto the default tree only --------------------------------
run "$COLLECT" kernel --mbox "$TMP_T/none.mbox" --tree "$TMP_T"
ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "kernel --mbox with --tree: exit 2, nothing built"
like "$err" "^foliowatch-collect kernel: --mbox applies onto the default tree: give --tree or --mbox, not both" \
	"... says why"

# --- run: one message per condition (before, all six were one sentence) ----------
R="--series s --range a..b"
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	eval "set -- $args"
	run "$COLLECT" run "$@"
	ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "run $args: exit 2"
	like "$err" "^foliowatch-collect run: $want" "... says: $want"
	ok $(printf '%s' "$err" | grep -q 'exactly one of\|sane counts'; [ $? = 1 ]; echo $?) "... and not the list of every condition"
	like "$err" "try 'foliowatch-collect run --help'" "... points to run --help"
done <<EOF
|--series NAME is required
--range a..b|--series NAME is required
--series '' --range a..b|--series must not be empty
--series s|what to measure: give --range BASE..HEAD or --mbox FILE
--series s --range a..b --mbox m|--range and --mbox exclude each other
$R --base v1|--base goes with --mbox
$R --workloads 'split,Bad'|--workloads must be names .* not 'split,Bad'
$R --profile 'a b'|--profile must be a name .* not 'a b'
$R --rounds 0|--rounds must be a whole number from 1 to 1000, not '0'
$R --boots 1001|--boots must be a whole number from 1 to 1000, not '1001'
$R --boots x|--boots must be a whole number from 1 to 1000, not 'x'
$R --revision 0|--revision must be a whole number from 1 to
$R --first-position -1|--first-position must be a whole number from 0 to 90000
$R --timeout 0|--timeout must be a number above 0
$R --vcpus 0|--vcpus must be a whole number from 1 to 256
$R --memory 10|--memory must be a whole number from 64 to
$R --jobs 0|--jobs must be a whole number from 1 to
$R --accel kvmm|--accel must be plan, auto, kvm, tcg or icount, not 'kvmm'
$R --budget 45|--budget 45: the unit must be s, m, h or boots
$R --budget soon|--budget must be a time .* or none, not 'soon'
$R --budget 1.5boots|--budget 1.5boots: a number of boots is a whole number
$R --max-looks 0|--max-looks must be a whole number from 1 to 1000
$R --boots 30|--max-boots 24 is below --boots 30
$R --post http://127.0.0.1:9|--post needs --token-file FILE
$R --post http://127.0.0.1:9 --token-file t --db f|--post and --db exclude each other
$R --token-file t|--token-file goes with --post
$R --shard 3/2|--shard must be K/N with 1 <= K <= N, not '3/2'
$R extra|unexpected argument 'extra'
EOF
ok $([ -f "$FOLIOWATCH_CACHE" ] && [ ! -s "$FOLIOWATCH_CACHE" ] && [ ! -e foliowatch.db ]; echo $?) \
	"usage errors touch neither the cache nor a database"

# --- serve and regressions: a bad number names its option, exit 2, nothing started --
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	eval "set -- $args"
	run "$SERVER" "$@"
	ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "$args: exit 2"
	like "$err" "^foliowatch-server [a-z]*: $want" "... says: $want"
done <<EOF
serve --db $TMP_T/serve.db --threads x|--threads must be a whole number from 1 to 256, not 'x'
serve --db $TMP_T/serve.db --threads 0|--threads must be a whole number from 1 to 256, not '0'
serve --db $TMP_T/serve.db --max-connections 99999999999999999999|--max-connections must be a whole number from 1 to 1000000, not '9
serve --db $TMP_T/serve.db --per-ip-limit -1|--per-ip-limit must be a whole number from 0 to
serve --db $TMP_T/serve.db --timeout 5s|--timeout must be a whole number from 0 to 86400, not '5s'
serve --db $TMP_T/serve.db --plot-cache-mb ''|--plot-cache-mb must be a whole number from 0 to
serve --db $TMP_T/serve.db --plot-cache-days 1e3|--plot-cache-days must be a whole number from 0 to
serve --db $TMP_T/serve.db --listen 127.0.0.1:|--listen must be IPV4-ADDRESS:PORT .*not '127.0.0.1:'
serve --db $TMP_T/serve.db --listen 127.0.0.1:http|--listen must be IPV4-ADDRESS:PORT .*not '127.0.0.1:http'
serve --db $TMP_T/serve.db --listen 127.0.0.1:65536|--listen must be IPV4-ADDRESS:PORT .*not '127.0.0.1:65536'
serve --db $TMP_T/serve.db --listen 127.0.0.1:99999999999999999999|--listen must be IPV4-ADDRESS:PORT
regressions --db $TMP_T/serve.db --set 12x --status fixed --by me|--set must be a regression id .*not '12x'
regressions --db $TMP_T/serve.db --set 0 --status fixed --by me|--set must be a regression id .*not '0'
regressions --db $TMP_T/serve.db --set 99999999999999999999 --status fixed --by me|--set must be a regression id .*not '9
EOF
ok $([ ! -e "$TMP_T/serve.db" ]; echo $?) "... and no database was created"

# --- a missing --db: commands that only read refuse it and do not create it -------
MISSING="$TMP_T/mistyped.db"
while IFS='|' read -r name args; do
	[ -n "$name" ] || continue
	eval "set -- $args"
	run "$SERVER" "$@" --db "$MISSING"
	is "$rc" 1 "$name on a missing --db: exit 1"
	like "$err" "no database $MISSING: No such file or directory" "... the error names the file"
	ok $([ ! -e "$MISSING" ] && [ ! -e "$MISSING-wal" ]; echo $?) "... and it still does not exist"
done <<EOF
report|report --series s
report --format csv|report --series s --format csv
regressions|regressions
regressions --json|regressions --json
regressions --fail-on new|regressions --fail-on new
regressions --set|regressions --set 1 --status fixed --by me
export|export --out $TMP_T/site
token list|token list
token revoke|token revoke ci
EOF
ok $([ ! -e "$TMP_T/site" ]; echo $?) "export did not create its --out folder either"
# without --db: the default ./foliowatch.db, same rule
mkdir -p "$TMP_T/empty" && cd "$TMP_T/empty" || bail "cd"
run "$SERVER" regressions
is "$rc" 1 "regressions with no arguments and no ./foliowatch.db: exit 1"
like "$err" "no database foliowatch.db" "... names foliowatch.db"
ok $([ -z "$(ls -A)" ]; echo $?) "... and creates nothing"
# commands that write still create the database
run "$SERVER" token add ci
ok $([ "$rc" = 0 ] && [ -s foliowatch.db ]; echo $?) "token add creates ./foliowatch.db"
cd "$SRC" || bail "cd back"

# --- token add: the token alone on stdout, the once-only note on stderr -----------
like "$out" '^fwt_[0-9a-f]{64}$' "token add: stdout is the token, one line"
is "$(printf '%s\n' "$out" | wc -l)" 1 "... and nothing else"
like "$err" "only time the token is shown" "... stderr says it is shown only once"
like "$err" "'ci'" "... naming the token"

# a name is shown in answers and as who triaged: 1-127 bytes of UTF-8 text
for bad in "$(printf 'x%.0s' $(seq 128))" "$(printf 'a\tb')" "$(printf 'a\xffb')"; do
	run "$SERVER" token add "$bad" --db "$TMP_T/names.db"
	is "$rc" 1 "token add refuses a name of ${#bad} characters with a control or bad byte or over 127 bytes"
	like "$err" '1 to 127 bytes of UTF-8 text' '... saying what a name may be'
done
run "$SERVER" token add "$(printf 'x%.0s' $(seq 127))" --db "$TMP_T/names.db"
is "$rc" 0 'a name of 127 bytes is taken'

run "$SERVER" import --db "$TMP_T/new.db" "$SRC/schema/examples/run-ok.json"
ok $([ "$rc" = 0 ] && [ -s "$TMP_T/new.db" ]; echo $?) "import creates its --db"
run "$SERVER" token list --db "$TMP_T/empty/foliowatch.db"
like "$out" "^ci	" "token list shows it (the DB token add created)"

# --- regressions: everything by default; bad values named, exit 2 -----------------
DB="$TMP_T/fw.db"
mkdir -p "$TMP_T/docs"
"$PY" tests/lib/gen-series.py "$TMP_T/docs" s1 tcg 5 base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2 >/dev/null &&
	"$SERVER" seal --out-dir "$TMP_T/docs" "$TMP_T"/docs/*.json && "$SERVER" import --db "$DB" -q "$TMP_T"/docs/*.json
ok $? "a series with one regression (c2 split_ms +10%)"
run "$SERVER" regressions --db "$DB"
ok $([ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ]; echo $?) "regressions with only --db lists it, exit 0"
like "$out" "new	s1 v1	c2c2c2c2c2c2	split/pmd-to-0 split_ms" "... id, status, series, commit, metric"
id=$(printf '%s' "$out" | cut -f1)
"$SERVER" regressions --db "$DB" --set "$id" --status acknowledged --by alice >/dev/null
run "$SERVER" regressions --db "$DB"
like "$out" "acknowledged.*by alice" "an acknowledged regression is still listed by default (every status)"
cp "$DB" "$TMP_T/empty/foliowatch.db" && cd "$TMP_T/empty" && run "$SERVER" regressions && cd "$SRC"
ok $([ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ]; echo $?) \
	"regressions with no arguments at all lists ./foliowatch.db's"
run "$SERVER" regressions --db "$DB" --status new
ok $([ "$rc" = 0 ] && [ -z "$out" ]; echo $?) "--status new: nothing to list, exit 0"
is "$err" "regressions: none with status new" "... and says so on stderr"
for st in new acknowledged fixed invalid; do
	run "$SERVER" regressions --db "$DB" --status $st
	is "$rc" 0 "--status $st is accepted"
done
for bad in "--status bogus" "--status NEW" "--status ''" "--set $id --status bogus --by alice"; do
	eval "set -- $bad"
	run "$SERVER" regressions --db "$DB" "$@"
	ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "regressions $bad: exit 2"
	like "$err" "--status must be new, acknowledged, fixed or invalid, not '" "... names the allowed values"
done
run "$SERVER" regressions --db "$DB" --fail-on any
ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "regressions --fail-on any: exit 2"
like "$err" "--fail-on must be new, not 'any'" "... names the allowed value"
run "$SERVER" regressions --db "$DB" --set "$id" --by alice
like "$rc $err" "^2 .*--set needs --status" "--set without --status: exit 2, says so"
run "$SERVER" regressions --db "$DB" --set "$id" --status fixed
like "$rc $err" "^2 .*--set needs --by WHO" "--set without --by: exit 2, says so"
is "$(sqlite3 "$DB" "SELECT status FROM regressions WHERE id = $id")" acknowledged "... and nothing was changed"

# --- an unsealed document: the error says that seal fills the field in -------------
# run-ok.json as a CI script would write it by hand: no fingerprint, no run_id
"$PY" - "$SRC/schema/examples/run-ok.json" "$TMP_T/unsealed.json" "$TMP_T/badrid.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
del d["environment"]["fingerprint"]
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["run_id"] = "local:" + "0" * 64
json.dump(d, open(sys.argv[3], "w"))
PYEOF
run "$SERVER" import --db "$DB" "$TMP_T/unsealed.json"
is "$rc" 1 "import of an unsealed document fails"
like "$err" "environment.fingerprint: required string is missing \(\`foliowatch-server seal\` fills it in\)" \
	"... naming the field and foliowatch-server seal"
run "$SERVER" import --db "$DB" "$TMP_T/badrid.json"
like "$err" "run_id: does not match .*foliowatch-server seal" "a wrong run_id: the same hint"
TOK=$("$SERVER" token add poster --db "$DB" 2>/dev/null)
start_server "$DB" || bail "server did not start"
is "$(post "$TMP_T/unsealed.json" "$TOK")" 400 "POST of an unsealed document: 400"
is "$(jget "$TMP_T/post.out" 'd["error"]["field"]')" environment.fingerprint "... names environment.fingerprint"
like "$(jget "$TMP_T/post.out" 'd["error"]["detail"]')" \
	"foliowatch-server seal" "... and says foliowatch-server seal fills it in"
"$SERVER" seal "$TMP_T/unsealed.json" >"$TMP_T/sealed.json"
is "$(post "$TMP_T/sealed.json" "$TOK")" 201 "... which it does: the sealed document is stored"
stop_server
ok $? "server stops cleanly"
done_testing
