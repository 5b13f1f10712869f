#!/bin/sh
# Collector per-boot overhead against the workloads' own time, from a DB the
# collector filled (default: the demo's foliowatch.db): for every booted run,
# QEMU's wall time minus the guest's "workload X: done in S s" lines (from the
# stored console tail) is overhead: QEMU start, kernel boot, initramfs, mounts,
# reboot. Build time is excluded (it is compiling). Target: under 10%.
# Only meaningful for tcg/kvm runs (under icount the guest's clock is virtual).
set -eu
DB=${1:-foliowatch.db}
[ -f "$DB" ] || { echo "collector-overhead: no DB $DB (run make demo first)"; exit 0; }
sqlite3 -separator '|' "$DB" "select r.id, r.boot_seconds, replace(r.boot_log_tail, char(10), '~')
	from runs r join environments e on e.id = r.env_id
	where r.boot_status = 'ok' and e.accel != 'icount' and r.boot_seconds is not null" |
awk -F'|' '{
	n = split($3, lines, "~"); w = 0
	for (i = 1; i <= n; i++)
		if (match(lines[i], /: done in [0-9.]+ s/)) {
			s = substr(lines[i], RSTART + 9); sub(/ s.*/, "", s); w += s
		}
	if (w > 0) { boots++; wall += $2; work += w }
} END {
	if (!boots) { print "collector-overhead: no TCG/KVM boots with workload times in the DB"; exit 0 }
	printf "collector-overhead: %d boots, wall %.1f s, workloads %.1f s, overhead %.1f s per boot = %.1f%% of workload time (target < 10%%)\n",
		boots, wall, work, (wall - work) / boots, 100 * (wall - work) / work
}'
