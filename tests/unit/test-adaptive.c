/* The collector's side of the adaptive design: --budget, the accelerator plan,
 * and the jobs of a look built from an undecided answer. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "adaptive.h"
#include "analysis-json.h"
#include "budget.h"

static void budget(void)
{
	struct fw_budget b;
	char why[200];

	ok(!fw_budget_parse("45m", &b, why, sizeof(why)) && b.seconds == 2700 && !b.boots && !b.none, "45m is 2700 s");
	ok(!fw_budget_parse("2h", &b, why, sizeof(why)) && b.seconds == 7200, "2h");
	ok(!fw_budget_parse("600s", &b, why, sizeof(why)) && b.seconds == 600, "600s");
	ok(!fw_budget_parse("40boots", &b, why, sizeof(why)) && b.boots == 40 && b.seconds == 0, "40boots");
	ok(!fw_budget_parse("none", &b, why, sizeof(why)) && b.none, "none: a fixed design");
	ok(fw_budget_parse("45", &b, why, sizeof(why)) && strstr(why, "unit"), "a bare number has no unit: refused");
	ok(fw_budget_parse("-5m", &b, why, sizeof(why)), "negative refused");
	ok(fw_budget_parse("1.5boots", &b, why, sizeof(why)), "half a boot refused");
	ok(fw_budget_parse("m", &b, why, sizeof(why)) && strstr(why, "'m'"), "no number: refused, quoting the value");
	ok(fw_budget_parse("inf", &b, why, sizeof(why)), "inf refused");
	fw_budget_parse("10m", &b, why, sizeof(why));
	ok(fw_budget_allows(&b, 0, 0, 0), "nothing spent: a boot may start");
	ok(fw_budget_allows(&b, 400, 100, 4), "400 s for 4 boots: a fifth fits in 600 s");
	ok(!fw_budget_allows(&b, 550, 110, 5), "550 s for 5 boots: a sixth (110 s) would end after 600 s");
	ok(fw_budget_allows(&b, 400, 100, 8) && !fw_budget_allows(&b, 520, 100, 10),
	   "2 at once: 8 boots of 100 s in 400 s wall leave room for a ninth; at 520 s a boot would end after 600 s");
	fw_budget_parse("3boots", &b, why, sizeof(why));
	ok(fw_budget_allows(&b, 1e6, 1e6, 2) && !fw_budget_allows(&b, 0, 0, 3), "3boots: the fourth is refused");
	fw_budget_parse("none", &b, why, sizeof(why));
	ok(fw_budget_allows(&b, 1e9, 1e9, 100000), "none: the first round is never cut");
}

static void plan(void)
{
	struct fw_accel_group g[FW_ACCEL_GROUPS];
	int n;

	n = fw_accel_plan("split,mthp,lazyfree,filemap", "plan", 0, NULL, g);
	ok(n == 1 && g[0].accel == FW_ACCEL_ICOUNT && !strcmp(g[0].workloads.buf, "split,mthp,lazyfree,filemap"),
	   "plan without kvm: every measured workload on icount");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("split,newthing,lazyfree", "plan", 0, NULL, g);
	ok(n == 2 && g[0].accel == FW_ACCEL_ICOUNT && !strcmp(g[0].workloads.buf, "split,lazyfree") &&
		   g[1].accel == FW_ACCEL_TCG && !strcmp(g[1].workloads.buf, "newthing"),
	   "plan: a workload not measured under icount goes to tcg");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("mine,split,yours", "plan", 0, "lru-contention,mine", g);
	ok(n == 2 && g[0].accel == FW_ACCEL_ICOUNT && !strcmp(g[0].workloads.buf, "mine,split") &&
		   g[1].accel == FW_ACCEL_TCG && !strcmp(g[1].workloads.buf, "yours"),
	   "plan: a user workload asking for icount joins the table's, another goes to tcg");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("min,split", "plan", 0, "mine", g);
	ok(n == 2 && g[0].accel == FW_ACCEL_TCG && !strcmp(g[0].workloads.buf, "min"), "plan: icount_also matches whole names");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("split,newthing", "plan", 1, NULL, g);
	ok(n == 1 && g[0].accel == FW_ACCEL_KVM && !strcmp(g[0].workloads.buf, "split,newthing"), "plan with kvm: all on kvm");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("split,filemap", "auto", 0, NULL, g);
	ok(n == 1 && g[0].accel == FW_ACCEL_TCG, "auto without kvm: tcg, as before");
	fw_accel_plan_release(g, n);
	n = fw_accel_plan("split,filemap", "tcg", 1, NULL, g);
	ok(n == 1 && g[0].accel == FW_ACCEL_TCG && !strcmp(g[0].workloads.buf, "split,filemap"), "--accel tcg: all on tcg");
	fw_accel_plan_release(g, n);
	ok(fw_icount_suits("filemap") && !fw_icount_suits("file"), "the icount table matches whole names");
}

static void jobs(void)
{
	struct fw_patchset_commit c[3] = { { .sha = "aaaa" }, { .sha = "bbbb" }, { .sha = "cccc" } };
	struct fw_patchset s = { .commits = c, .nr = 3 };
	struct fw_accel_group g[FW_ACCEL_GROUPS];
	struct boot_job *j;
	int ng = fw_accel_plan("split,lazyfree,newthing", "plan", 0, NULL, g), n;
	struct fw_undecided *u = fw_undecided_from_json(cJSON_Parse(
		"{\"look\":1,\"commits\":["
		"{\"sha\":\"aaaa\",\"host\":\"me\",\"accel\":\"icount\",\"workloads\":["
		"  {\"workload\":\"lazyfree\",\"boots\":3,\"boots_next\":5},{\"workload\":\"split\",\"boots\":3,\"boots_next\":4}]},"
		"{\"sha\":\"bbbb\",\"host\":\"me\",\"accel\":\"icount\",\"workloads\":["
		"  {\"workload\":\"lazyfree\",\"boots\":3,\"boots_next\":4}]},"
		"{\"sha\":\"cccc\",\"host\":\"other\",\"accel\":\"icount\",\"workloads\":["
		"  {\"workload\":\"lazyfree\",\"boots\":3,\"boots_next\":6}]},"
		"{\"sha\":\"cccc\",\"host\":\"me\",\"accel\":\"kvm\",\"workloads\":["
		"  {\"workload\":\"lazyfree\",\"boots\":3,\"boots_next\":6}]},"
		"{\"sha\":\"dddd\",\"host\":\"me\",\"accel\":\"icount\",\"workloads\":["
		"  {\"workload\":\"lazyfree\",\"boots\":3,\"boots_next\":6}]},"
		"{\"sha\":\"bbbb\",\"host\":\"me\",\"accel\":\"tcg\",\"workloads\":["
		"  {\"workload\":\"newthing\",\"boots\":3,\"boots_next\":4},{\"workload\":\"split\",\"boots\":3,\"boots_next\":9}]}"
		"]}"));

	ok(u && u->look == 1 && u->ncommits == 6 && u->commits[0].nworkloads == 2 &&
	   u->commits[0].workloads[0].boots_next == 5, "the answer read, typed");

	n = fw_adaptive_jobs(u, &s, "me", g, ng, 2, &j);
	is_int(n, 4, "4 boots: base 2 (lazyfree twice, split once), p1 once per accelerator");
	if (n == 4) {
		ok(j[0].commit == 0 && !strcmp(j[0].workloads, "lazyfree,split") && j[0].boot == -1 && j[0].look == 2,
		   "base's first added boot runs both unsure workloads, at look 2, index to be found");
		ok(j[1].commit == 1 && j[1].group == 0 && !strcmp(j[1].workloads, "lazyfree"), "then p1 under icount");
		ok(j[2].commit == 1 && j[2].group == 1 && !strcmp(j[2].workloads, "newthing"),
		   "p1 under tcg runs only what tcg measures (split is not on tcg in this plan)");
		ok(j[3].commit == 0 && !strcmp(j[3].workloads, "lazyfree"), "turns over commits: base's second boot last");
	}
	free(j);
	fw_accel_plan_release(g, ng);
	fw_undecided_free(u);
	ok(fw_list_has("a,bc,d", "bc") && !fw_list_has("a,bc,d", "b") && !fw_list_has("", "a"), "list lookup by whole name");
}

int main(void)
{
	budget();
	plan();
	jobs();
	return done_testing();
}
