#!/bin/sh
# The CI regression gate against a remote foliowatch server: exits 1 when the
# series has new regressions (what `foliowatch-server regressions --fail-on new`
# does on the server's own DB), 2 when the server cannot be asked or has no
# such series.
# With FOLIOWATCH_REPORT_MD=FILE it first writes what moved, as Markdown
# (report.md), to FILE for a merge-request comment or an artifact; that
# never changes the gate's answer.
#   usage: gate.sh URL SERIES [CURL_OPTS...]
set -u
[ $# -ge 2 ] || { echo "usage: $0 URL SERIES" >&2; exit 2; }
url=$1 series=$2; shift 2
if [ -n "${FOLIOWATCH_REPORT_MD:-}" ]; then
	# the name as one path segment: every byte percent-encoded
	seg=$(printf '%s' "$series" | od -An -tx1 -v | tr -d ' \n' | sed 's/../%&/g')
	curl -sS --fail "$@" -o "$FOLIOWATCH_REPORT_MD" "$url/api/v1/series/$seg/report.md" ||
		echo "gate: no report written to $FOLIOWATCH_REPORT_MD" >&2
fi
errf=$(mktemp) || exit 2
body=$(curl -sS --fail-with-body -G "$@" --data-urlencode "series=$series" --data-urlencode "status=new" \
	"$url/api/v1/regressions" 2>"$errf")
rc=$?
err=$(cat "$errf"); rm -f "$errf"
# a mistyped series must not pass the gate: the server answers 404 for it
case $rc:$body in
22:*'"code":"not_found"'*) echo "gate: no such series '$series' on $url" >&2; exit 2 ;;
0:*) ;;
*) echo "gate: cannot query $url: $err $body" >&2; exit 2 ;;
esac
case $body in
*'"regressions"'*) ;;
*) echo "gate: unexpected answer from $url: $body" >&2; exit 2 ;;
esac
n=$(printf '%s' "$body" | grep -o '"id":' | wc -l)
if [ "$n" -gt 0 ]; then
	echo "gate: $n new regression(s) in series $series:"
	# one line each: workload/variant metric delta at commit (id); values the
	# server validated (names, hex, numbers), so a plain pattern finds them
	printf '%s\n' "$body" | tr '{' '\n' | grep '"id":' | while IFS= read -r r; do
		f() { printf '%s' "$r" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
		printf '  %s/%s %s %+.1f%% at %.12s (regression %s: %s/api/v1/regressions/%s)\n' \
			"$(f workload)" "$(f variant)" "$(f metric)" "$(f delta_pct)" "$(f sha)" "$(f id)" "$url" "$(f id)"
	done
	exit 1
fi
echo "gate: no new regressions in series $series"
