#!/bin/bash
# Oversized requests get the server's own answer, with its security headers
# (Content-Type, CSP, nosniff): a 100 KB path or query (414) or header (431),
# and anything just under libmicrohttpd's per-connection pool (FW_CONN_POOL).
# At twice the pool libmicrohttpd answers itself (documented): the server
# stays up and the connection is closed. Counts too: 100, 1,000 and 10,000
# query parameters or header lines each get an answer (README "Request limits").
. tests/lib/tap.sh
. tests/lib/server.sh
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" schema/examples/run-ok.json || bail import
KIB=$(sed -n 's/^#define FW_CONN_POOL (\([0-9]*\) \* 1024).*/\1/p' server/http.h)
[ -n "$KIB" ] || bail "FW_CONN_POOL not found in server/http.h"
POOL=$((KIB * 1024))
start_server "$DB" || bail "server did not start"

big() { "$PY" tests/lib/bigreq.py "$PORT" "$1" "$2" >"$TMP_T/big.json"; }
field() { jget "$TMP_T/big.json" "$1"; }
for kind in path query header; do
	want=414
	[ $kind = header ] && want=431
	for size in 100000 $((POOL - 16 * 1024)); do
		big $kind $size
		is "$(field 'd["status"]')" $want "$kind of $size bytes: the server's $want"
		is "$(field 'd["content_type"] and d["csp"] and d["nosniff"]')" True '... with Content-Type, CSP and nosniff'
	done
	big $kind $((2 * POOL))
	is "$(field 'd["closed"]')" True "$kind of $((2 * POOL)) bytes (twice the pool): connection closed"
	is "$(code /healthz)" 200 '... and the server still answers'
done
# Count classes: every parameter or header line takes an entry in libmicrohttpd's
# pool; 10,000 parameters once filled it and the connection closed with no answer.
for kind in params headers; do
	want=414 ours="1000 10000" bare=100000
	# a header line costs ~64 bytes of pool beyond its text: 10,000 do not fit (README)
	[ $kind = headers ] && want=431 ours="1000 1500" bare="10000 100000"
	big $kind 100
	is "$(field 'd["status"]')" 200 "100 $kind: served"
	for n in $ours; do
		big $kind $n
		is "$(field 'd["status"]')" $want "$n $kind: the server's $want"
		is "$(field 'd["content_type"] and d["csp"] and d["nosniff"]')" True '... with Content-Type, CSP and nosniff'
		is "$(code /healthz)" 200 '... and the server still answers'
	done
	for n in $bare; do
		big $kind $n
		is "$(field 'd["status"]')" $want "$n $kind (past the pool): libmicrohttpd's bare $want, not silence"
		is "$(code /healthz)" 200 '... and the server still answers'
	done
done
is "$(code "/?$(seq -s "&" 1 256)")" 200 'a query of 256 parameters is still served'
is "$(code "/?$(seq -s "&" 1 257)")" 414 'one of 257 parameters is not'
is "$(code "/?x=$(head -c 8000 /dev/zero | tr '\0' a)")" 200 'a query of 8000 bytes is still served'
is "$(code /healthz -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)")" 200 'a header of 20000 bytes is still served'
stop_server
is $? 0 'server exits 0'
done_testing
