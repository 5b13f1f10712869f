#!/usr/bin/python3
"""Every program a test run executes must come from ci/install-deps.sh.

  check-exec-deps.py [--deps-script FILE] [--allow-dir DIR]... TRACE...

TRACE is `strace -f -e trace=execve,execveat -o TRACE` output of a test run,
or ci/exec-watch's log in the same form (`make test` writes
build/exec-trace-*.log). Each program executed, and the
interpreter named by its #! line, is mapped to the Debian package that owns
it (dpkg's file lists). A package is accounted for when install-deps.sh lists
it, when it is Essential, or when apt brings it as a Depends/Pre-Depends of
one of those. Programs in the project, its build and kernel cache, temporary
folders and node_modules (installed by install-deps.sh's npm step) are the
project's own. Anything else fails the check, naming the package and a
program that needed it: a machine that had the package installed by hand
stays green while a new machine fails (rsync for gitlab-ci-local did that).
"""
import glob
import os
import re
import subprocess
import sys

EXEC_RE = re.compile(r'^(\d+)\s+(?:execve|execveat)\((?:[^,]*, )?"((?:[^"\\]|\\.)*)"')
EXECVEAT_RE = re.compile(r'^(\d+)\s+execveat\(')
RESUMED_RE = re.compile(r'^(\d+)\s+<\.\.\. (?:execve|execveat) resumed>.*= 0$')


