#!/bin/bash
# The GitLab template, run for real with gitlab-ci-local 4.60.1 (shell executor):
# 2 collector shards (each its own host label) measure a small real series on
# the cached default tree (icount, split only) and post to a server on
# loopback; then the gate job asks the server for new regressions. With the
# deliberate split regression in the series the pipeline fails; with a no-op
# patch it passes. The series in the DB is complete, nothing duplicated.
. tests/lib/tap.sh
. tests/lib/server.sh
. tests/lib/kernel.sh
find_kernel
GCL=$PWD/tests/node/node_modules/.bin/gitlab-ci-local
[ -x "$GCL" ] || bail "gitlab-ci-local missing: run ci/install-deps.sh"
CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
TREE=$CACHE/src/linux-source-6.12
BASE=$(git -C "$TREE" rev-parse master)
DB=$TMP_T/fw.db
start_server "$DB" || bail "server did not start"
"$SERVER" token add ci-runner --db "$DB" > "$TMP_T/token" || bail "token"
tail -n1 "$TMP_T/token" > "$TMP_T/token.txt"

# A branch of the default tree with the given patches (commits made in a
# throwaway worktree; the tree's own checkout stays where it is).
make_branch() { # name patch...
	local name=$1 wt=$TMP_T/wt-$1; shift
	light_worktree "$TREE" "$wt" "$BASE" || return 1
	local abs=() f
	for f in "$@"; do abs+=("$(realpath "$f")"); done
	git -C "$wt" -c user.name=t -c user.email=t@x am -q "${abs[@]}" || return 1
	git -C "$wt" rev-parse HEAD
	git -C "$TREE" worktree remove --force "$wt"
}

# The pipeline project: the template as .gitlab-ci.yml, matrix cut to 2 shards.
P=$TMP_T/pipeline
mkdir -p "$P"
sed 's/FOLIOWATCH_SHARD: \["1", "2", "3", "4"\]/FOLIOWATCH_SHARD: ["1", "2"]/' ci/gitlab-ci.yml > "$P/.gitlab-ci.yml"
grep -q 'FOLIOWATCH_SHARD: \["1", "2"\]' "$P/.gitlab-ci.yml" || bail "matrix line not found in the template"
git -C "$P" init -q && git -C "$P" add -A && git -C "$P" -c user.name=t -c user.email=t@x commit -qm pipeline

pipeline() { # series head budget [profile boots]
	(cd "$P" && HOME=$TMP_T timeout 1500 "$GCL" --shell-executor-no-image \
		--variable "FOLIOWATCH_DIR=$OLDPWD" --variable "FOLIOWATCH_URL=$URL" \
		--variable "FOLIOWATCH_TOKEN_FILE=$TMP_T/token.txt" --variable "FOLIOWATCH_SERIES=$1" \
		--variable "FOLIOWATCH_TREE=$TREE" --variable "FOLIOWATCH_BASE=$BASE" \
		--variable "FOLIOWATCH_HEAD=$2" --variable "FOLIOWATCH_SHARDS=2" \
		--variable "FOLIOWATCH_BOOTS=2" --variable "FOLIOWATCH_ROUNDS=2" \
		--variable "FOLIOWATCH_ACCEL=icount" --variable "FOLIOWATCH_WORKLOADS=split" \
		--variable "FOLIOWATCH_PROFILE=quick" --variable "FOLIOWATCH_CACHE=$CACHE" \
		--variable "FOLIOWATCH_BUDGET=$3" --variable "FOLIOWATCH_PROFILE_BOOTS=${4:-1}")
}

