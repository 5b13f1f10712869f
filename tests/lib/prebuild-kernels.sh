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
	echo "prebuild: $(basename "$m")" >&2
	"$COLLECT" kernel --mbox "$m" >/dev/null
done
echo "prebuild: patched kernels in $(( $(date +%s) - start )) s" >&2
exit 0
