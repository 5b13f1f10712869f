#!/bin/bash
# report --format email: a reply threaded under the series' cover letter
# (Message-IDs from a real `git format-patch --thread --cover-letter` mbox),
# read back by Python's email parser and by git mailinfo; an mbox without
# Message-IDs still gives a message, without threading headers and saying
# why; hostile names and subjects cannot add a header; --mbox; --send through
# a fake sendmail (argv and stdin checked), nothing sent without --send.
. tests/lib/tap.sh
[ -x /usr/bin/python3 ] || skip_all "no python3 to generate documents"
export GIT_AUTHOR_NAME='Jöhn <b>Dœ</b>' GIT_AUTHOR_EMAIL=dev@example.org
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
DB="$TMP_T/db.sqlite"
R=$TMP_T/repo
CHECK="/usr/bin/python3 tests/lib/check-mail.py"

load() { # load SERIES MAILJSON SPEC...: generate with mail fields, seal, import
	local dir="$TMP_T/docs-$1" s=$1 mail=$2
	shift 2
	mkdir -p "$dir"
	FW_GEN_MAIL=$mail /usr/bin/python3 tests/lib/gen-series.py "$dir" "$s" tcg 5 "$@" || return 1
	for f in "$dir"/*.json; do
		"$SERVER" seal "$f" > "$f.sealed" || return 1
	done
	"$SERVER" import --db "$DB" -q "$dir"/*.sealed
}

git init -q "$R" && (cd "$R" && printf 'int a;\n' > mm.c && git add mm.c && git commit -qm base &&
	for i in 1 2; do printf 'int p%d;\n' $i >> mm.c; git commit -qam "mm: patch $i"; done &&
	git format-patch -q --thread --cover-letter --to 'Andrew Morton <akpm@example.org>' \
		--cc linux-mm@kvack.org -o "$TMP_T/thread" HEAD~2 &&
	sed -i 's/\*\*\* SUBJECT HERE \*\*\*/mm: split <i>faster<\/i> ünïcode/' "$TMP_T"/thread/0000-* &&
	git format-patch -q -o "$TMP_T/plain" HEAD~2) || bail "git format-patch"
