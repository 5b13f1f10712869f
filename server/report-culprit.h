#ifndef FW_REPORT_CULPRIT_H
#define FW_REPORT_CULPRIT_H
#include <cjson/cJSON.h>
#include "report-email.h"
#include "strbuf.h"
#include "an-result.h"

/*
 * report --format email --regression ID: an LKP-style mail about one stored
 * regression (issue 30), as the 0-day robot sends them: a new thread, a
 * subject naming the series, the commit and the change; the Before/After
 * tables of the commit against its parent (with %stddev, the counters that
 * moved and the kernel functions whose cost moved), how it was found (the
 * bisect, when one moved it there), the command that measures the same
 * comparison, links and the trailers a fix can carry. Lines under 79
 * columns. series: the analysis of its series; facts: fw_mail_facts;
 * g: the regression (fw_regression_get); bisect: its record as the API
 * gives it, or NULL. to_author: To is the commit's author only (else o->to,
 * required). 0, or -1 with err.
 */
int fw_report_culprit_email(const struct fw_an *series, const cJSON *facts, const struct fw_reg *g, const cJSON *bisect,
			    const struct fw_email_opts *o, int to_author, struct strbuf *out, struct strbuf *err);

#endif
