#!/bin/bash
# The demo series' first patch (small-order large folios use the per-CPU LRU
# cache, include/linux/swap.h) must lower mthp's lru_lock_per_fault (calls of
# folio_batch_move_lru per fault, an exact count from the untimed diagnostic
# round) at least 2x, under icount and under TCG. Last of the kernel tests:
# the patch touches a header most of mm includes, so its rebuild is the
# longest (prints its time), and nothing after it has to rebuild the base.
. tests/lib/tap.sh
. tests/lib/kernel.sh
find_kernel
T0=$(date +%s)
CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
P1=$(ls kernel/series/demo/0001-*.patch)
for accel in icount tcg; do
	DB=$TMP_T/lru-$accel.db
	t=$(date +%s)
	"$COLLECT" run --series "t4400-$accel-$$" --mbox "$P1" --workloads mthp --profile quick \
		--accel "$accel" --boots 1 --rounds 1 --budget none --no-profile --db "$DB" --no-report > "$TMP_T/run-$accel.log" 2>&1
	is "$?" 0 "$accel: base and patch 1 measured"
	q="select printf('%.4f', s.value) from samples s join results r on r.id = s.result_id join runs u on u.id = r.run_id
	   join commits c on c.id = u.commit_id where r.metric = 'lru_lock_per_fault' and c.position ="
	base=$(sqlite3 "$DB" "$q 0"); patched=$(sqlite3 "$DB" "$q 1")
	diag "$accel: lru_lock_per_fault base $base, patch 1 $patched ($(( $(date +%s) - t )) s)"
	ok "$(awk -v b="$base" -v p="$patched" 'BEGIN { exit !(b > 0 && p > 0 && b >= 2 * p) }'; echo $?)" \
		"$accel: patch 1 lowers lruvec lock round trips per fault at least 2x"
done
secs=$(cat "$CACHE"/runs/t4400-icount-$$-*/*.json 2>/dev/null | jq -r 'select(.build.seconds) | .build.seconds' | head -1)
diag "rebuild of patch 1 (include/linux/swap.h): ${secs:-reused (cached kernel)} s"
diag "t4400: $(( $(date +%s) - T0 )) s"
said_builds
done_testing
