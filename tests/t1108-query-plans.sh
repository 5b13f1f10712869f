#!/bin/bash
# No query scans a whole big table (issue 31: at 10,000 commits one such query
# took the first analysis from minutes to hours). FW_SQL_PLANS=FILE makes every
# connection log each statement it runs, once, with its EXPLAIN QUERY PLAN
# (schema/sql-plans.c). On a small watched history given the statistics of the
# 1,000-commit bench history (sqlite_stat1 as ANALYZE wrote it there: 1.44 M
# samples, 480,000 results, 2.88 M counters), the analysis, a regressions
# refresh, a crawl of every page and API answer, and the CSV run; then no plan
# may SCAN samples, results or counters (a SEARCH through an index is a lookup).
# The check fails on the same statements once runs_by_commit is dropped.
. tests/lib/tap.sh
. tests/lib/server.sh
specs=$(step_specs 40 20)   # a +10% step at position 20
# shellcheck disable=SC2086
FW_GEN_WATCHED=1 gen_sealed "$TMP_T/gen" hist tcg 4 $specs || bail gen
DB=$TMP_T/fw.db
"$SERVER" import -q --db "$DB" "$TMP_T"/gen/*.sealed || bail import
# the big history's statistics (the planner reads them when a connection opens)
sqlite3 "$DB" "ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl IN ('counters', 'samples', 'commits', 'runs', 'results', 'builds');
INSERT INTO sqlite_stat1 VALUES
 ('counters', 'counters', '2880000 6 2 1'), ('samples', 'samples', '1440000 3 1'),
 ('commits', 'commits_by_position', '1000 200 1'), ('commits', 'sqlite_autoindex_commits_1', '1000 200 1'),
 ('builds', 'sqlite_autoindex_builds_1', '1000 1 1 1'), ('runs', 'runs_by_env_build', '12000 12000 12'),
 ('runs', 'runs_by_commit', '12000 12'), ('runs', 'sqlite_autoindex_runs_1', '12000 1'),
 ('results', 'results_by_metric', '480000 120000 60000 12000'),
 ('results', 'sqlite_autoindex_results_1', '480000 40 10 5 1');" || bail "statistics"

# scans FILE: the statements whose plan scans samples, results or counters (under
# whatever alias the statement gives them), a line each; the count last.
scans() {
	"$PY" - "$1" <<'PY'
import re, sys
big = ("samples", "results", "counters")
n, sql, names = 0, "", set()
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("SQL "):
        sql = line[4:]
        names = set()
        for m in re.finditer(r"\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?", sql, re.I):
            if m.group(1) in big:
                alias = m.group(2)
                keyword = alias and alias.upper() in ("ON", "WHERE", "JOIN", "LEFT", "INNER", "CROSS", "GROUP",
                                                      "ORDER", "LIMIT", "USING", "NATURAL", "UNION")
                names.add(alias if alias and not keyword else m.group(1))
    elif line.startswith("PLAN SCAN "):
        what = line[10:].split(" ")[0]
        if what in names:
            n += 1
            print("scan of %s: %s" % (what, sql[:300]))
print(n)
PY
}

exercise() { # exercise DB LOG: every read path, with plans logged to LOG
	local db=$1
	export FW_SQL_PLANS=$2
	"$SERVER" report --db "$db" --series hist --format json --no-cache > "$TMP_T/report.json" || return 1
	"$SERVER" regressions --db "$db" > /dev/null 2>&1
	start_server "$db" || return 1
	echo '[]' > "$TMP_T/corpus.json"
	"$PY" tests/lib/crawl.py "$URL" "$TMP_T/corpus.json" 200 > "$TMP_T/crawl.txt"
	curl -sf "$URL/api/v1/series/hist.csv" > /dev/null
	curl -sf "$URL/api/v1/trend?series=hist&metric=split/pmd-to-0/split_ms" > /dev/null
	stop_server
	unset FW_SQL_PLANS
}

cp "$DB" "$TMP_T/noindex.db"
exercise "$DB" "$TMP_T/plans.log" || bail "the read paths did not run"
like "$(tail -1 "$TMP_T/crawl.txt")" "^requests [0-9]+ problems 0" "the crawl ran clean"
statements=$(grep -c '^SQL ' "$TMP_T/plans.log")
ok "$([ "$statements" -ge 40 ]; echo $?)" "statements logged with their plans: $statements"
like "$(grep -A8 '^SQL .* FROM samples s JOIN results res' "$TMP_T/plans.log")" "PLAN SEARCH (s|res) USING" \
	"the analysis reads its samples through an index"
# The CSV streams a history in its indexes' order: no sort of every sample first.
csv_plan=$(awk '/^SQL / { p = index($0, "SELECT c.position, c.sha, res.workload") == 5 } p && /^PLAN /' "$TMP_T/plans.log")
like "$csv_plan" "SEARCH s USING PRIMARY KEY" "the CSV's statement was logged with its plan"
unlike "$csv_plan" "TEMP B-TREE" "... and it sorts nothing (streamed in index order)"
# The decided rows (the regressions page, the feeds, a regression's profile)
# through their own index, not a scan of every row of the key with its body.
grep -q '"SELECT body FROM analysis_rows INDEXED BY analysis_rows_decided WHERE key = ?1 "' schema/store-analysis-rows.c &&
	grep -q '"AND decided = 1 AND position BETWEEN ?2 AND ?3 AND ?5 = 1 ORDER BY position, seq"' schema/store-analysis-rows.c
ok $? "the statement below is the one schema/store-analysis-rows.c runs for decided rows"
decided_plan=$(sqlite3 "$DB" "EXPLAIN QUERY PLAN SELECT body FROM analysis_rows INDEXED BY analysis_rows_decided
	WHERE key = 'series:1' AND decided = 1 AND position BETWEEN 0 AND 99 AND 1 = 1 ORDER BY position, seq")
like "$decided_plan" 'SEARCH analysis_rows USING INDEX analysis_rows_decided \(key=\? AND position>\? AND position<\?\)' \
	"... a range of their partial index"
unlike "$decided_plan" 'TEMP B-TREE' "... in order, no sort"
scans "$TMP_T/plans.log" > "$TMP_T/scans.txt"
sed '$d' "$TMP_T/scans.txt" | sed 's/^/# /'
is "$(tail -1 "$TMP_T/scans.txt")" 0 "no statement scans samples, results or counters"

# the check can fail: without the index from a commit to its runs, the same paths scan
sqlite3 "$TMP_T/noindex.db" "DROP INDEX runs_by_commit" || bail "drop index"
exercise "$TMP_T/noindex.db" "$TMP_T/plans2.log" || bail "the read paths did not run without the index"
scans "$TMP_T/plans2.log" > "$TMP_T/scans2.txt"
sed '$d' "$TMP_T/scans2.txt" | cut -c1-160 | sed 's/^/# /'
ok "$([ "$(tail -1 "$TMP_T/scans2.txt")" -gt 0 ]; echo $?)" \
	"without runs_by_commit the check finds scans: $(tail -1 "$TMP_T/scans2.txt")"
done_testing
