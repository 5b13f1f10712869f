#!/bin/bash
# ci/check-exec-deps.py, the check that every program a test run executes comes
# from ci/install-deps.sh: it passes with the real script, and fails naming the
# package when a scratch copy of the script lacks one (also when the program
# only appears as a script's #! interpreter). The traces are in strace's
# format (this test itself runs under `make test`'s strace, where a nested
# strace cannot attach, so it does not run one); the real trace of the whole
# run is checked at the end of `make test`.
. tests/lib/tap.sh
CHECK="/usr/bin/python3 ci/check-exec-deps.py"
[ -x /usr/bin/python3 ] || bail "no /usr/bin/python3"
for p in /usr/bin/jq /usr/bin/git; do [ -x "$p" ] || bail "$p missing: run ci/install-deps.sh"; done

# Lines as strace -f -z prints them: plain, and split across a thread switch.
cat > "$TMP_T/trace" <<'EOF'
100   execve("/usr/bin/sh", ["sh", "-c", "jq --version; git --version"], 0x7ffd /* 37 vars */) = 0
101   execve("/usr/bin/jq", ["jq", "--version"], 0x55ef /* 37 vars */ <unfinished ...>
102   execve("build/foliowatch-server", ["build/foliowatch-server"], 0x55ef /* 37 vars */) = 0
101   <... execve resumed>) = 0
103   execve("/usr/bin/git", ["git", "--version"], 0x55ef /* 37 vars */) = 0
EOF
out=$($CHECK "$TMP_T/trace" 2>&1); rc=$?
is "$rc" 0 "the real install-deps.sh accounts for sh, jq and git"
like "$out" "jq +listed" "jq is reported as listed"
like "$out" "dash +Essential" "sh comes from an Essential package"

grep -v '^ *#' ci/install-deps.sh | sed 's/ jq / /' > "$TMP_T/install-deps.sh"
cp ci/install-deps.sh "$TMP_T/orig.sh"
grep -qw jq "$TMP_T/install-deps.sh" && bail "could not remove jq from the scratch copy"
out=$($CHECK --deps-script "$TMP_T/install-deps.sh" "$TMP_T/trace" 2>&1); rc=$?
is "$rc" 1 "a scratch install-deps.sh without jq fails the check"
like "$out" "jq is used \(/usr/bin/jq\) but neither installed by" "the message names the package and the program"

# A script run directly: the kernel starts its interpreter, strace sees the script only.
printf '#!/usr/bin/jq -nf\n1\n' > "$TMP_T/one.jq" && chmod +x "$TMP_T/one.jq"
printf '200   execve("%s", ["one.jq"], 0x1 /* 1 vars */) = 0\n' "$TMP_T/one.jq" > "$TMP_T/trace2"
out=$($CHECK --deps-script "$TMP_T/install-deps.sh" "$TMP_T/trace2" 2>&1); rc=$?
is "$rc" 1 "a #! interpreter counts as executed"
like "$out" "jq is used" "and is named"

# rsync, the package whose absence broke a new machine (gitlab-ci-local runs it).
if [ -x /usr/bin/rsync ]; then
	printf '300   execve("/usr/bin/rsync", ["rsync"], 0x1 /* 1 vars */) = 0\n' > "$TMP_T/trace3"
	$CHECK "$TMP_T/trace3" > /dev/null 2>&1
	is "$?" 0 "rsync is accounted for by the real script"
	sed 's/ rsync / /; s/^\( *\)rsync /\1/' ci/install-deps.sh > "$TMP_T/no-rsync.sh"
	out=$($CHECK --deps-script "$TMP_T/no-rsync.sh" "$TMP_T/trace3" 2>&1); rc=$?
	is "$rc" 1 "without rsync in the script the check fails"
	like "$out" "rsync is used" "naming rsync"
fi

# A resolved path, as ci/exec-watch logs it: dpkg lists /lib32/ld-linux.so.2
# (ldd runs it), the file opened is /usr/lib32/ld-linux.so.2.
if [ -e /usr/lib32/ld-linux.so.2 ] && ! dpkg -S /usr/lib32/ld-linux.so.2 >/dev/null 2>&1; then
	printf '350 execve("/usr/lib32/ld-linux.so.2") = 0\n' > "$TMP_T/trace35"
	out=$($CHECK "$TMP_T/trace35" 2>&1); rc=$?
	is "$rc" 0 "a resolved path is matched to the package that lists it under another name"
	like "$out" "libc6-i386 .*/usr/lib32/ld-linux.so.2" "... naming it"
fi

# A program that belongs to no package and is not the project's.
printf '400   execve("/opt/fw-nowhere/tool", ["tool"], 0x1 /* 1 vars */) = 0\n' > "$TMP_T/trace4"
out=$($CHECK "$TMP_T/trace4" 2>&1); rc=$?
is "$rc" 1 "a program from no package fails the check"
like "$out" "/opt/fw-nowhere/tool was executed but belongs to no Debian package" "naming it"

: > "$TMP_T/empty"
out=$($CHECK "$TMP_T/empty" 2>&1); rc=$?
is "$rc" 1 "an empty trace fails (an untraced run proves nothing)"
cmp -s ci/install-deps.sh "$TMP_T/orig.sh"; ok $? "the real install-deps.sh is untouched"
done_testing
