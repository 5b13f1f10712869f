#!/bin/bash
# --help of every subcommand of both programs, found from `PROG help` (a new
# subcommand is covered without editing this test): --help, -h and
# `PROG help CMD` print the same full usage to stdout, exit 0, nothing on
# stderr, with an Examples section and a default (or "required") for every
# option. Every documented option is accepted; and no option is accepted
# without being documented: every --word found in the sources or in any help
# is fed to every subcommand, and unless the subcommand documents it, it must
# be refused as unrecognized. Usage errors name the bad option and point to
# --help on stderr, exit 2.
. tests/lib/tap.sh
SRC=$PWD
# Nothing here may do real work; if something did, it would stay in here.
# (a cache that is a file: real work, unpacking or building a kernel, would fail at once)
export FOLIOWATCH_CACHE="$TMP_T/cache-is-a-file" HOME="$TMP_T/home"
mkdir -p "$HOME" && : >"$FOLIOWATCH_CACHE"
cd "$TMP_T" || bail "cd $TMP_T"

# run PROG ARGS...: sets rc, out, err (no command may touch a terminal or wait)
run() {
	out=$(timeout 20 "$@" 2>"$TMP_T/stderr" </dev/null)
	rc=$?
	err=$(<"$TMP_T/stderr")
}
# documented_options: the long names of the option lines of a usage on stdin
documented_options() {
	sed -nE 's/^  (-[A-Za-z0-9], |    )--([a-z][a-z0-9-]*).*/\2/p' | grep -vx help
}
# every option entry (its line and continuation lines) says its default or that it is required
undefaulted() {
	awk '/^  -h, --help / { next }
	     /^  (-[A-Za-z0-9], |    )--[a-z]/ { if (entry != "" && entry !~ /\((default: [^)]*|required)\)/) print entry; entry = $0; next }
	     /^                            / && entry != "" { entry = entry $0; next }
	     { if (entry != "" && entry !~ /\((default: [^)]*|required)\)/) print entry; entry = "" }
	     END { if (entry != "" && entry !~ /\((default: [^)]*|required)\)/) print entry }'
}

# Every --word the programs could possibly parse: in their sources, or in any help.
VOCAB="$TMP_T/vocab"
cat "$SRC"/server/*.c "$SRC"/collector/*.c "$SRC"/analysis/*.c "$SRC"/schema/*.c "$SRC"/lib/*.c | grep -ohE -- '--[a-z][a-z0-9-]+' |
	sed 's/^--//' >"$VOCAB.raw"
# and the long names of every option table (struct fw_option rows and getopt's struct option rows)
cat "$SRC"/server/*.c "$SRC"/collector/*.c "$SRC"/analysis/*.c "$SRC"/schema/*.c "$SRC"/lib/*.c |
	grep -ohE '\{ *"[a-z][a-z0-9-]*", *([0-9]+|'"'"'.'"'"'), *(no|required|optional)_argument' |
	sed -E 's/^\{ *"([^"]*)".*/\1/' >>"$VOCAB.raw"
cat "$SRC"/server/*.c "$SRC"/collector/*.c "$SRC"/analysis/*.c "$SRC"/schema/*.c "$SRC"/lib/*.c |
	grep -ohE '\{ *"[a-z][a-z0-9-]*", *(no|required|optional)_argument' |
	sed -E 's/^\{ *"([^"]*)".*/\1/' >>"$VOCAB.raw"

