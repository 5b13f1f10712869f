#!/bin/bash
# HTTP benchmark, all figures from one run on one machine (compare ratios):
#   (a) libmicrohttpd hello-world (tests/bench/hello.c), the baseline
#   (b) GET /api/v1/series/{name}   target >= 50% of (a)
#   (e) the same, ?metrics=split (one workload of four, all commits: what a
#       CI script asks for)        target >= 50% of (a), plain
#   (c) the series page              target >= 25% of (a)
#   (d) a cached plot                target >= 50% of (a)
#   (f) the pages dashboard v2 added or changed (issues 13, 19), with gzip as
#       browsers ask, against (a) and against the series page (c) gzip: the
#       matrix against the base, compare (first vs last, and across revisions),
#       the regressions page unfiltered and filtered, the kernel profile page
#                                    target >= 25% of (a), as the series page
# each plain and with Accept-Encoding: gzip (served from the response cache's gzip copy),
# on a DB of 50 series x 20 commits x 40 metrics x 12 samples; wrk -t2 -c64 -d10s,
# p99 printed. Big answers are bound by loopback copying, not by the server, so
# each plain figure is also given against (a) serving a body of the same size
# (the ceiling for that size here); the server's peak RSS (VmHWM) over it (target < 64 MiB). Then a
# 1,000-point trend plot: first render vs cached (target cached >= 100x faster).
set -eu
BUILD=${BUILD:-build}
D=${DURATION:-10}
T=$(mktemp -d "${TMPDIR:-/tmp}/fwbench.XXXXXX")
HP= SP= HP2=
trap '[ -z "$HP2" ] || kill $HP2 2>/dev/null; [ -z "$HP" ] || kill $HP; [ -z "$SP" ] || kill $SP; wait 2>/dev/null; rm -rf "$T"' EXIT
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cc -O2 -o "$T/hello" tests/bench/hello.c $(pkg-config --cflags --libs libmicrohttpd) -lpthread
echo "generating the DB (50 series x 20 commits x 40 metrics x 12 samples, + a 1,000-point plot series)"
"$BUILD/bench/fwload" gen "$T/fw.db" 50 20 40 12 s
"$BUILD/bench/fwload" gen "$T/fw.db" 1 100 1 10 plot
# (f) needs regressions, a second revision and kernel profiles: the browser test's
# two-environment series (tests/lib/gen-series.py), as v1 and v2, is imported too.
for env in icount@vm tcg@vm; do
	mkdir -p "$T/docs/${env%@*}"
	[ "${env%@*}" = icount ] && export FW_GEN_PROFILE='c2=__split_huge_page*1.5' || unset FW_GEN_PROFILE
	/usr/bin/python3 tests/lib/gen-series.py "$T/docs/${env%@*}" demo "$env" 5 base:0:-:1:1 c1:1:base:1:1 \
		c2:2:c1:1.1:0.97:2 c3:3:c2:1.1:1.0 >/dev/null