slow=$(make_branch slow kernel/series/slow-split/*.patch) || bail "cannot apply the slow-split patch"
start=$(date +%s)
pipeline "slow-$$" "$slow" none > "$TMP_T/slow.log" 2>&1; rc=$?
diag "pipeline with the split regression: $(( $(date +%s) - start )) s, exit $rc"
grep -E "gate|regression|PASS|FAIL|foliowatch-collect" "$TMP_T/slow.log" | tail -12 | sed 's/^/# /'
ok "$([ "$rc" -ne 0 ]; echo $?)" "pipeline fails: the gate saw the split regression"
like "$(cat "$TMP_T/slow.log")" "new regression\(s\) in series slow-$$" "the gate names the new regression"
md=$(find "$P" -name foliowatch-report.md 2>/dev/null | head -1)
like "$([ -n "$md" ] && head -1 "$md")" "^### foliowatch: slow-$$ v1" "the gate kept what moved as Markdown (its artifact)"
like "$([ -n "$md" ] && cat "$md")" "split_ms .* worse" "... the regression in it"
is "$(sqlite3 "$DB" "select count(*) from runs r join commits c on c.id = r.commit_id join series s on s.id = c.series_id where s.name = 'slow-$$'")" 4 \
	"2 commits x 2 boots stored"
is "$(sqlite3 "$DB" "select count(distinct run_id) from runs r join commits c on c.id = r.commit_id join series s on s.id = c.series_id where s.name = 'slow-$$'")" 4 \
	"no run stored twice"
is "$(sqlite3 "$DB" "select count(distinct e.host) from runs r join environments e on e.id = r.env_id join commits c on c.id = r.commit_id join series s on s.id = c.series_id where s.name = 'slow-$$'")" 2 \
	"each shard on its own host"
is "$(sqlite3 "$DB" "select group_concat(distinct e.host) from (select e.host from runs r join environments e on e.id = r.env_id join commits c on c.id = r.commit_id where c.position = 0 order by e.host) e")" \
	"shard-1,shard-2" "every host measured the base too"
like "$(sqlite3 "$DB" "select metric || ' ' || status from regressions g join series s on s.id = g.series_id where s.name = 'slow-$$'")" \
	"^split_ms new" "the regression stored is split_ms, status new"

is "$(jq -s '[.[] | select(.profiles | length > 0) | .commit.position] | sort | map(tostring) | join(",")' -r "$CACHE"/runs/slow-$$-*/*.json)" "0,1" \
	"the first boot of each commit carried its profiling round's profiles (posted to the server)"

noop=$(make_branch noop kernel/series/demo/0003-*.patch) || bail "cannot apply the no-op patch"
start=$(date +%s)
# adaptive, each shard deciding from its own documents, at most 4 boots a shard
pipeline "noop-$$" "$noop" 4boots 0 > "$TMP_T/noop.log" 2>&1; rc=$?
diag "pipeline with a no-op patch: $(( $(date +%s) - start )) s, exit $rc"
grep -E "gate" "$TMP_T/noop.log" | tail -4 | sed 's/^/# /'
is "$rc" 0 "pipeline passes when the series has no regression"
like "$(cat "$TMP_T/noop.log")" "no new regressions in series noop-$$" "the gate says so"
NOOP_RUNS="from runs r join environments e on e.id = r.env_id join commits c on c.id = r.commit_id join series s on s.id = c.series_id where s.name = 'noop-$$'"
sqlite3 "$DB" "select e.host, r.look, r.max_looks, count(*) $NOOP_RUNS group by 1, 2, 3" | sed 's/^/# host|look|max_looks|boots: /'
is "$(sqlite3 "$DB" "select count(*) $NOOP_RUNS and (r.look is null or r.max_looks != 4)")" 0 \
	"every boot posted records its look of 4 (an adaptive design under --post)"
is "$(sqlite3 "$DB" "select count(*) from (select e.host, count(*) n $NOOP_RUNS group by 1) where n > 4")" 0 \
	"no shard spent more than its budget of 4 boots"
like "$(grep -E 'look [0-9] of 4|done:' "$TMP_T/noop.log" | head -4)" "done:" "each shard asked its own documents and said what it did"
# shards on one machine keep apart archives: a shared decide.db had each shard
# decide from the other's documents, and their concurrent opens once lost a shard
for k in 1 2; do
	ddb=$(ls -d "$CACHE"/runs/noop-$$-*@shard-$k-*/decide.db 2>/dev/null | head -1)
	is "$([ -n "$ddb" ] && sqlite3 "$ddb" "select group_concat(distinct host) from environments")" "shard-$k" \
		"shard $k decides from its own archive (runs/<series>@shard-$k) and only its own documents"
done
stop_server
said_builds
done_testing
