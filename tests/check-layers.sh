#!/bin/sh
# make check-layers: the layering of the C folders is real.
#
#   lib/ <- schema/ <- analysis/ <- server/, collector/   (never server <-> collector)
#   kernel/guest/ and tests/data/: lib/ only (crc32)
#
# 1. Headers: for each folder, probe files are compiled with exactly the flags
#    the Makefile gives that folder's sources (FW_LAYER_<folder>, exported by
#    the check-layers target). An include across a forbidden layer must fail
#    with "header not found"; an allowed include must compile, so a broken
#    probe or broken flags cannot pass for a good layering.
# 2. Symbols: the objects of each folder (FW_OBJ_<folder>) must not
#    use a symbol that only a folder above or beside it defines (a prototype
#    written by hand would get past the headers), and lib/ must not use
#    sqlite, cJSON or libmicrohttpd, nor schema/, analysis/ or collector/ use
#    libmicrohttpd.
set -u
: "${FW_CC:?run through make check-layers}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fw-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# probe FOLDER ok|no HEADER: compile '#include "HEADER"' with FOLDER's flags.
probe() {
	folder=$1 want=$2 hdr=$3
	eval "flags=\${FW_LAYER_$folder:?no flags for $folder}"
	n=$((n + 1))
	printf '#include "%s"\nint fw_layer_probe(void);\nint fw_layer_probe(void) { return 0; }\n' "$hdr" >"$tmp/probe.c"
	if eval "$FW_CC $flags -c \"\$tmp/probe.c\" -o \"\$tmp/probe.o\"" >"$tmp/log" 2>&1; then
		[ "$want" = ok ] && return 0
		echo "check-layers: FAIL: $folder/ can include \"$hdr\" (a forbidden layer)"
	elif [ "$want" = ok ]; then
		echo "check-layers: FAIL: $folder/ cannot include \"$hdr\" (allowed: the probe or the flags are broken)"
		sed 's/^/    /' "$tmp/log" | head -5
	elif grep -q "$hdr.*\(No such file\|not found\)" "$tmp/log"; then
		return 0
	else
		echo "check-layers: FAIL: $folder/ \"$hdr\" failed for another reason than a missing header"
		sed 's/^/    /' "$tmp/log" | head -5
	fi
	fail=1
}

# One header of each folder, named only there: lib strbuf.h crc32.h, schema
# fw-db.h run-doc.h, analysis stats.h analysis.h, server http.h routes.h ui.h,
# collector measure.h resultchan.h run-doc-build.h.
probe lib ok strbuf.h
probe lib ok crc32.h
for h in fw-db.h run-doc.h stats.h http.h measure.h; do probe lib no $h; done

probe schema ok fw-db.h
probe schema ok strbuf.h
for h in stats.h analysis.h http.h routes.h measure.h resultchan.h; do probe schema no $h; done

probe analysis ok stats.h
probe analysis ok fw-db.h
probe analysis ok strbuf.h
for h in http.h routes.h ui.h measure.h run-doc-build.h; do probe analysis no $h; done

probe server ok http.h
probe server ok analysis.h
probe server ok fw-db.h
probe server ok strbuf.h
for h in measure.h resultchan.h run-doc-build.h kernel-build.h; do probe server no $h; done

probe collector ok measure.h
probe collector ok analysis.h
probe collector ok fw-db.h
probe collector ok strbuf.h
for h in http.h routes.h ui.h; do probe collector no $h; done

probe guest ok crc32.h
for h in fw-db.h stats.h http.h measure.h; do probe guest no $h; done

# Symbols, of the objects the Makefile builds from each folder's sources
# (FW_OBJ_<folder>; not a glob of build/obj, which may hold objects of files
# since moved). defs FOLDER: the global symbols its objects define.
objs() { eval "printf '%s\n' \${FW_OBJ_$1:?no objects for $1}"; }
for f in lib schema analysis server collector; do
	for o in $(objs $f); do
		[ -f "$o" ] && continue
		echo "check-layers: FAIL: $o missing (build first)"
		exit 1
	done
