#!/bin/bash
# The server survives hostile clients: bad methods, huge headers, invalid
# percent-encoding, slow clients (a byte a second), clients that hang up in the
# middle of a body, and 1,000 idle connections from distinct 127.1.x.y
# addresses, while a normal client keeps getting 200s. Afterwards the server is
# still up, its RSS grew by a bounded amount, and it stops cleanly.
. tests/lib/tap.sh
. tests/lib/server.sh

IDLE=${IDLE_CONNECTIONS:-1000}
# Each idle connection costs a descriptor in this shell's children and in the server.
ulimit -n 4096 2>/dev/null || { IDLE=200; diag "ulimit -n 4096 not permitted: $IDLE idle connections"; }
RAW="perl tests/lib/rawhttp.pl"
DB=$TMP_T/fw.db
TOK=$("$SERVER" token add ci --db "$DB")
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail "import"
# Room for the idle crowd plus the normal client; the default (256) would be
# exhausted by them until --timeout reaps the idle ones.
start_server "$DB" --max-connections $((IDLE + 200)) --timeout 20 || bail "server did not start"
rss() { awk '/^VmRSS/ {print $2}' "/proc/$SRV_PID/status"; }
for i in 1 2 3 4 5; do code /api/v1/series/example >/dev/null; code /series/example >/dev/null; done
RSS0=$(rss)

# The normal client: one request every 0.2 s until told to stop (at most 60 s).
(
	end=$((SECONDS + 60))
	while [ ! -e "$TMP_T/stop" ] && [ $SECONDS -lt $end ]; do
		curl -s -m 15 -o /dev/null -w '%{http_code}\n' "$URL/api/v1/series/example" >>"$TMP_T/normal"
		sleep 0.2
	done
) &
NORMAL=$!

# Slow clients run in the background during everything else.
SLOW=
for i in 1 2 3; do $RAW slow "$PORT" 5 >"$TMP_T/slow.$i" 2>&1 & SLOW="$SLOW $!"; done

# Bad methods and broken request lines: an error status or a hang-up, never a 2xx.
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
bad=0
for req in 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n' 'GET\r\n\r\n' 'GET / HTTP/9.9\r\nHost: x\r\n\r\n' \
	'DELETE /api/v1/runs HTTP/1.1\r\nHost: x\r\n\r\n' 'PUT /series/example HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc' \
	'\x00\x01\x02\xff\xfe HTTP/1.1\r\n\r\n' 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n' \
	'GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' \
	'GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n' 'GET /healthz HTTP/1.1\r\nBad Header\r\n\r\n'; do
	got=$($RAW send "$PORT" "$(printf '%b' "$req" | od -An -v -tx1 | tr -d ' \n')")
	case "$got" in HTTP/1.?\ 2*) bad=$((bad + 1)); diag "2xx for $req: $got" ;; esac
	echo "$got" >>"$TMP_T/badmethods"
done
is "$bad" 0 'bad methods and broken request lines never get a 2xx'
like "$(grep -c '^HTTP/1.1 4' "$TMP_T/badmethods")" '^([5-9]|10)$' 'most get a 4xx status line'
like "$($RAW send "$PORT" "$(hex 'BREW /healthz HTTP/1.1
Host: x

')")" '^HTTP/1.1 (405|501)' 'unknown method on a known path: 405 or 501'

# Huge headers: refused (431/413/400 or hang-up), not buffered without limit.
like "$($RAW bigheader "$PORT" 200)" '^(HTTP/1.1 4[0-9][0-9]|closed)' '200 KiB header line refused'
like "$($RAW manyheaders "$PORT" 3000)" '^(HTTP/1.1 4[0-9][0-9]|closed)' '3,000 headers (300 KiB) refused'

# Invalid percent-encoding: 400 with a JSON error naming the field.
for u in '/api/v1/series/%zz' '/api/v1/series/%' '/api/v1/series/%4' '/api/v1/series/a%00b' \
	'/series/%GG' '/plot/%/a/b/c/small.svg' '/api/v1/trend?series=%zz&metric=m' '/api/v1/compare?a=%&b=%00'; do
	c=$(code "$u")
	like "$c" '^4[0-9][0-9]$' "invalid escapes in $u: $c"
done
is "$(code '/api/v1/series/%zz')" 400 'bad escape in an API path: 400'
like "$(cat "$TMP_T/body")" '"code":"bad_path"' '... with a JSON error code'

# Clients that hang up in the middle of a body.
like "$($RAW midbody "$PORT" 50 "$TOK")" '^sent 50$' '50 POSTs cut off mid-body'
# ... are reaped at once, not held until --timeout: each would hold a per-IP
# slot (libmicrohttpd's epoll mode left about half of them in CLOSE-WAIT).
open_conns() { curl -s -m 5 "$URL/metrics" | awk '/^foliowatch_connections_open / {print $2}'; }
for i in $(seq 1 20); do n=$(open_conns); [ "${n:-99}" -le 8 ] && break; sleep 0.2; done
ok $([ "${n:-99}" -le 8 ] && echo 0 || echo 1) "hung-up clients reaped within 4 s: $n connections open (slow and normal clients, /metrics)"

# The idle crowd, held for 5 s while the normal client keeps asking.
$RAW idle "$PORT" "$IDLE" 5 >"$TMP_T/idle" 2>&1 &
IDLEP=$!
for i in $(seq 1 50); do [ -s "$TMP_T/idle" ] && break; sleep 0.2; done
is "$(cat "$TMP_T/idle")" "connected $IDLE" "$IDLE idle connections from distinct 127.1.x.y addresses"
during=$(curl -s -m 15 -o /dev/null -w '%{http_code}' "$URL/api/v1/series/example")
is "$during" 200 'a normal request is answered while they are held'
IDLERSS=$(rss)
wait "$IDLEP"
wait $SLOW
touch "$TMP_T/stop"
wait "$NORMAL" 2>/dev/null

for i in 1 2 3; do is "$(cat "$TMP_T/slow.$i")" 'HTTP/1.1 200 OK' "slow client $i (a byte a second) answered"; done
n=$(wc -l <"$TMP_T/normal")
good=$(grep -c '^200$' "$TMP_T/normal")
diag "normal client: $good of $n requests answered 200 ($(sort "$TMP_T/normal" | uniq -c | tr '\n' ' '))"
ok $([ "$n" -ge 20 ] && [ "$good" = "$n" ] && echo 0 || echo 1) 'the normal client got a 200 every time'
ok $(kill -0 "$SRV_PID" 2>/dev/null && echo 0 || echo 1) 'server still running'
is "$(code /healthz -m 15)" 200 '/healthz still 200'
RSS1=$(rss)
diag "VmRSS: ${RSS0} kB before, ${IDLERSS} kB with $IDLE idle connections, ${RSS1} kB after"
# Bounded: the crowd may cost memory while connected, but not a lasting pile.
LIMIT=$((32 * 1024))
case "$BUILD" in */asan) LIMIT=$((96 * 1024)) ;; esac  # ASan's quarantine holds freed memory
ok $([ $((RSS1 - RSS0)) -lt $LIMIT ] && echo 0 || echo 1) "RSS grew by $((RSS1 - RSS0)) kB (< $LIMIT kB)"
ok $([ $((IDLERSS - RSS0)) -lt $((LIMIT * 2)) ] && echo 0 || echo 1) "RSS with the idle crowd: +$((IDLERSS - RSS0)) kB"
stop_server
is $? 0 'server stops cleanly (exit 0)'
done_testing
