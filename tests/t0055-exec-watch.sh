#!/bin/bash
# ci/exec-watch, make test's exec trace of the ASan lane (fanotify, not ptrace):
# it logs the programs a command's descendants execute (an orphan's too, and
# it waits for the orphan), not those of other processes; it exits with the
# command's status; LeakSanitizer still works under it (under strace it
# cannot: the reason exec-watch exists); ci/check-exec-deps.py reads its log.
. tests/lib/tap.sh
WATCH=$PWD/$BUILD/exec-watch
[ -x "$WATCH" ] || bail "$WATCH missing: make all"
"$WATCH" -o /dev/null true 2>"$TMP_T/probe.err" ||
	skip_all "exec-watch cannot watch here: $(cat "$TMP_T/probe.err") (make test runs as root)"
for p in /usr/bin/jq /usr/bin/git /usr/bin/od; do [ -x "$p" ] || bail "$p missing: run ci/install-deps.sh"; done

"$WATCH" 2>"$TMP_T/usage.err"
is "$?" 2 "no command: usage error"
like "$(cat "$TMP_T/usage.err")" "usage: exec-watch -o LOG COMMAND" "naming the usage"

printf '#!/usr/bin/jq -nf\n1\n' > "$TMP_T/one.jq" && chmod +x "$TMP_T/one.jq"
# an outsider: started before the watch, it executes od while the watch runs
(sleep 0.5; /usr/bin/od /dev/null >/dev/null) &
outsider=$!
start=$(date +%s%N)
"$WATCH" -o "$TMP_T/log" sh -c '/usr/bin/jq -n 1 >/dev/null; "$0" >/dev/null;
	(sleep 1.5; /usr/bin/git --version >/dev/null) & exit 3' "$TMP_T/one.jq"
rc=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait "$outsider"
is "$rc" 3 "the command's exit status"
ok "$([ "$elapsed_ms" -ge 1400 ]; echo $?)" "it waits for the orphan the command left ($elapsed_ms ms)"
log=$(cat "$TMP_T/log")
like "$log" '^[0-9]+ execve\("/usr/bin/jq"\) = 0' "jq logged in strace's form"
like "$log" "execve\(\"$TMP_T/one.jq\"\)" "a script run directly"
like "$log" 'execve\("/usr/bin/git"\)' "the orphan's program, run after its parent ended"
unlike "$log" '/usr/bin/od' "not the outsider's program"
out=$(/usr/bin/python3 ci/check-exec-deps.py "$TMP_T/log" 2>&1)
is "$?" 0 "check-exec-deps reads the log"
like "$out" "jq +listed" "and accounts jq to install-deps.sh"

# LeakSanitizer stops the world with ptrace: under exec-watch it still reports
if printf '#include <stdlib.h>\nint main(void) { volatile char *p = malloc(77); p = 0; return 0; }\n' \
	> "$TMP_T/leak.c" && gcc -fsanitize=address -g -o "$TMP_T/leak" "$TMP_T/leak.c" 2>"$TMP_T/cc.err"; then
	ASAN_OPTIONS=detect_leaks=1 "$WATCH" -o "$TMP_T/log2" "$TMP_T/leak" 2>"$TMP_T/leak.err"
	ok "$([ $? -ne 0 ]; echo $?)" "a leaking ASan program fails under exec-watch"
	like "$(cat "$TMP_T/leak.err")" "77 byte\(s\) leaked in 1 allocation" "LeakSanitizer reports the leak"
else
	bail "cannot build an ASan program: $(head -3 "$TMP_T/cc.err")"
fi
done_testing
