#!/bin/sh
# make test's last pass, in three lanes at once, each under strace (execve
# only) for ci/check-exec-deps.py:
#   A  the kernel tests that build kernels (t4*), one at a time, printed live,
#      as a queue: once B is done, B takes from it too (A2), but only the
#      tests that leave the default tree alone (not LANE_A_TREE);
#   B  the other kernel tests that only boot the default kernel (t3*), then
#      the quick tests that run on the plain build only (LANE_QP: valgrind,
#      the fuzz targets' own sanitizers, counts ASan only slows), then it
#      helps Q: Q's tests are a queue both take from;
#   Q  the other quick tests, once, on the ASan build (LANE_Q_BUILD) under
#      ci/exec-watch, which traces execs without ptrace so LeakSanitizer
#      still works;
# then, once all three are done, LANE_LAST alone (t3000: TCG counters that
# must move in every round, which host load can stop), printed live.
# Each lane runs its tests in the order of the last recorded times, the
# longest first (tests/lib/lane-times.sh), and the run ends with each lane's
# time, the five slowest tests and one prove-style total of every lane.
# Why: most kernel-test boots run under icount, one QEMU thread, so one of the
# two cores idles through lane A; B and Q fill it (on 2 cores: 35 -> 25 min).
# B gets a host lock of its own (FOLIOWATCH_CACHE in the build folder, the
# kernel by FW_KERNEL): what it checks is icount-exact or a count, which host
# load does not move. A keeps the real lock: its builds share the default
# tree, and t4100 spends a wall-time budget.
# Why Q on ASan: the quick tests ran twice, ASan untraced then plain traced;
# once, beside A and B, takes the ASan pass off the critical path.
# Why A2: after B and Q, lane A ran alone for a third of the run (26 of 49
# minutes), one core idle; its kernels are all built ahead, so most of its
# tests boot cached kernels and never check out a commit. LANE_A_TREE's
# tests build commits of their own in the default tree or check which branch
# it is on: they stay in A's first worker, one at a time.
# Environment: BUILD, COLLECT_BIN, PREBUILD_DONE and PREBUILD_LOG (the
# background kernel prebuild's exit-code file and log, when make test started
# one), LANE_A, LANE_A_TREE, LANE_B, LANE_Q, LANE_QP, LANE_LAST (test lists), LANE_Q_BUILD
# (default BUILD: then Q runs under strace), EXEC_WATCH, TRACE_DIR.
# Exit: 0 when every lane passed.
set -u
BUILD=${BUILD:-build}
TRACE_DIR=${TRACE_DIR:-$BUILD}
COLLECT=${COLLECT_BIN:-$BUILD/foliowatch-collect}
export ASAN_OPTIONS=detect_leaks=0
traced() { # trace-file command...
	f=$1; shift
	strace -f --seccomp-bpf -qq -z -e trace=execve,execveat -e signal=none -o "$f" "$@"
}
prove_lane() { # trace-file tests...
	f=$1; shift
	traced "$f" prove --timer --failures --exec 'sh tests/lib/run-one.sh' "$@"
}

