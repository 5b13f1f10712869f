#!/bin/bash
# The text people paste (issue 29): `report` (and report.txt, and run's
# end-of-run table) is the cover letter's layout on a fixed copy of the demo
# (tests/data/demo-series): every line at most 72 columns; per patch one
# table per workload/variant with metric, unit, Before, After, delta and a
# short verdict, the long form under each row; the kernel functions behind
# a decided change once per table, at most three; the series against its
# base; how it was measured with the collector command. p, q and counters
# only with --verbose.
. tests/lib/tap.sh
. tests/lib/server.sh

DB=$TMP_T/demo.db
"$SERVER" import -q --db "$DB" tests/data/demo-series/*.json || bail "import demo"
"$SERVER" report --db "$DB" --series demo >"$TMP_T/cover.txt"
is $? 0 'report exits 0'
R=$TMP_T/cover.txt
is "$("$PY" -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$R")" 72 \
	'the widest line is 72 columns (characters)'
like "$(head -1 "$R")" '^demo v1: 3 patches on e077d311390f, each against its parent$' 'first line: series, patches, base'
like "$(cat "$R")" '
\[1/3\] mm: let small-order large folios use the per-CPU LRU cache
    \(d04bc60962cc\)
' 'each patch is headed by its number, subject and sha'
like "$(cat "$R")" '
  mthp/16k                          Before      After    delta verdict
  lru_lock_per_fault   1/fault           1    0.03282  -96.72% better
    improvement at 2 boots, exact count, floor 1.23%
  cpu_s                s            0.6915      0.684   -1.08% better
    improvement at 2 boots, deterministic, floor 0.50%' \
	'a table per workload/variant: metric, unit, Before, After, delta, verdict, the long form under each row'
like "$(cat "$R")" '  bw_mib_s             MiB/s         282.7      282.6   -0.03% unsure
    unsure: MDE 1.8%, needs 5 boots' 'an unsure row says what it needs'
is "$(grep -c '^  why (kernel profile' "$R")" 4 'the kernel functions once per table with a decided change (lru, lazyfree; twice each: patch and whole series)'
is "$(grep -A1 '^  why (kernel profile' "$R" | head -2 | tr -d '\n' | grep -o ' -[0-9]*%' | wc -l)" 3 '... at most three functions'
like "$(cat "$R")" '
The whole series: 41bc237e80a3 against the base e077d311390f
' 'the whole series against its base'
like "$(cat "$R")" 'How it was measured:
  kernel 6.12.117 built with gcc' 'how it was measured: the kernel and compiler'
like "$(tr '\n' ' ' <"$R" | tr -s ' ')" '1 vCPU, 2048 MiB on host vm; profile quick, 2 rounds a boot, 9 boots in all, 2-3 a side\.' \
	'... the machine, rounds and boots a side (1 vCPU, not 1 vCPUs)'
like "$(cat "$R")" '  foliowatch-collect run --series demo --revision 1 \\' '... and the collector command'
is "$(grep -c 'Mann-Whitney\|harmonic mean\|folio_batch_move_lru_calls' "$R")" 0 'no p/q legend, harmonic means or counters (--verbose has them)'
"$SERVER" report --db "$DB" --series demo --verbose >"$TMP_T/long.txt"
like "$(cat "$TMP_T/long.txt")" 'Mann-Whitney' '--verbose: the long table'
like "$(cat "$TMP_T/long.txt")" 'folio_batch_move_lru_calls 81920 -> 2688.5' '... with the counters'

# The mail (issue 29): the same tables at 78 columns with a %stddev column; nothing cut mid-word.
"$SERVER" report --db "$DB" --series demo --format email >"$TMP_T/mail.eml" 2>"$TMP_T/mail.err"
is $? 0 'report --format email exits 0'
"$SERVER" report --db "$DB" --series demo --format json >"$TMP_T/demo.json"
is "$(/usr/bin/python3 - "$TMP_T/mail.eml" "$TMP_T/demo.json" <<'PY'
import email, json, re, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
body = msg.get_payload(decode=True).decode()
rep = json.load(open(sys.argv[2]))
flat = re.sub(r"\s+", " ", body)
whole = {r["subject"] for r in rep["rows"]} | {"QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)",
                                                 "workloads split,mthp,lazyfree,filemap", "icount, 1 vCPU, "}
print("%d over 78, cut: %s, '1 vCPUs': %d" % (sum(len(l) > 78 for l in body.splitlines()),
      sorted(w for w in whole if w not in flat), body.count("1 vCPUs")))
PY
)" "0 over 78, cut: [], '1 vCPUs': 0" 'mail: every line <= 78 columns, subjects and facts whole (wrapped at words), "1 vCPU"'
like "$(cat "$TMP_T/mail.eml")" '  mthp/16k                          Before      After    delta %stddev verdict
  lru_lock_per_fault   1/fault           1    0.03282  -96.72%    0.0% better' \
	'mail: Before/After with units and a %stddev column, as the text report'

start_server "$DB" || bail "server did not start"
code /api/v1/series/demo/report.txt >/dev/null
cmp -s "$TMP_T/body" "$R"
ok $? 'report.txt is the same text'
code '/api/v1/series/demo/report.txt?verbose=1' >/dev/null
cmp -s "$TMP_T/body" "$TMP_T/long.txt"
ok $? 'report.txt?verbose=1 is the long one'
stop_server
is $? 0 'server exits 0'
done_testing
