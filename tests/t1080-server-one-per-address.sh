#!/bin/bash
# One server per address (issue 20). A second `serve` on an address where one
# listens exits 1 at once, naming the address and the process holding it, and
# touches nothing; the first keeps serving its own DB (with SO_REUSEPORT the
# kernel gave the second half the connections: 401s, POSTs in the wrong DB).
# A restart on the same address right after a clean stop or a kill -9 starts
# although the old server's connections still hold the port (SO_REUSEADDR).
. tests/lib/tap.sh
. tests/lib/server.sh

DB1=$TMP_T/one.db
DB2=$TMP_T/two.db
TOK1=$("$SERVER" token add ci --db "$DB1")
"$SERVER" token add ci --db "$DB2" >/dev/null
N=12
for i in $(seq 1 $N); do
	sha=$(printf 'dd%038d' "$i")
	make_doc "$TMP_T/d$i.json" "commit.sha=$sha" "commit.key=$sha" "commit.position=$i" || bail "make_doc"
done
SECOND=
trap '[ -z "$SECOND" ] || kill -KILL "$SECOND" 2>/dev/null; stop_server_quiet; cleanup_tmp' EXIT

start_server "$DB1" || bail "first server did not start"
FIRST=$SRV_PID

# second ADDR: a second server (other DB, other cache) on ADDR. Sets RC (exit
# status, or "running" when it still runs after 5 s) and OUT (its output).
second() {
	local i
	"$SERVER" serve --db "$DB2" --listen "$1" --static "$PWD/static" --cache-dir "$TMP_T/cache2" \
		>"$TMP_T/second.log" 2>&1 &
	SECOND=$!
	for i in $(seq 1 50); do
		kill -0 "$SECOND" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$SECOND" 2>/dev/null; then
		RC=running
	else
		wait "$SECOND"
		RC=$?
		SECOND=
	fi
	OUT=$(cat "$TMP_T/second.log")
}

second "127.0.0.1:$PORT"
is "$RC" 1 "second server on 127.0.0.1:$PORT exits 1 at start"
like "$OUT" "^serve: cannot listen on 127\.0\.0\.1:$PORT: address already in use" '... naming the address'
like "$OUT" "another process is listening there \(pid $FIRST, foliowatch-serv" '... and the server holding it'
ok "$([ ! -e "$TMP_T/cache2" ] && echo 0 || echo 1)" '... before touching anything (no cache folder made)'

# While a second server would run, every connection must still reach the first.
codes=
for i in $(seq 1 $N); do
	codes="$codes $(post "$TMP_T/d$i.json" "$TOK1")"
done
is "$(echo $codes | tr ' ' '\n' | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" "201x$N " \
	"the first server answers all $N POSTs with its token"
is "$(sqlite3 "$DB1" 'SELECT count(*) FROM runs')" "$N" '... and stores them in its DB'
is "$(sqlite3 "$DB2" 'SELECT count(*) FROM runs')" 0 '... none in the second DB'
[ -z "$SECOND" ] || { kill -TERM "$SECOND"; wait "$SECOND"; SECOND=; }

second "0.0.0.0:$PORT"
is "$RC" 1 "second server on 0.0.0.0:$PORT (wildcard over the first's address) exits 1"
like "$OUT" "cannot listen on 0\.0\.0\.0:$PORT: address already in use: another process is listening there \(pid $FIRST," \
	'... naming the address and the pid'
[ -z "$SECOND" ] || { kill -TERM "$SECOND"; wait "$SECOND"; SECOND=; }
is "$(code /healthz)" 200 'the first server still serves'
ok "$(kill -0 "$FIRST" 2>/dev/null && echo 0 || echo 1)" '... and still runs'

# Restarts. The old server's connections still hold the port: TIME-WAIT ones
# (Connection: close makes the server close first) and, for an idle client
# connection left open across the stop, one in FIN-WAIT-2. Unless the old
# socket and the new one both have SO_REUSEADDR, the bind fails on either.
port_sockets() {  # states of the sockets on local port $PORT but the listener, from /proc/net/tcp
	awk -v p="$(printf ':%04X' "$PORT")" 'BEGIN { n["01"] = "ESTABLISHED"; n["04"] = "FIN-WAIT-1";
		n["05"] = "FIN-WAIT-2"; n["06"] = "TIME-WAIT"; n["08"] = "CLOSE-WAIT"; n["09"] = "LAST-ACK" }
		substr($2, 9) == p && $4 != "0A" { c[$4 in n ? n[$4] : $4]++ }
		END { for (s in c) printf "%s %d ", s, c[s] }' /proc/net/tcp
}
for i in 1 2 3; do
	curl -s -o /dev/null -H 'Connection: close' "$URL/healthz"
done
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
stop_server
is $? 0 'first server stops cleanly (SIGTERM)'
diag "sockets on port $PORT after the stop: $(port_sockets)"
start_server_at "$PORT" "$DB1"
is $? 0 'a server restarted on the same address right after a clean stop starts'
is "$(code /api/v1/series)" 200 '... and serves'
like "$(cat "$TMP_T/body")" '"name":"example"' '... from the same DB'
exec 3>&-
stop_server
is $? 0 '... and stops cleanly'

# kill -9 on a port of its own, so that it does not depend on the restart above.
start_server "$DB1" || bail "server did not start"
for i in 1 2 3; do
	curl -s -o /dev/null -H 'Connection: close' "$URL/healthz"
done
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
{ kill -KILL "$SRV_PID"; wait "$SRV_PID"; } 2>/dev/null
SRV_PID=
diag "sockets on port $PORT after kill -9: $(port_sockets)"
start_server_at "$PORT" "$DB1"
is $? 0 'a server restarted on the same address right after kill -9 starts'
is "$(code /healthz)" 200 '... and serves'
exec 3>&-
is "$(sqlite3 "$DB1" 'PRAGMA integrity_check')" ok 'DB intact'
stop_server
is $? 0 'restarted server stops cleanly'
done_testing
