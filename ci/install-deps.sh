#!/bin/sh
# Installs everything foliowatch needs to build, test and run the demo on
# Debian 12. Idempotent: with --if-missing it does nothing when all is there.
# --list prints the Debian packages and exits (ci/check-exec-deps.py reads it:
# every program the tests run must come from one of them or from Essential).
set -eu

# build: compiler, pkg-config and the three libraries
DEB_BUILD="build-essential pkg-config libmicrohttpd-dev libsqlite3-dev libcjson-dev zlib1g-dev"
# kernel builds (linux-source-6.12 is the default tree) and guest boots
DEB_KERNEL="linux-source-6.12 flex bison bc libelf-dev libssl-dev cpio xz-utils lz4 kmod ccache git
            qemu-system-x86 fio e2fsprogs xfsprogs busybox-static"
# server, tests and benchmarks
DEB_TEST="gnuplot-nox sqlite3 jq curl perl openssl gnutls-bin python3-scipy wrk clang libclang-rt-14-dev
          valgrind nodejs chromium
          rsync strace llvm-14 cmark"
# lz4: the kernel's bzImage is LZ4-compressed (kernel/foliowatch.config: TCG unpacks it 3.5 s faster a boot);
# busybox-static: /bin/sh of a user workload written as a shell script, packed into the guest (issue 33);
# rsync: gitlab-ci-local's shell executor copies the project with it (t4200);
# strace: make test traces every execve for ci/check-exec-deps.py;
# cmark: a CommonMark parser renders report --format markdown (t2106);
# llvm-14: llvm-symbolizer-14, which libFuzzer and the sanitizers run (t6000)
PACKAGES="$DEB_BUILD $DEB_KERNEL $DEB_TEST"
if [ "${1:-}" = "--list" ]; then
	printf '%s\n' $PACKAGES
	exit 0
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	[ "${1:-}" = "--if-missing" ] || echo "install-deps: all Debian packages present"
else
	echo "install-deps: installing:$missing"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# npm packages for browser and CI-template tests live in tests/node (versions pinned in
# package.json and package-lock.json); reinstalled whenever the lock file changes.
# Debian's nodejs comes without npm (a clean Debian 12 root had none; this
# kind of machine ships Node.js with its own npm): Debian's npm when missing.
if [ -f tests/node/package.json ] && ! command -v npm >/dev/null; then
	echo "install-deps: installing: npm"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm
fi
if [ -f tests/node/package.json ]; then
	want=$(cat tests/node/package.json tests/node/package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)
	have=$(cat tests/node/node_modules/.fw-stamp 2>/dev/null || true)
	if [ "$want" != "$have" ]; then
		echo "install-deps: npm install in tests/node"
		(cd tests/node && npm install --no-audit --no-fund --loglevel=error) && echo "$want" > tests/node/node_modules/.fw-stamp
	fi
fi
