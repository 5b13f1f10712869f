#!/bin/sh
# Boots the default kernel (built or reused through `foliowatch-collect kernel`)
# with fw-init under TCG, all four workloads in the quick profile, and checks
# the result channel: begin/end, contiguous seq, CRCs, sample counts per
# workload/variant, no error records, and the counters that must move.
. tests/lib/tap.sh

ROUNDS=${FW_ROUNDS:-2}
WORKLOADS=${FW_WORKLOADS:-split,mthp,lazyfree,filemap}
command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64"
[ -x "$BUILD/guest/fw-init" ] || bail "no $BUILD/guest/fw-init (run make)"

# FW_KERNEL=path skips the build step (debugging a guest change).
if [ -n "${FW_KERNEL:-}" ]; then BZ=$FW_KERNEL; true; else BZ=$("$COLLECT" kernel 2>"$TMP_T/kernel.err"); fi
ok $? "foliowatch-collect kernel gives a bzImage"
[ -f "$BZ" ] || { cat "$TMP_T/kernel.err"; bail "no kernel"; }
diag "kernel: $BZ"

# One real boot through the collector: initramfs, QEMU (TCG, 2 vCPUs, 9p for fio),
# result channel, run document, ingest. The channel log is kept for the checks below.
DB=$TMP_T/fw.db
START=$(date +%s)
"$COLLECT" boot --kernel "$BZ" --accel tcg --workloads "$WORKLOADS" --profile quick --rounds "$ROUNDS" \
	--workdir "$TMP_T/w" --keep --db "$DB" --out "$TMP_T/doc.json" 2> "$TMP_T/boot.err"
is "$?" 0 "foliowatch-collect boot: the guest ran every workload and the document was stored"
diag "boot + workloads: $(( $(date +%s) - START )) s wall"
sed 's/^/# boot: /' "$TMP_T/boot.err" | tail -5
cp "$TMP_T/w/channel.log" "$TMP_T/results.txt"
[ "${KEEP:-0}" = 1 ] && diag "kept: $TMP_T"
grep -E "Run /init|fw-init" "$TMP_T/w/console.log" | head -20 | sed 's/^/# console: /'
is "$(sqlite3 "$DB" "select boot_status from runs")" ok "run stored with boot status ok"
is "$(sqlite3 "$DB" "select count(*) from results where error is not null")" 0 "no workload error stored"
for wm in split/split_ms mthp/wall_s lazyfree/reclaim_s filemap/bw_mib_s; do
	case ",$WORKLOADS," in *",${wm%%/*},"*) ;; *) continue ;; esac
	n=$(sqlite3 "$DB" "select min(c) from (select count(*) c from samples s join results r on r.id = s.result_id where r.workload = '${wm%%/*}' and r.metric = '${wm#*/}' group by r.id)")
	is "$n" "$ROUNDS" "${wm}: $ROUNDS samples stored per variant"
done
for wc in split/thp_split_page lazyfree/pglazyfreed lazyfree/thp_split_pmd mthp/mthp_16kB_anon_fault_alloc filemap/workingset_refault_file; do
	case ",$WORKLOADS," in *",${wc%%/*},"*) ;; *) continue ;; esac
	n=$(sqlite3 "$DB" "select count(*) from counters c join results r on r.id = c.result_id where r.workload = '${wc%%/*}' and c.name = '${wc#*/}' and c.value > 0")
	ok "$([ "${n:-0}" -ge "$ROUNDS" ]; echo $?)" "${wc}: counter stored and moved in every round ($n)"
done

# Channel checks in Python (zlib.crc32 is the contract's CRC-32).
/usr/bin/python3 - "$TMP_T/results.txt" "$ROUNDS" "$WORKLOADS" > "$TMP_T/check.txt" <<'PY'
import sys, zlib, re, urllib.parse
path, rounds, wls = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(',')
recs, problems = [], []
for n, line in enumerate(open(path, 'rb').read().decode('latin-1').split('\n')):
    if not line:
        continue
    m = re.fullmatch(r'(FW1 (\d+) (\w+)((?: [^ =]+=[^ ]*)*)) \*([0-9a-f]{8})', line)
    if not m:
        problems.append('line %d is not a record' % n); continue
    if int(m.group(5), 16) != zlib.crc32(m.group(1).encode('latin-1')):
        problems.append('bad crc at seq %s' % m.group(2))
    kv = dict((urllib.parse.unquote(k), urllib.parse.unquote(v)) for k, v in
              (p.split('=', 1) for p in m.group(4).split()))
    recs.append((int(m.group(2)), m.group(3), kv))