done
defs() {
	# shellcheck disable=SC2046
	nm -g --defined-only $(objs "$1") | awk 'NF == 3 { print $3 }' | sort -u
}
# uses FOLDER FORBIDDEN-FOLDERS [EXTRA-REGEX]: symbols FOLDER uses that only they define.
uses() {
	folder=$1 above=$2 extra=${3:-}
	n=$((n + 1))
	# shellcheck disable=SC2046
	nm -g -u $(objs "$folder") | awk 'NF { print $NF }' | sort -u >"$tmp/und"
	: >"$tmp/bad"
	for f in $above; do
		defs "$f" >"$tmp/def"
		comm -12 "$tmp/und" "$tmp/def" | sed "s|\$| (defined in $f/)|" >>"$tmp/bad"
	done
	[ -n "$extra" ] && grep -E "$extra" "$tmp/und" | sed 's|$| (a library not for this layer)|' >>"$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		echo "check-layers: FAIL: $folder/ uses symbols of a layer it must not see:"
		sed 's/^/    /' "$tmp/bad"
		fail=1
	fi
}
uses lib "schema analysis server collector" '^(sqlite3_|cJSON_|MHD_)'
uses schema "analysis server collector" '^MHD_'
uses analysis "server collector" '^MHD_'
uses server "collector"
uses collector "server" '^MHD_'

# 3. SQL lives in schema/ (issue 28): no object above it calls sqlite3_*, and
#    no source above it holds SQL text (a statement written there would be
#    prepared through some other door); reads go through the store (store.h).
for folder in analysis server collector; do
	for o in $(objs "$folder"); do
		src=$folder/$(basename "$o" .o).c
		n=$((n + 1))
		calls=$(nm -u "$o" | awk '$NF ~ /^sqlite3_/ { print $NF }' | sort -u | tr '\n' ' ')
		if [ -n "$calls" ]; then
			echo "check-layers: FAIL: $src calls SQLite outside schema/ ($calls): read through the store (schema/store.h)"
			fail=1
		fi
	done
	n=$((n + 1))
	sql=$(grep -nE '"[^"]*\b(SELECT|INSERT INTO|UPDATE [a-z_]+ SET|DELETE FROM|CREATE (TABLE|INDEX)|PRAGMA)\b' \
		"$folder"/*.c "$folder"/*.h 2>/dev/null)
	if [ -n "$sql" ]; then
		echo "check-layers: FAIL: SQL text in $folder/ (it belongs in schema/):"
		printf '%s\n' "$sql" | sed 's/^/    /' | head -5
		fail=1
	fi
done

# 4. The analysis is read typed (issue 28): analysis.h and an-result.h name no
#    cJSON type, and only the objects below take JSON from the analysis (the
#    doors of analysis-json.h). Each is at the JSON edge: it builds an answer,
#    a payload or a file format from the analysis' JSON, or reads a JSON
#    output that has no typed reader yet (named). Everyone else reads struct
#    fw_an. An object that uses a door and is not listed fails, and so does a
#    listed one that no longer uses any (the list only shrinks).
n=$((n + 1))
if grep -n 'cJSON' analysis/analysis.h analysis/an-result.h >"$tmp/cj"; then
	echo "check-layers: FAIL: the analysis' public headers name cJSON (its JSON belongs in analysis-json.h):"
	sed 's/^/    /' "$tmp/cj" | head -5
	fail=1
fi
doors='^(fw_an_json|fw_an_row_json|fw_an_from_json|fw_an_function_read|fw_regs_json|fw_reg_json|fw_regs_from_json|fw_reg_read|fw_prof_diff_from_json|fw_undecided_from_json|fw_regressions_list|fw_regression_get|fw_analysis_undecided|fw_profile_diff|fw_profile_attribution)$'
json_edge='
server/api-feed         the Atom feed (stored regressions, as JSON entries)
server/api-profile      the profile answer (fw_profile_diff JSON), and its typed form for the page and plot
server/cmd-undecided    undecided (prints its JSON)
server/regression-json   a stored event payload or a feed entry (the list JSON shape) into the API regression object
server/regression-profile the regression answer (copies the row attribution)
'
for folder in server collector; do
	for o in $(objs "$folder"); do
		name=$folder/$(basename "$o" .o)
		n=$((n + 1))
		used=$(nm -u "$o" | awk '{ print $NF }' | grep -E "$doors" | tr '\n' ' ')
		listed=$(printf '%s\n' "$json_edge" | awk -v f="$name" '$1 == f { print "yes" }')
		if [ -n "$used" ] && [ -z "$listed" ]; then
			echo "check-layers: FAIL: $name.c takes the analysis' JSON ($used): read struct fw_an (analysis.h), or list it as an edge here"
			fail=1
		elif [ -z "$used" ] && [ -n "$listed" ]; then
			echo "check-layers: FAIL: $name.c is listed as a JSON edge of the analysis but uses none of its doors: drop it from the list"
			fail=1
		fi
	done
done

if [ $fail = 0 ]; then
	echo "check-layers: ok ($n checks)"
fi
exit $fail
