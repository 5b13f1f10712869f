#!/bin/bash
# HTTPS: a self-signed certificate made here with openssl, served through
# libmicrohttpd's GnuTLS support; plain HTTP to the TLS port fails.
. tests/lib/tap.sh
. tests/lib/server.sh

command -v openssl >/dev/null || skip_all "openssl not installed"
DB=$TMP_T/fw.db
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$TMP_T/key.pem" -out "$TMP_T/cert.pem" 2>/dev/null
ok $? 'self-signed certificate generated'
TOK=$("$SERVER" token add ci --db "$DB")
start_server "$DB" --tls-cert "$TMP_T/cert.pem" --tls-key "$TMP_T/key.pem" || bail "TLS server did not start"
like "$URL" '^https://' 'server URL is https'
is "$(curl -s --cacert "$TMP_T/cert.pem" -o "$TMP_T/body" -w '%{http_code}' "$URL/healthz")" 200 \
	'GET /healthz over HTTPS, certificate verified'
make_doc "$TMP_T/d.json"
is "$(curl -s --cacert "$TMP_T/cert.pem" -o "$TMP_T/body" -w '%{http_code}' -X POST \
	-H "Authorization: Bearer $TOK" --data-binary "@$TMP_T/d.json" "$URL/api/v1/runs")" 201 'POST over HTTPS: 201'
is "$(curl -s --cacert "$TMP_T/cert.pem" -o "$TMP_T/body" -w '%{http_code}' "$URL/series/example")" 200 'page over HTTPS'
c=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")
isnt_200=0; [ "$c" = 200 ] && isnt_200=1
ok $isnt_200 "plain HTTP to the TLS port is not served (got $c)"
c=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$URL/healthz")
ok $([ "$c" = 000 ] && echo 0 || echo 1) 'an unverified certificate is refused by curl'
stop_server
is $? 0 'server exits 0'
"$SERVER" serve --db "$DB" --tls-cert "$TMP_T/cert.pem" --listen 127.0.0.1:0 >/dev/null 2>&1
is $? 2 '--tls-cert without --tls-key: usage error'
done_testing