for P in "$SERVER" "$COLLECT"; do
	prog=$(basename "$P")
	run "$P" help
	general=$out
	is "$rc/$err" "0/" "$prog help: exit 0, nothing on stderr"
	cmds=$(printf '%s\n' "$general" | awk 'tolower($0) ~ /^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
	like "$(echo $cmds)" '^[a-z]+( [a-z]+)+$' "$prog help lists the commands: $(echo $cmds)"
	for h in --help -h; do
		run "$P" $h
		ok $([ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "$general" ]; echo $?) "$prog $h: the same list, stdout, exit 0"
	done
	run "$P" help no-such-command
	ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "$prog help no-such-command: exit 2"
	like "$err" "unknown command 'no-such-command'" "... names it"
	run "$P" no-such-command
	ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "$prog no-such-command: exit 2"
	like "$err" "unknown command 'no-such-command'.*|try '$prog help'" "... names it, points to help"

	for c in $cmds; do
		run "$P" "$c" --help
		usage=$out
		ok $([ "$rc" = 0 ] && [ -z "$err" ] && [ -n "$out" ]; echo $?) "$prog $c --help: usage on stdout, exit 0, stderr empty"
		[ -z "$err" ] || diag "rc $rc, stderr: $err"
		like "$usage" "^usage: $prog $c" "... starts with usage: $prog $c"
		ok $(printf '%s\n' "$usage" | grep -A1 '^Examples:' | grep -q "^  $prog $c"; echo $?) \
			"... has an Examples section with a $prog $c line"
		for alt in "-h" "help"; do
			if [ "$alt" = help ]; then run "$P" help "$c"; else run "$P" "$c" -h; fi
			ok $([ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "$usage" ]; echo $?) \
				"... $([ "$alt" = help ] && echo "$prog help $c" || echo "$prog $c -h") prints the same, exit 0"
		done
		opts=$(printf '%s\n' "$usage" | documented_options)
		[ -n "$opts" ] || [ "$c" = probe ] || diag "$prog $c documents no options"
		printf '%s\n' "$opts" >>"$VOCAB.raw"
		is "$(printf '%s\n' "$usage" | undefaulted)" "" "... every option says its default (or that it is required)"

		# documented => accepted: the option is taken and parsing goes on to the bogus one
		notaken=
		for o in $opts; do
			run "$P" "$c" "--$o" x --zz-not-an-option
			if [ "$rc" != 2 ] || printf '%s' "$err" | grep -qE "(unrecognized|ambiguous) option '--$o'"; then
				notaken="$notaken --$o(rc $rc)"
			fi
		done
		is "$notaken" "" "... every documented option is accepted ($(echo $opts | wc -w))"
		printf '%s\n' "$opts" >"$TMP_T/opts-$prog-$c"
	done
	echo "$cmds" >"$TMP_T/cmds-$prog"
done

# accepted => documented: every candidate a subcommand does not document must be refused.
sort -u "$VOCAB.raw" | grep -vx -e help -e '' >"$VOCAB"
diag "$(wc -l <"$VOCAB") candidate option names"
for P in "$SERVER" "$COLLECT"; do
	prog=$(basename "$P")
	for c in $(cat "$TMP_T/cmds-$prog"); do
		taken=
		mapfile -t documented <"$TMP_T/opts-$prog-$c"
		while read -r cand; do
			# documented, or an abbreviation of a documented option (getopt takes unique prefixes)
			skip=0
			for d in "${documented[@]}"; do [[ $d == "$cand"* ]] && skip=1 && break; done
			[ $skip = 1 ] && continue
			run "$P" "$c" "--$cand" x --zz-not-an-option
			[[ $rc = 2 && $err == *"unrecognized option '--$cand'"* ]] || taken="$taken --$cand"
		done <"$VOCAB"
		is "$taken" "" "$prog $c accepts no option its help does not document"
	done
done

# Usage errors: short, name the bad option, point to --help; stderr only, exit 2.
for P in "$SERVER" "$COLLECT"; do
	prog=$(basename "$P")
	for c in $(cat "$TMP_T/cmds-$prog"); do
		run "$P" "$c" --zz-bogus
		ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "$prog $c --zz-bogus: exit 2, nothing on stdout"
		is "$err" "$prog $c: unrecognized option '--zz-bogus'
try '$prog $c --help'" "... names the option and points to --help"
		arg=$(printf '%s\n' "$($P "$c" --help)" |
			sed -nE 's/^  (-[A-Za-z0-9], |    )--([a-z][a-z0-9-]*) [A-Za-z<].*/\2/p' | head -n1)
		[ -n "$arg" ] || continue
		run "$P" "$c" "--$arg"
		ok $([ "$rc" = 2 ] && [ -z "$out" ]; echo $?) "$prog $c --$arg (no value): exit 2"
		like "$err" "^$prog $c: option '--$arg' needs an argument" "... says --$arg needs an argument"
	done
done
ok $([ -z "$(ls "$TMP_T" | grep -E '\.db$|^foliowatch')" ]; echo $?) "no database was created by any of it"
done_testing
