/*
 * The commit page's bar plot of a profile diff (issue 13): one bar per
 * function, its change in self time (total where self was not measured), red
 * where it grew, green where it shrank. Function names are kernel symbols
 * (validated to [A-Za-z0-9_.]) and still go through fw_plot_label into quoted
 * data: the script is constants and numbers only.
 */
#include <math.h>
#include <string.h>
#include "analysis.h"
#include "plot.h"

static const char script_fmt[] =
	"set terminal svg size %d,%d font 'sans,%d' noenhanced background rgb 'white'\n"
	"set border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\n"
	"set ylabel 'change in microseconds (head - base)'\nset key off\n"
	"set xrange [-0.6:%d.4]\nset xzeroaxis lt -1\n"
	"set style fill solid 0.8 noborder\nset boxwidth 0.7\n"
	"set xtics rotate by -35 left\nset lmargin 12\nset bmargin %d\n"
	"plot 'data' index 'deltas' using 0:2:3:xtic(4) with boxes lc rgb variable\n";

int fw_plot_profile(const char *cache_dir, const struct fw_prof_diff *diff, struct strbuf *path, char etag[72],
		    int *rendered, struct strbuf *err)
{
	const struct fw_prof_variant *v = diff->nvariants ? &diff->variants[0] : NULL;
	struct strbuf data = STRBUF_INIT, script = STRBUF_INIT;
	int n = 0, ret;

	strbuf_addstr(&data, "# deltas\n");
	for (size_t i = 0; v && i < v->nfunctions; i++) {
		const struct fw_an_function *f = &v->functions[i];
		double dv = fw_attribution_uses_self(f) ? f->delta.self_us : f->delta.time_us;

		if (n >= FW_PLOT_PROFILE_BARS || !isfinite(dv))
			continue;
		strbuf_addf(&data, "%d %.17g %d \"", n, dv, dv > 0 ? 0xc62828 : 0x2e7d32);
		fw_plot_label(&data, f->function, 48);
		strbuf_addstr(&data, fw_attribution_uses_self(f) ? "" : " (total)");
		strbuf_addstr(&data, "\"\n");
		n++;
	}
	if (!n) {
		strbuf_release(&data);
		return 1;
	}
	strbuf_addf(&script, script_fmt, 200 + 60 * (n < 6 ? 6 : n), 420, FW_PLOT_FONT_PROFILE, n - 1, 12);
	ret = fw_plot_render(cache_dir, &script, &data, 0, path, etag, rendered, err);
	strbuf_release(&data);
	strbuf_release(&script);
	return ret;
}