print('records', len(recs))
print('seq_ok', int([r[0] for r in recs] == list(range(len(recs)))))
print('begin', int(bool(recs) and recs[0][1] == 'begin'))
print('end', int(bool(recs) and recs[-1][1] == 'end' and int(recs[-1][2]['records']) == len(recs) - 1))
for p in problems: print('problem', p)
for r in recs:
    if r[1] in ('error',): print('error', r[2].get('workload'), r[2].get('variant'), r[2].get('msg'))
    if r[1] == 'info': print('info', ' '.join('%s=%s' % kv for kv in r[2].items()))
primary = {'split': [('pmd-to-0', 'split_ms'), ('pmd-to-0', 'split_cpu_ms')],
           'mthp': [('16k', 'wall_s'), ('16k', 'cpu_s')],
           'lazyfree': [('pmd', 'reclaim_s')], 'filemap': [('4k', 'bw_mib_s'), ('thp', 'bw_mib_s')]}
moving = {'split': 'thp_split_page', 'mthp': 'mthp_16kB_anon_fault_alloc',
          'lazyfree': 'pglazyfreed', 'filemap': 'workingset_refault_file'}
for wl in wls:
    for var, metric in primary[wl]:
        s = [float(r[2]['value']) for r in recs if r[1] == 'sample' and r[2]['workload'] == wl
             and r[2]['variant'] == var and r[2]['metric'] == metric]
        c = [int(r[2].get(moving[wl], 0)) for r in recs if r[1] == 'counters'
             and r[2]['workload'] == wl and r[2]['variant'] == var and int(r[2]['round']) < rounds]
        print('samples %s/%s %d %s' % (wl, var, len(s), ' '.join('%.4g' % x for x in s)))
        print('moved %s/%s %d %s' % (wl, var, int(len(c) == rounds and all(x > 0 for x in c)),
                                      ' '.join(map(str, c))))
# the untimed diagnostic round: its samples are marked, timed rounds carry no tracing
for r in recs:
    if r[1] == 'sample' and r[2].get('diag') == '1':
        print('diagsample %s/%s %s round=%s' % (r[2]['workload'], r[2]['metric'], r[2]['value'], r[2]['round']))
print('timedlock', sum(1 for r in recs if r[1] == 'counters' and int(r[2]['round']) < rounds
                        and 'lock_contended' in r[2]))
PY
sed 's/^/# /' "$TMP_T/check.txt"
is "$(grep -c '^problem' "$TMP_T/check.txt")" 0 "every line is a record with a good CRC"
is "$(sed -n 's/^seq_ok //p' "$TMP_T/check.txt")" 1 "sequence numbers have no gaps"
is "$(sed -n 's/^begin //p' "$TMP_T/check.txt")" 1 "begin record first"
is "$(sed -n 's/^end //p' "$TMP_T/check.txt")" 1 "end record last with the record count"
is "$(grep -c '^error' "$TMP_T/check.txt")" 0 "no error records"
is "$(grep -c '^info cpus=2$' "$TMP_T/check.txt")" 1 "guest sees both vCPUs (needs CONFIG_ACPI)"
grep '^samples' "$TMP_T/check.txt" | while read -r _ name n _; do echo "$name $n"; done > "$TMP_T/samples.txt"
while read -r name n; do
	is "$n" "$ROUNDS" "$name: one sample per round"
done < "$TMP_T/samples.txt"
grep '^moved' "$TMP_T/check.txt" | while read -r _ name moved _; do echo "$name $moved"; done > "$TMP_T/moved.txt"
while read -r name moved; do
	is "$moved" 1 "$name: its counter moved in every round"
done < "$TMP_T/moved.txt"
case ",$WORKLOADS," in *,mthp,*)
	like "$(grep '^diagsample mthp/lru_lock_per_fault' "$TMP_T/check.txt")" "round=$ROUNDS\$" \
		"mthp: the diagnostic round (after the $ROUNDS timed ones) counted lruvec lock round trips"
	is "$(sed -n 's/^timedlock //p' "$TMP_T/check.txt")" 0 "mthp: no lock tracing in the timed rounds"
	is "$(sqlite3 "$DB" "select count(*) from results where metric = 'lru_lock_per_fault' and params like '%diagnostic_round%'")" 1 \
		"mthp: lru_lock_per_fault stored as a diagnostic-round result"
	;;
esac
. tests/lib/run-schema.sh
check_run_schema 'documents these boots wrote' "$TMP_T/doc.json"
done_testing