. tests/lib/lane-times.sh
case $BUILD in /*) abs_build=$BUILD ;; *) abs_build=$PWD/$BUILD ;; esac
# each test's time (tests/lib/run-one.sh), merged at the end into a record
# kept with the kernel cache (a CI clone's build folder is new every time);
# each lane runs in the order of the last record, the longest first
export FW_TEST_TIMES=$abs_build/test-times.run
TIMES_DIR=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
mkdir -p "$TIMES_DIR"
TIMES=$TIMES_DIR/test-times.tsv
rm -f "$BUILD"/lane-*.rc "$BUILD"/lane-*.log "$FW_TEST_TIMES" "$abs_build/lane-q-failed" "$abs_build/lane-a-failed"
LANE_A=$(by_cost "$TIMES" $LANE_A)
LANE_B=$(by_cost "$TIMES" $LANE_B)
LANE_Q=$(by_cost "$TIMES" $LANE_Q)
LANE_QP=$(by_cost "$TIMES" ${LANE_QP:-})
start=$(date +%s)
Q_BUILD=${LANE_Q_BUILD:-$BUILD}
EXEC_WATCH=${EXEC_WATCH:-$BUILD/exec-watch}
# Lanes Q's and A's tests are queues, one file a test, taken by rename
# (atomic: two takers, one wins), the longest first: lane B joins Q's once
# its own tests are done, then A's.
QUEUE_Q=$abs_build/lane-q-queue
QUEUE_A=$abs_build/lane-a-queue
queue_fill "$QUEUE_Q" $LANE_Q
queue_fill "$QUEUE_A" $LANE_A
q_worker() { # lane: Q's tests one at a time until none is left; 1 if one failed
	local rc=0 job f t
	export FW_LANE=$1
	while job=$(queue_take "$QUEUE_Q" "") && [ -n "$job" ]; do
		f=${job%% *} t=${job#* }
		if [ "$Q_BUILD" = "$BUILD" ]; then
			prove_lane "$TRACE_DIR/exec-trace-q$f.log" "$t"
		else
			BUILD=$Q_BUILD env -u ASAN_OPTIONS "$EXEC_WATCH" -o "$TRACE_DIR/exec-trace-q$f.log" \
				prove --timer --failures --exec 'sh tests/lib/run-one.sh' "$t"
		fi || { rc=1; echo "$t" >>"$abs_build/lane-q-failed"; }
	done
	return $rc
}
a_worker() { # lane skip: A's tests not listed in skip, one at a time; 1 if one failed
	local rc=0 job f t
	export FW_LANE=$1
	while job=$(queue_take "$QUEUE_A" "$2") && [ -n "$job" ]; do
		f=${job%% *} t=${job#* }
		prove_lane "$TRACE_DIR/exec-trace-a$f.log" "$t" || { rc=1; echo "$t" >>"$abs_build/lane-a-failed"; }
	done
	return $rc
}
# The quick tests on the plain build, under strace (with lane B's kernel and
# cache only inside its own subshell, they see the environment lane Q sees).
lane_qp() {
	export FW_LANE=B
	[ -z "${LANE_QP:-}" ] || prove_lane "$TRACE_DIR/exec-trace-qp.log" $LANE_QP
}
# Q needs no kernel: it starts at once, beside a kernel prebuild still running.
(q_worker Q >"$BUILD/lane-q.log" 2>&1; echo $? >"$BUILD/lane-q.rc"
	echo "lane Q: $(( $(date +%s) - start )) s" >>"$BUILD/lane-q.log") &
q=$!

# The default kernel: waits for a prebuild still holding the lock
# (FW_KERNEL=path skips that, as in tests/lib/kernel.sh).
if [ -n "${FW_KERNEL:-}" ]; then
	kernel=$FW_KERNEL
elif ! kernel=$(traced "$TRACE_DIR/exec-trace-kernel2.log" "$COLLECT" kernel 2>"$BUILD/lane-kernel.err"); then
	echo "test-lanes: foliowatch-collect kernel failed:"
	tail -20 "$BUILD/lane-kernel.err"
	kernel=
fi
case $BUILD in /*) lane_cache=$BUILD/lane-b-cache ;; *) lane_cache=$PWD/$BUILD/lane-b-cache ;; esac
mkdir -p "$lane_cache"

# waits for make test's kernel prebuild: lane A's runs boot its kernels
wait_prebuild() {
	[ -n "${PREBUILD_DONE:-}" ] && [ -z "${FW_KERNEL:-}" ] || return 0
	w0=$(date +%s)
	while [ ! -f "$PREBUILD_DONE" ]; do sleep 5; done
	echo "=== lane $1 waited $(( $(date +%s) - w0 )) s for the patched kernels (prebuild exit $(cat "$PREBUILD_DONE"))"
}

if [ -n "$kernel" ] && [ -f "$kernel" ]; then
	# B's kernel tests end first (14 of lane A's 30-40 minutes): then the
	# plain quick tests, Q's queue, and A's tests that leave the tree alone
	( (export FW_LANE=B; FW_KERNEL=$kernel FOLIOWATCH_CACHE=$lane_cache prove_lane "$TRACE_DIR/exec-trace-b.log" $LANE_B)
		rb=$?
		lane_qp
		rqp=$?
		q_worker B
		rqb=$?
		[ "$rb" = 0 ] && [ "$rqp" = 0 ] && [ "$rqb" = 0 ]; echo $? >"$BUILD/lane-b.rc"
		echo "lane B: $(( $(date +%s) - start )) s"
		wait_prebuild A2
		a_worker A2 "${LANE_A_TREE:-}"; echo $? >"$BUILD/lane-a2.rc"
		echo "lane A2: $(( $(date +%s) - start )) s" ) >"$BUILD/lane-b.log" 2>&1 &
	{
		wait_prebuild A
		grep -h '^prebuild:' "${PREBUILD_LOG:-/dev/null}" 2>/dev/null | tail -1
		echo "=== lane A: $LANE_A"
		echo "=== lanes B ($LANE_B, then the plain quick tests, then A's tests but $LANE_A_TREE) and Q (quick tests on $Q_BUILD) run beside it, printed at the end"
		a_worker A ""; echo $? >"$BUILD/lane-a.rc"
		echo "lane A: $(( $(date +%s) - start )) s"
	} 2>&1 | tee "$BUILD/lane-a.log"
else
	echo "test-lanes: no kernel at '$kernel': lanes A and B not run"
	echo 1 >"$BUILD/lane-a.rc"
	(echo "no kernel: lane B's kernel tests not run"; lane_qp; q_worker B) >"$BUILD/lane-b.log" 2>&1
fi
wait
last=0
if [ -n "${LANE_LAST:-}" ] && [ -n "$kernel" ] && [ -f "$kernel" ]; then
	echo "=== last, alone: $LANE_LAST"
	export FW_LANE=last
	{ prove_lane "$TRACE_DIR/exec-trace-last.log" $LANE_LAST; echo $? >"$BUILD/lane-last.rc"; } 2>&1 | tee "$BUILD/lane-last.log"
	last=$(cat "$BUILD/lane-last.rc")
	last_s=$(( $(date +%s) - start ))
elif [ -n "${LANE_LAST:-}" ]; then
	last=1
fi
a=$(cat "$BUILD/lane-a.rc" 2>/dev/null || echo 1)
a2=$(cat "$BUILD/lane-a2.rc" 2>/dev/null || echo 0)
rb=$(cat "$BUILD/lane-b.rc" 2>/dev/null || echo 1)
rq=$(cat "$BUILD/lane-q.rc" 2>/dev/null || echo 1)
echo "=== lane B (then A2)"
cat "$BUILD/lane-b.log"
echo "=== lane Q (quick tests on $Q_BUILD)"
cat "$BUILD/lane-q.log"
echo "=== lanes: A exit $a, A2 exit $a2, B exit $rb, Q exit $rq, last exit $last"
[ ! -s "$abs_build/lane-q-failed" ] || echo "=== quick tests that failed (lanes Q and B): $(paste -sd' ' "$abs_build/lane-q-failed")"
[ ! -s "$abs_build/lane-a-failed" ] || echo "=== kernel tests that failed (lanes A and A2): $(paste -sd' ' "$abs_build/lane-a-failed")"
# where the time went (tests/README.md keeps the table)
echo "=== time: $(( $(date +%s) - start )) s in all; $(grep -h '^lane [ABQ]2*:' "$BUILD/lane-a.log" "$BUILD/lane-b.log" "$BUILD/lane-q.log" 2>/dev/null | paste -sd';' - | sed 's/;/; /g')${last_s:+; last: $last_s s}"
echo "=== the five slowest tests"
slowest "$FW_TEST_TIMES" 5
merge_times "$TIMES" "$FW_TEST_TIMES"
ok=0
[ "$a" = 0 ] && [ "$a2" = 0 ] && [ "$rb" = 0 ] && [ "$rq" = 0 ] && [ "$last" = 0 ] || ok=1
# one summary of every lane's prove runs, in prove's own words
echo "=== every lane"
prove_totals "$(( $(date +%s) - start ))" $ok "$BUILD/lane-a.log" "$BUILD/lane-b.log" "$BUILD/lane-q.log" "$BUILD/lane-last.log"
exit $ok
