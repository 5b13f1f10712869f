# Helpers for server tests (source after tap.sh): a real foliowatch-server on a
# free loopback port with its own DB, cache and log in $TMP_T.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

free_port() {
	"$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

SRV_PID=
# start_server DB [extra serve args...]: sets PORT, URL, SRV_PID; waits for /healthz.
start_server() {
	local db=$1
	shift
	start_server_at "$(free_port)" "$db" "$@"
}
# start_server_at PORT DB [extra serve args...]: start_server on a given port.
start_server_at() {
	local db=$2 scheme=http i
	PORT=$1
	shift 2
	case " $* " in *" --tls-cert "*) scheme=https ;; esac
	URL=$scheme://127.0.0.1:$PORT
	"$SERVER" serve --db "$db" --listen "127.0.0.1:$PORT" --static "$PWD/static" \
		--cache-dir "$TMP_T/cache" "$@" >>"$TMP_T/serve.log" 2>&1 &
	SRV_PID=$!
	for i in $(seq 1 100); do
		curl -sk -o /dev/null "$URL/healthz" && return 0
		kill -0 "$SRV_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$TMP_T/serve.log" >&2
	return 1
}

# stop_server: SIGTERM, returns the server's exit status (ASan reports make it non-zero).
stop_server() {
	local rc=0
	[ -n "$SRV_PID" ] || return 0
	kill -TERM "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" || rc=$?
	SRV_PID=
	return $rc
}
stop_server_quiet() { [ -z "$SRV_PID" ] || { kill -KILL "$SRV_PID" 2>/dev/null; wait "$SRV_PID" 2>/dev/null; }; }
trap 'stop_server_quiet; cleanup_tmp' EXIT

# make_doc OUT path=json-value...: schema/examples/run-ok.json with fields set
# (path: dot-separated keys/indexes; value: JSON, or a plain string), then sealed.
make_doc() {
	local out=$1
	shift
	"$PY" - "$PWD/schema/examples/run-ok.json" "$@" >"$out.raw" <<'PYEOF' || return 1
import json, sys
doc = json.load(open(sys.argv[1]))
for arg in sys.argv[2:]:
    path, _, val = arg.partition("=")
    try:
        v = json.loads(val)
    except ValueError:
        v = val
    keys = path.split(".")
    o = doc
    for k in keys[:-1]:
        o = o[int(k)] if isinstance(o, list) else o[k]
    last = keys[-1]
    if val == "DELETE":
        o.pop(int(last) if isinstance(o, list) else last)
    elif isinstance(o, list):
        o[int(last)] = v
    else:
        o[last] = v
print(json.dumps(doc))
PYEOF
	# Invalid documents cannot be sealed: keep them as written.
	"$SERVER" seal "$out.raw" >"$out" 2>/dev/null || cp "$out.raw" "$out"
}

# post DOC TOKEN: prints the HTTP status, body in $TMP_T/post.out
post() {
	curl -sk -o "$TMP_T/post.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $2" \
		-H 'Content-Type: application/json' --data-binary "@$1" "$URL/api/v1/runs"
}
# code URL [curl args]: prints the HTTP status, body in $TMP_T/body
code() {
	local u=$1
	shift
	curl -sk -o "$TMP_T/body" -D "$TMP_T/headers" -w '%{http_code}' "$@" "$URL$u"
}
# jget FILE python-expression-on-d
jget() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# import_series DB DIR GEN-SERIES-ARGS...: documents from tests/lib/gen-series.py
# (series, accel, boots, specs) into DIR, sealed, imported into DB; the import's status.
import_series() {
	local db=$1 dir=$2
	shift 2
	gen_sealed "$dir" "$@" && "$SERVER" import --db "$db" -q "$dir"/*.sealed
}
# step_specs N AT: gen-series.py specs of a base and N commits in a line, the
# ones from position AT on 10% slower (one real step).
step_specs() {
	local i f prev=base specs="base:0:-:1:1"
	for i in $(seq 1 "$1"); do
		f=1
		[ "$i" -ge "$2" ] && f=1.1
		specs="$specs p$i:$i:$prev:$f:1"
		prev=p$i
	done
	echo "$specs"
}
# gen_sealed DIR GEN-SERIES-ARGS...: tests/lib/gen-series.py documents into DIR, sealed as DIR/*.sealed.
gen_sealed() {
	local dir=$1 f
	shift
	mkdir -p "$dir"
	"$PY" tests/lib/gen-series.py "$dir" "$@" >/dev/null || return 1
	for f in "$dir"/*.json; do "$SERVER" seal "$f" >"$f.sealed" || return 1; done
}
# strict_json FILE: 0 when FILE is strictly valid UTF-8 (no lone surrogates,
# also not as \u escapes) holding one JSON value; else says why on stderr.
strict_json() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8", "strict")
    json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8", "strict")
except (UnicodeError, ValueError) as e:
    sys.exit(f"{sys.argv[1]}: {e}")
PYEOF
}
# strict_utf8 FILE: 0 when FILE is strictly valid UTF-8.
strict_utf8() { "$PY" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8", "strict")' "$1" 2>/dev/null; }
# seal_series DIR NAME SPEC...: tests/lib/gen-series.py documents (tcg, 5 boots a
# commit) of series NAME, sealed as DIR/*.sealed.
seal_series() {
	local dir=$1 name=$2
	shift 2
	gen_sealed "$dir" "$name" tcg 5 "$@"
}

# split_series DIR NAME SAMPLES-OF-BASE SAMPLES-OF-HEAD: a two-commit series
# (tests/lib/gen-named.py) whose split_ms samples are the JSON arrays given,
# no counters, sealed into DIR/NAME-0.sealed and DIR/NAME-1.sealed.
split_series() {
	local dir=$1 name=$2 pos
	"$PY" tests/lib/gen-named.py "$dir" "$name" "{\"series.name\": \"$name\"}" || bail "gen $name"
	for pos in 0 1; do
		"$PY" -c 'import json, sys; f = sys.argv[1]; d = json.load(open(f)); d["results"][0]["samples"] = json.loads(sys.argv[2])
d["results"][0].pop("counters", None); json.dump(d, open(f, "w"))' "$dir/$name-$pos.json" "$([ $pos = 0 ] && echo "$3" || echo "$4")"
		"$SERVER" seal "$dir/$name-$pos.json" >"$dir/$name-$pos.sealed" || bail "seal $name"
	done
}
