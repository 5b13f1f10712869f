#!/bin/sh
# make test's one kernel build graph: the default kernel first, then every
# patched kernel the kernel tests boot, each built incrementally from it in
# the default tree's one build folder (ccache on), as `run --mbox` builds it.
# Kernels are cached by tree content, so a test whose series gives the same
# tree (an mbox re-applied, a branch made with git am) boots without building;
# a test that still builds says so (tests/lib/kernel.sh: said_builds).
# Runs in the background from the start of make test, beside the quick tests.
# Usage: prebuild-kernels.sh COLLECT DONE  (stdout: the default kernel's
# bzImage). DONE gets the exit code when all is built: lane A waits for it,
# because a series run reads the default tree's HEAD as its base, and this
# script has the tree checked out at patches until it ends.
set -u
COLLECT=$1
DONE=$2
rm -f "$DONE"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fwprebuild.XXXXXX")
trap 'rc=$?; rm -rf "$TMP"; echo $rc >"$DONE"' EXIT
"$COLLECT" kernel || exit 1
CACHE=${FOLIOWATCH_CACHE:-$HOME/.cache/foliowatch}
TREE=$CACHE/src/linux-source-6.12
STAMPS=$CACHE/prebuilt
start=$(date +%s)
mbox() { # name patch...: the patches, in this order, as one mbox
	n=$1
	shift
	cat "$@" >"$TMP/$n.mbox"
	echo "$TMP/$n.mbox"
}
# The demo series first: its first patch changes include/linux/swap.h, which
# most of the kernel includes, so each move of the build folder between a
# tree with it and one without recompiles most of mm (ccache turns the second
# such move into cache hits, never the first). Demo first, then the trees
# without it: one cold rebuild and one move back. The series that fails to
# build (t4000) last: the folder then differs from the tests' own branches
# (t4600, t4610) in two small files only.
for m in \
	"$(mbox demo kernel/series/demo/*.patch)" \
	"$(mbox slow-filemap kernel/series/slow-filemap/*.patch)" \
	"$(mbox slow-split kernel/series/slow-split/*.patch)" \
	"$(mbox lazyfree kernel/series/demo/0002-*.patch)" \
	"$(mbox comment kernel/series/demo/0003-*.patch)" \
	"$(mbox watch kernel/series/demo/0003-*.patch kernel/series/demo/0002-*.patch)" \
	"$(mbox broken tests/data/series-broken/*.patch)"; do
	# a series built before onto the same tree with the same fragment, whose
	# kernels are all still there, is not applied again: on a warm cache the
	# git am and checkouts were the whole prebuild (286 s under make test's
	# load, lane A waiting); the kernels themselves are keyed by their trees
	key=$(cat "$m" kernel/foliowatch.config | sha256sum | cut -c1-16)-$(git -C "$TREE" rev-parse -q --verify master)
	if [ -s "$STAMPS/$key" ] && (while read -r k; do [ -f "$k" ] || exit 1; done <"$STAMPS/$key"); then
		echo "prebuild: $(basename "$m"): built before ($(wc -l <"$STAMPS/$key") kernels)" >&2
		continue
	fi
	echo "prebuild: $(basename "$m")" >&2
	# exit 1 when a commit does not build (t4000's fixture): its kernels are stamped all the same
	"$COLLECT" kernel --mbox "$m" >"$TMP/kernels"
	grep -q '/bzImage$' "$TMP/kernels" && mkdir -p "$STAMPS" && cp "$TMP/kernels" "$STAMPS/$key"
done
echo "prebuild: patched kernels in $(( $(date +%s) - start )) s" >&2
exit 0
