#!/bin/sh
# Posts run documents to a foliowatch server with curl only, for CI systems
# that produce their own documents (see schema/run-document.md; seal them with
# `foliowatch-server seal`). Retries 5xx and connection errors with backoff,
# never 4xx. The token is read from a file and passed to curl in a header file,
# never on a command line.
# A refusal prints the server's own words ("rejected doc.json: HTTP 400
# bad_json: ..."); without a token it does not start (the server refuses
# every unauthenticated POST).
#   usage: post-results.sh URL TOKEN_FILE doc.json...
set -u
[ $# -ge 3 ] || { echo "usage: $0 URL TOKEN_FILE doc.json..." >&2; exit 2; }
url=$1 token_file=$2; shift 2
token=$(head -n1 "$token_file" 2>/dev/null) || token=
if [ -z "$token" ]; then
	echo "post-results: no token in '$token_file' (a token of the ingest scope: foliowatch-server token add NAME)" >&2
	exit 2
fi
hdr=$(mktemp) body=$(mktemp); trap 'rm -f "$hdr" "$body"' EXIT
printf 'Authorization: Bearer %s\n' "$token" > "$hdr"
status=0
for doc in "$@"; do
	wait=1 attempt=0
	while :; do
		code=$(curl -sS -o "$body" -w '%{http_code}' -X POST -H @"$hdr" \
			-H 'Content-Type: application/json' --data-binary @"$doc" "$url/api/v1/runs") || code=000
		case $code in
		201) echo "stored $doc"; break ;;
		200) echo "unchanged $doc"; break ;;
		4*)
			# the server's error: {"error": {"code": "...", "field": ..., "detail": "..."}}, on one line
			why=$(tr '\n' ' ' <"$body" | sed -n 's/.*"code": *"\([^"]*\)".*"detail": *"\([^"]*\)".*/\1: \2/p')
			echo "rejected $doc: HTTP $code ${why:-$(head -c 300 "$body")}" >&2; status=1; break ;;
		esac
		attempt=$((attempt + 1))
		if [ $attempt -gt 4 ]; then echo "failed $doc: HTTP $code after $attempt attempts" >&2; status=1; break; fi
		echo "retry $doc in ${wait}s (HTTP $code)" >&2; sleep $wait; wait=$((wait * 2))
	done
done
exit $status