def unescape(s):
    return re.sub(r'\\([0-7]{1,3}|.)',
                  lambda m: chr(int(m.group(1), 8)) if m.group(1)[0] in '01234567'
                  else {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def traced_programs(paths):
    """Absolute and relative program paths that execve'd successfully."""
    progs = {}
    for trace in paths:
        pending = {}
        with open(trace, errors='replace') as f:
            for line in f:
                line = line.rstrip('\n')
                m = EXEC_RE.match(line)
                if m:
                    pid, path = m.group(1), unescape(m.group(2))
                    if EXECVEAT_RE.match(line) and not path.startswith('/'):
                        path = ''  # relative to a directory fd: not resolvable here
                    if line.endswith('<unfinished ...>'):
                        pending[pid] = path
                    elif re.search(r'= 0$', line):
                        progs.setdefault(path, 0)
                        progs[path] += 1
                    continue
                m = RESUMED_RE.match(line)
                if m and m.group(1) in pending:
                    path = pending.pop(m.group(1))
                    progs[path] = progs.get(path, 0) + 1
    progs.pop('', None)
    return progs


def dpkg_owners():
    owner = {}
    for lst in glob.glob('/var/lib/dpkg/info/*.list'):
        pkg = os.path.basename(lst)[:-5].split(':')[0]
        with open(lst, errors='replace') as f:
            for p in f:
                owner.setdefault(p.rstrip('\n'), pkg)
    return owner


def dpkg_status():
    """name -> fields of every installed package."""
    pkgs, cur = {}, {}
    key = None
    with open('/var/lib/dpkg/status', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                if cur.get('Package') and 'installed' in cur.get('Status', '').split()[-1:]:
                    pkgs[cur['Package']] = cur
                cur, key = {}, None
            elif line[0] in ' \t' and key:
                cur[key] += ' ' + line.strip()
            elif ':' in line:
                key, _, val = line.partition(':')
                cur[key] = val.strip()
    if cur.get('Package') and 'installed' in cur.get('Status', '').split()[-1:]:
        pkgs[cur['Package']] = cur
    return pkgs


def dep_closure(roots, pkgs):
    """roots plus what apt installs for them: Depends and Pre-Depends, recursively
    (of alternatives, the first one installed; virtual names through Provides)."""
    provides = {}
    for name, fields in pkgs.items():
        for prov in fields.get('Provides', '').split(','):
            prov = prov.strip().split(' ')[0].split(':')[0]
            if prov:
                provides.setdefault(prov, name)
    via = {r: None for r in roots if r in pkgs}
    todo = list(via)
    while todo:
        name = todo.pop()
        deps = pkgs[name].get('Pre-Depends', '') + ',' + pkgs[name].get('Depends', '')
        for group in deps.split(','):
            for alt in group.split('|'):
                dep = alt.strip().split(' ')[0].split(':')[0]
                if not dep:
                    continue
                real = dep if dep in pkgs else provides.get(dep)
                if real:
                    if real not in via:
                        via[real] = name
                        todo.append(real)
                    break
    return via


def listed_packages(script):
    out = subprocess.run(['sh', script, '--list'], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def usrmerge_variants(path):
    out = [path]
    for a, b in (('/usr/bin/', '/bin/'), ('/usr/sbin/', '/sbin/'), ('/usr/lib/', '/lib/'),
                 ('/usr/lib64/', '/lib64/')):
        if path.startswith(a):
            out.append(b + path[len(a):])
        elif path.startswith(b):
            out.append(a + path[len(b):])
    return out


_REAL_OWNER = {}


def owner_of(path, owner):
    cands = [path]
    if os.path.exists(path):
        cands.append(os.path.realpath(path))
        cands.append(os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path)))
    for c in cands:
        for v in usrmerge_variants(c):
            if v in owner:
                return owner[v]
    # A resolved path (ci/exec-watch logs the file opened, symlinks resolved:
    # /usr/lib32/ld-linux.so.2 where dpkg lists /lib32/ld-linux.so.2): match
    # it against the resolved paths of what dpkg lists, built once.
    if not os.path.exists(path):
        return None
    if not _REAL_OWNER:
        for p, pkg in owner.items():
            if os.path.exists(p) and not os.path.isdir(p):
                _REAL_OWNER.setdefault(os.path.realpath(p), pkg)
    return _REAL_OWNER.get(os.path.realpath(path))


def interpreter(path):
    try:
        with open(path, 'rb') as f:
            head = f.readline(256)
    except OSError:
        return None
    if not head.startswith(b'#!'):
        return None
    words = head[2:].decode(errors='replace').split()
    return words[0] if words else None


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, 'install-deps.sh')
    own = [os.path.dirname(here), '/tmp', os.environ.get('TMPDIR', '/tmp'),
           os.environ.get('FOLIOWATCH_CACHE', os.path.expanduser('~/.cache/foliowatch'))]
    traces = []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '--deps-script':
            script = args.pop(0)
        elif a == '--allow-dir':
            own.append(args.pop(0))
        else:
            traces.append(a)
    if not traces:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    own = [os.path.realpath(d) for d in own if d]

    progs = traced_programs(traces)
    if not progs:
        print('check-exec-deps: no successful execve in %s: was the run traced?' % ' '.join(traces),
              file=sys.stderr)
        return 1
    # Interpreters of scripts run directly (the kernel starts them, strace sees only the script).
    for path in list(progs):
        if path.startswith('/'):
            interp = interpreter(path)
            if interp and interp not in progs:
                progs[interp] = 0

    owner, pkgs = dpkg_owners(), dpkg_status()
    listed = listed_packages(script)
    essential = {n for n, f in pkgs.items() if f.get('Essential') == 'yes'}
    allowed = dep_closure(listed | essential, pkgs)
    missing_listed = sorted(p for p in listed if p not in pkgs)

    used, local, unowned = {}, 0, []
    for path, n in sorted(progs.items()):
        if not path.startswith('/') or path.startswith(('/proc/', '/dev/fd/')):
            local += 1  # relative (project scripts, kernel tree) or a re-exec of itself
            continue
        pkg = owner_of(path, owner)
        if pkg:
            used.setdefault(pkg, []).append(path)
            continue
        real = os.path.realpath(path)
        if any(real == d or real.startswith(d + '/') for d in own) or '/node_modules/' in real:
            local += 1
            continue
        unowned.append(path)

    bad = sorted(p for p in used if p not in allowed)
    print('check-exec-deps: %d programs executed (%d of the project), from %d Debian packages'
          % (len(progs), local, len(used)))
    for pkg in sorted(used):
        how = ('listed' if pkg in listed else 'Essential' if pkg in essential
               else 'via ' + str(allowed[pkg]) if pkg in allowed else 'NOT IN install-deps.sh')
        print('  %-28s %-24s %s' % (pkg, how, ' '.join(sorted(used[pkg])[:3])))
    rc = 0
    for pkg in bad:
        print('check-exec-deps: %s is used (%s) but neither installed by %s nor Essential'
              % (pkg, ', '.join(sorted(used[pkg])[:3]), script), file=sys.stderr)
        rc = 1
    for path in unowned[:10]:
        print('check-exec-deps: %s was executed but belongs to no Debian package and is not the project\'s'
              % path, file=sys.stderr)
        rc = 1
    if len(unowned) > 10:
        print('check-exec-deps: ... and %d more such programs' % (len(unowned) - 10), file=sys.stderr)
    if missing_listed:
        print('check-exec-deps: note: listed but not installed here: %s' % ' '.join(missing_listed),
              file=sys.stderr)
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