done
for f in "$T"/docs/*/*.json; do
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["series"]["revision"] = 2
json.dump(d, open(sys.argv[2], "w"))' "$f" "${f%.json}.v2.json"
done
for f in "$T"/docs/*/*.json; do "$BUILD/foliowatch-server" seal "$f" >"$f.sealed"; done
"$BUILD/foliowatch-server" import -q --db "$T/fw.db" "$T"/docs/*/*.sealed
"$BUILD/foliowatch-server" regressions --db "$T/fw.db" >/dev/null
HPORT=$(free_port); PORT=$(free_port)
"$T/hello" "$HPORT" & HP=$!
start() {
	local i
	"$BUILD/foliowatch-server" serve --db "$T/fw.db" --listen "127.0.0.1:$PORT" --per-ip-limit 0 \
		--cache-dir "$T/cache" >>"$T/serve.log" 2>&1 & SP=$!
	for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return 0; sleep 0.05; done
	return 1
}
stop() { kill "$SP"; wait "$SP" || true; SP=; }
start
PLOT=/plot/s07/split/v0/m0/small.svg
SIZES=
declare -A LEN
SEL=/api/v1/series/s07?metrics=split
for u in /api/v1/series/s07 /series/s07 $PLOT $SEL; do
	curl -s -o /dev/null "http://127.0.0.1:$PORT$u"  # the first answer fills the cache
	LEN[$u]=$(curl -s "http://127.0.0.1:$PORT$u" | wc -c)
	SIZES="$SIZES  body of $u: ${LEN[$u]} bytes, gzip $(curl -s -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT$u" | wc -c) bytes
"
done

# wrk URL [wrk args] -> "req/s p99 bytes/s"
bench() {
	local u=$1
	shift
	wrk --latency -t2 -c64 -d${D}s "$@" "$u" >"$T/wrk.out"
	awk '/Requests\/sec/ {r=$2} /Transfer\/sec/ {t=$2} $1=="99%" {p=$2} END {print r, p, t}' "$T/wrk.out"
}
read -r A AP AT <<<"$(bench "http://127.0.0.1:$HPORT/")"
# Ceilings: hello-world answering a body of each answer's size (req/s into $T/ceil;
# not in $(...), so that the EXIT trap sees HP2).
ceiling() {
	local p r
	p=$(free_port)
	"$T/hello" "$p" "$1" & HP2=$!
	for r in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$p/" && break; sleep 0.05; done
	bench "http://127.0.0.1:$p/" | awk '{print $1}' >"$T/ceil"
	kill "$HP2"; wait "$HP2" 2>/dev/null || true
	HP2=
}
ceiling "${LEN[/api/v1/series/s07]}"; AB=$(cat "$T/ceil")
ceiling "${LEN[/series/s07]}"; AC=$(cat "$T/ceil")
ceiling "${LEN[$PLOT]}"; AD=$(cat "$T/ceil")
ceiling "${LEN[$SEL]}"; AE=$(cat "$T/ceil")
read -r B BP BT <<<"$(bench "http://127.0.0.1:$PORT/api/v1/series/s07")"
read -r C CP CT <<<"$(bench "http://127.0.0.1:$PORT/series/s07")"
read -r DD DP DT <<<"$(bench "http://127.0.0.1:$PORT$PLOT")"
read -r E EP ET <<<"$(bench "http://127.0.0.1:$PORT$SEL")"
# The same with Accept-Encoding: gzip, as browsers and curl --compressed ask.
GZ='Accept-Encoding: gzip'
read -r BZ BZP BZT <<<"$(bench "http://127.0.0.1:$PORT/api/v1/series/s07" -H "$GZ")"
read -r CZ CZP CZT <<<"$(bench "http://127.0.0.1:$PORT/series/s07" -H "$GZ")"
read -r DZ DZP DZT <<<"$(bench "http://127.0.0.1:$PORT$PLOT" -H "$GZ")"
# (f): name|path, each served once first (the cache), then wrk with gzip.
V2PAGES=(
	"matrix vs base, s07|/series/s07?vs=base"
	"compare first..last, s07|/series/s07/compare"
	"compare v1 vs v2, demo|/series/demo/compare?revision=2&base_revision=1"
	"regressions, all|/regressions"
	"regressions, filtered|/regressions?series=demo&status=new&metric=split/pmd-to-0/split_ms"
	"profile, demo c2|/series/demo/profile?head=$(printf 'c2%.0s' $(seq 20))&workload=split"
)
HWM0=$(awk '/^VmHWM/ {print $2}' "/proc/$SP/status")  # before (f): the older pages alone
V2OUT=
for p in "${V2PAGES[@]}"; do
	u=${p#*|}
	st=$(curl -s -o "$T/page" -w '%{http_code}' "http://127.0.0.1:$PORT$u")
	[ "$st" = 200 ] || { echo "(f) $u: HTTP $st" >&2; exit 1; }
	sz="$(wc -c <"$T/page") B, gzip $(curl -s -H "$GZ" "http://127.0.0.1:$PORT$u" | wc -c) B"
	V2OUT="$V2OUT${p%%|*}|$(bench "http://127.0.0.1:$PORT$u" -H "$GZ" | tr ' ' '|')|$sz
"
done
HWM=$(awk '/^VmHWM/ {print $2}' "/proc/$SP/status")
stop
ratio() { awk -v x="$1" -v y="$2" 'BEGIN {printf "%.0f%%", 100 * x / y}'; }
verdict() { awk -v x="$1" -v y="$2" -v t="$3" 'BEGIN {print (100 * x / y >= t) ? "ok" : "MISSED"}'; }
printf '%-34s %10s %8s %9s %8s %s\n' "wrk -t2 -c64 -d${D}s" "req/s" "p99" "bytes/s" "of (a)" "target; of same-size hello"
printf '%-34s %10s %8s %9s %8s %s\n' "(a) hello-world" "$A" "$AP" "$AT" "100%" ""
printf '%-34s %10s %8s %9s %8s %s\n' "(b) GET /api/v1/series/s07" "$B" "$BP" "$BT" "$(ratio "$B" "$A")" ">= 50% $(verdict "$B" "$A" 50); $(ratio "$B" "$AB") of $AB req/s"
printf '%-34s %10s %8s %9s %8s %s\n' "(c) GET /series/s07 (page)" "$C" "$CP" "$CT" "$(ratio "$C" "$A")" ">= 25% $(verdict "$C" "$A" 25); $(ratio "$C" "$AC") of $AC req/s"
printf '%-34s %10s %8s %9s %8s %s\n' "(d) cached plot" "$DD" "$DP" "$DT" "$(ratio "$DD" "$A")" ">= 50% $(verdict "$DD" "$A" 50); $(ratio "$DD" "$AD") of $AD req/s"
printf '%-34s %10s %8s %9s %8s %s\n' "(e) GET ...s07?metrics=split" "$E" "$EP" "$ET" "$(ratio "$E" "$A")" ">= 50% $(verdict "$E" "$A" 50); $(ratio "$E" "$AE") of $AE req/s"
printf '%-34s %10s %8s %9s %8s %s\n' "(b) same, Accept-Encoding: gzip" "$BZ" "$BZP" "$BZT" "$(ratio "$BZ" "$A")" ">= 50% $(verdict "$BZ" "$A" 50)"
printf '%-34s %10s %8s %9s %8s %s\n' "(c) same, Accept-Encoding: gzip" "$CZ" "$CZP" "$CZT" "$(ratio "$CZ" "$A")" ">= 25% $(verdict "$CZ" "$A" 25)"
printf '%-34s %10s %8s %9s %8s %s\n' "(d) same, Accept-Encoding: gzip" "$DZ" "$DZP" "$DZT" "$(ratio "$DZ" "$A")" ">= 50% $(verdict "$DZ" "$A" 50)"
echo "$V2OUT" | grep . | while IFS='|' read -r n f fp ft sz; do
	printf '%-34s %10s %8s %9s %8s %s\n' "(f) $n" "$f" "$fp" "$ft" "$(ratio "$f" "$A")" \
		">= 25% $(verdict "$f" "$A" 25); $(ratio "$f" "$CZ") of (c) gzip; $sz"
done
echo "$SIZES"
echo "server peak RSS (VmHWM) over the HTTP benchmark: $((HWM / 1024)) MiB, $((HWM0 / 1024)) MiB before (f) (target < 64 MiB) $([ "$HWM" -lt 65536 ] && echo ok || echo MISSED)"

# 1,000-point trend: first render (fresh server, empty plot cache) vs cached.
P1K=/plot/plot00/split/v0/m0/big.svg
firsts=
for i in 1 2 3 4 5; do
	rm -rf "$T/cache"
	start
	firsts="$firsts $("$BUILD/bench/fwload" get "$PORT" "$P1K" 1 | awk '{print $3}')"
	[ "$i" = 5 ] || stop
done
CACHED=$("$BUILD/bench/fwload" get "$PORT" "$P1K" 2000 | awk '{print $3 / $2}')
stop
FIRST=$(echo "$firsts" | tr ' ' '\n' | grep . | sort -g | sed -n 3p)
awk -v f="$FIRST" -v c="$CACHED" 'BEGIN {
	printf "1,000-point plot: first render %.1f ms (median of 5), cached %.3f ms: %.0fx faster (target >= 100x) %s\n",
		f * 1000, c * 1000, f / c, (f / c >= 100) ? "ok" : "MISSED" }'