cat "$TMP_T"/thread/*.patch > "$TMP_T/thread.mbox"
cat "$TMP_T"/plain/*.patch > "$TMP_T/plain.mbox"
cover_id=$(sed -n 's/^Message-I[dD]: //p' "$TMP_T"/thread/0000-*)
like "$cover_id" "^<cover\..*@example.org>$" "format-patch --thread wrote a cover letter Message-ID"

# The collector's C reader and Python's mailbox agree on the mbox's headers.
/usr/bin/python3 tests/lib/mbox-mail.py "$TMP_T/thread.mbox" c1 c2 > "$TMP_T/thread.json"
ok $? "python reads the threaded mbox"
out=$($COLLECT series --tree "$R" --base HEAD~2 --mbox "$TMP_T/thread.mbox" --worktree "$TMP_T/wt" --mail); rc=$?
is "$rc" 0 "series --mail applies the mbox (cover letter skipped)"
is "$(printf '%s\n' "$out" | grep -c '^[0-9]')" 3 "base plus two patches, no commit for the cover"
/usr/bin/python3 - "$TMP_T/thread.json" <<PYEOF
import json, sys
want = json.load(open(sys.argv[1]))
got = """$out""".split("\n")
cover = [l.split("\t") for l in got if l.startswith("cover\t")]
mails = [l.split("\t") for l in got if l.startswith("mail\t")]
assert cover == [["cover", want["cover"]["message_id"], want["cover"]["subject"]]], (cover, want["cover"])
for (tag, pos, mid, frm, to, cc, subj), name in zip(mails, ("c1", "c2")):
    w = want["patches"][name]
    assert (mid, frm, to, cc, subj) == (w["message_id"], w["from"], w["to"], w["cc"], w["subject"]), (mails, w)
assert len(mails) == 2
PYEOF
ok $? "Message-ID, From (RFC 2047 decoded), To, Cc, Subject as Python's email reads them"

load s1 "$TMP_T/thread.json" base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1.1:1.1:2
ok $? "documents with series.cover and commit.mail sealed and imported"
"$SERVER" report --db "$DB" --series s1 --format email --cc 'linux-mm@kvack.org, "Doe, Jane" <jane@example.org>' \
	--base-url https://fw.example.org/ > "$TMP_T/s1.eml"
ok $? "report --format email"
# git format-patch drops '<' and '>' from a name: the name as posted
author_name=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["patches"]["c1"]["from"].rsplit(" <", 1)[0])' "$TMP_T/thread.json")
subj=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cover"]["subject"])' "$TMP_T/thread.json")
$CHECK "$TMP_T/s1.eml" "$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({
	"in_reply_to": sys.argv[1], "subject": "Re: " + sys.argv[2], "to": ["dev@example.org"],
	"to_names": [sys.argv[3]], "cc": ["linux-mm@kvack.org", "jane@example.org"],
	"body": [r"^\[2/2\] mm: commit c2 \(c2c2c2c2c2c2\)$", r"^  split/pmd-to-0 +Before +After +delta %stddev verdict$",
		 r"^  split_ms +ms +[0-9.]+ +[0-9.]+ +\+1\d\.\d\d% +[0-9.]+% worse$",
		 r"thp_split_page 256 -> 512", r"^  foliowatch-collect run --series s1 ",
		 r"--base b{40}", r"^Environment \(host runner-1\):", r"kernel 6\.12\.117",
		 r"^  https://fw\.example\.org/series/s1\?revision=1$", r"b4 am -n series .<cover\."]}))' "$cover_id" "$subj" "$author_name")"
ok $? "Python's email parser: In-Reply-To/References = the cover's Message-ID, Re: subject, To/Cc, body"
# Lines under 79 columns without cutting a word: every fact the mail prints is there whole
# (lines joined), and one vCPU is "1 vCPU".
"$SERVER" report --db "$DB" --series s1 --format json >"$TMP_T/s1.json"
is "$(/usr/bin/python3 - "$TMP_T/s1.eml" "$TMP_T/s1.json" <<'PY'
import email, json, re, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
body = msg.get_payload(decode=True).decode()
rep = json.load(open(sys.argv[2]))
bad = [l for l in body.splitlines() if len(l) > 78]
flat = re.sub(r"\s+", " ", body)
want = {r["subject"] for r in rep["rows"]} | {"tcg, 2 vCPUs, 2048 MiB guest"}
missing = [w for w in want if w not in flat]
print("%d long, missing %s, 1 vCPUs %d" % (len(bad), missing, len(re.findall(r"\b1 vCPUs", body))))
PY
)" "0 long, missing [], 1 vCPUs 0" 'every body line <= 78 columns, every subject and fact whole (wrapped, not cut), no "1 vCPUs"'


mkdir -p "$TMP_T/mi"
git mailinfo "$TMP_T/mi/msg" "$TMP_T/mi/patch" < "$TMP_T/s1.eml" > "$TMP_T/mi/info"
ok $? "git mailinfo reads it"
like "$(cat "$TMP_T/mi/info")" "Subject: mm: split <i>faster</i> ünïcode" "git mailinfo: the subject decoded, prefixes stripped"
like "$(cat "$TMP_T/mi/info")" "Email: foliowatch@localhost" "git mailinfo: the sender"
like "$(cat "$TMP_T/mi/msg")" "foliowatch-collect run" "git mailinfo: the body"

# An mbox without Message-IDs: no threading headers, and the body says why.
/usr/bin/python3 tests/lib/mbox-mail.py "$TMP_T/plain.mbox" c1 c2 > "$TMP_T/plain.json"
ok "$(grep -c message_id "$TMP_T/plain.json" | grep -qx 0; echo $?)" "plain format-patch mbox has no Message-IDs"
load s2 "$TMP_T/plain.json" base:0:-:1:1 c1:1:base:1:1 c2:2:c1:1:1
"$SERVER" report --db "$DB" --series s2 --format email > "$TMP_T/s2.eml"
ok $? "report --format email without Message-IDs"
$CHECK "$TMP_T/s2.eml" '{"in_reply_to": null, "subject": "Re: [PATCH 1/2] mm: patch 1", "to": ["dev@example.org"],
	"body": ["has no Message-ID headers", "no In-Reply-To or References"]}'
ok $? "no In-Reply-To/References, a note in the body"

# Hostile text: a subject or name with CR/LF never gets stored, and options cannot add a header.
printf '{"cover": {"message_id": "<x@y>", "subject": "[PATCH 0/1] a\\r\\nBcc: evil@example.org"}}' > "$TMP_T/evil.json"
out=$(load s3 "$TMP_T/evil.json" base:0:-:1:1 c1:1:base:1:1 2>&1)
like "$out" "series\.cover\.subject.*control characters" "a cover subject with CR/LF is refused, naming the field"
printf '{"patches": {"c1": {"from": "x <a@b.org>", "message_id": "<a@b>\\nBcc: <e@f>"}}}' > "$TMP_T/evil2.json"
out=$(load s3 "$TMP_T/evil2.json" base:0:-:1:1 c1:1:base:1:1 2>&1)
like "$out" "commit\.mail\.message_id" "a Message-ID with a newline is refused, naming the field"
out=$("$SERVER" report --db "$DB" --series s1 --format email --to $'a@example.org\r\nBcc: evil@example.org' 2>&1); rc=$?
is "$rc" 1 "--to with CR/LF: an error"
like "$out" "--to: not an address" "the error names --to"
"$SERVER" report --db "$DB" --series s1 --format email \
	--to $'"Evil\r\nBcc: evil@example.org" <a@example.org>, Ünï <u@example.org>' \
	--from $'x\nX-Injected: 1 <fw@example.org>' > "$TMP_T/evil.eml"
ok $? "display names with CR/LF and non-ASCII are written"
$CHECK "$TMP_T/evil.eml" "$(/usr/bin/python3 -c 'import json,sys; print(json.dumps({
	"in_reply_to": sys.argv[1], "subject": "Re: " + sys.argv[2], "to": ["a@example.org", "u@example.org"],
	"to_names": ["Ünï"], "no_headers": ["Bcc", "X-Injected"]}))' "$cover_id" "$subj")"
ok $? "no header added by a name; non-ASCII names as encoded-words"

# --mbox: a From_ line, and Python's mailbox reads one message with the same Message-ID.
"$SERVER" report --db "$DB" --series s1 --format email --mbox > "$TMP_T/s1.mbox"
like "$(head -1 "$TMP_T/s1.mbox")" "^From foliowatch@localhost " "--mbox starts with a From_ line"
/usr/bin/python3 - "$TMP_T/s1.mbox" "$cover_id" <<'PYEOF'
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
assert len(msgs) == 1 and msgs[0]["In-Reply-To"] == sys.argv[2], [m["In-Reply-To"] for m in msgs]
PYEOF
ok $? "--mbox: one message, threaded"

# --send: argv only, the message on stdin; without --send nothing runs.
cat > "$TMP_T/fake-sendmail" <<FAKE
#!/bin/sh
printf '%s\n' "\$@" > "$TMP_T/sent.argv"
cat > "$TMP_T/sent.eml"
FAKE
chmod +x "$TMP_T/fake-sendmail"
"$SERVER" report --db "$DB" --series s1 --format email --sendmail "$TMP_T/fake-sendmail" > /dev/null
ok "$([ ! -e "$TMP_T/sent.eml" ]; echo $?)" "without --send nothing is sent"
"$SERVER" report --db "$DB" --series s1 --format email --send --sendmail "$TMP_T/fake-sendmail" > "$TMP_T/out.eml"
ok $? "--send with a fake sendmail"
is "$(tr '\n' ' ' < "$TMP_T/sent.argv")" "-t -oi " "sendmail got -t -oi and nothing else"
is "$(grep -c '^Message-ID: ' "$TMP_T/sent.eml")" 1 "sendmail got the message"
is "$(sed -n 's/^In-Reply-To: //p' "$TMP_T/sent.eml")" "$cover_id" "the sent message is threaded"
out=$("$SERVER" report --db "$DB" --series s1 --format email --send --sendmail /bin/false 2>&1); rc=$?
is "$rc" 1 "a failing sendmail fails report"
like "$out" "--send: /bin/false -t -oi failed" "and says so"
out=$("$SERVER" report --db "$DB" --series s1 --to a@example.org 2>&1); rc=$?
is "$rc" 2 "--to without --format email is a usage error"
out=$("$SERVER" report --db "$DB" --series s1 --format email --base-url 'javascript:alert(1)' 2>&1); rc=$?
like "$rc:$out" "^1:.*--base-url" "--base-url must be http(s)"
done_testing
