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

if [ $fail = 0 ]; then
	echo "check-layers: ok ($n checks)"
fi
exit $fail
