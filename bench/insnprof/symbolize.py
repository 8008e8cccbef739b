#!/usr/bin/env python3
"""Symbolize the counts of the insnprof plugin (make bench-insns).

usage: symbolize.py OUTDIR [--top N] [--listing ROW FUNC]

OUTDIR holds counts.txt (the plugin's out=FILE), windows and maps (written
by insn_ops in the guest) and kallsyms (the guest's /proc/kallsyms, module
symbols included).  Prints, per row (window): instructions, TB executions,
atomics and syscalls per call, split by where they ran (driver, libacl_rt,
libc, kernel groups, the npu_sim module); the TCG-relevant instructions; the
top functions; and what each row adds over its baseline ("null ioctl", or
"null ioctl x2" for the rows of two syscalls).  --listing prints every
instruction of FUNC in ROW with its executions per call.

Counts per call = window counts / N.  Whole numbers are exact (the same on
every run); a fraction comes from interrupts (the timer) landing in the
window.  Needs python3 and binutils (nm, readelf) only.
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys


def read_windows(d):
    wins = {}
    with open(os.path.join(d, 'windows')) as f:
        for line in f:
            i, n, name = line.rstrip('\n').split('\t')
            wins[int(i)] = (name, int(n))
    return wins


def read_kallsyms(d):
    syms = []
    with open(os.path.join(d, 'kallsyms')) as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or p[1] not in 'tTwW' or int(p[0], 16) == 0:
                continue
            syms.append((int(p[0], 16), p[2] + (' ' + p[3] if len(p) > 3 else '')))
    if not syms:
        sys.exit('symbolize: no kernel addresses in kallsyms (kptr_restrict?)')
    syms.sort()
    return syms


def read_counts(d):
    """B lines: TB code; T lines: executions per window; W lines: totals."""
    tbs, execs = {}, collections.defaultdict(list)
    with open(os.path.join(d, 'counts.txt')) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == 'B':
                va = int(p[2], 16)
                code = bytes.fromhex(p[4]) if len(p) > 4 else b''
                insns, off = [], 0
                for n in (int(x) for x in p[3].split(',')):
                    insns.append((va + off, code[off:off + n]))
                    off += n
                tbs[int(p[1])] = (va, insns)
            elif p[0] == 'T':
                execs[int(p[1])].append((int(p[3]), int(p[7])))
    return tbs, execs


class Symbols:
    """Address -> (where, function): kernel from kallsyms, user from maps + nm."""

    def __init__(self, d):
        self.ksyms = read_kallsyms(d)
        self.kaddr = [a for a, _ in self.ksyms]
        self.maps, self.dsos, self.cache = [], {}, {}
        with open(os.path.join(d, 'maps')) as f:
            for line in f:
                p = line.split()
                if len(p) < 6 or 'x' not in p[1]:
                    continue
                s, e = (int(x, 16) for x in p[0].split('-'))
                self.maps.append((s, e, int(p[2], 16), p[5]))
                if p[5] not in self.dsos:
                    self.dsos[p[5]] = self.elf_syms(p[5])

    @staticmethod
    def elf_syms(path):
        if not os.path.isfile(path):
            return [], [], False
        out = {}
        for args in (['nm', '-n', '--defined-only'], ['nm', '-D', '-n', '--defined-only']):
            r = subprocess.run(args + [path], capture_output=True, text=True).stdout
            for line in r.splitlines():
                p = line.split()
                if len(p) >= 3 and p[1] in 'tTwWiI':
                    out.setdefault(int(p[0], 16), p[2])
        hdr = subprocess.run(['readelf', '-h', path], capture_output=True, text=True).stdout
        is_exec = re.search(r'Type:\s+EXEC', hdr) is not None
        syms = sorted(out.items())
        return syms, [a for a, _ in syms], is_exec

    @staticmethod
    def short(path):
        b = os.path.basename(path)
        if b.startswith('libacl_rt'):
            return 'libacl_rt'
        if b.startswith('libc.so') or b.startswith('ld-linux'):
            return 'libc'
        if b.startswith('['):
            return b
        return 'app'

    def __call__(self, a):
        r = self.cache.get(a)
        if r:
            return r
        if a >= 1 << 63:
            i = bisect.bisect_right(self.kaddr, a) - 1
            r = ('kernel', self.ksyms[i][1] if i >= 0 else '%#x' % a)
        else:
            r = ('user?', '%#x' % a)
            for s, e, off, path in self.maps:
                if s <= a < e:
                    syms, addrs, is_exec = self.dsos[path]
                    rel = a if is_exec else a - s + off
                    i = bisect.bisect_right(addrs, rel) - 1
                    r = (self.short(path), syms[i][1] if i >= 0 else '?')
                    break
        self.cache[a] = r
        return r


PREFIXES = {0xf0, 0xf2, 0xf3, 0x2e, 0x36, 0x3e, 0x26, 0x64, 0x65, 0x66, 0x67}
OF_0F01 = {0xf8: 'swapgs', 0xca: 'clac', 0xcb: 'stac', 0xf9: 'rdtscp', 0xd0: 'xgetbv'}


def classify(b):
    """The kinds of instruction that cost TCG more than their count says."""
    i, lock = 0, False
    while i < len(b) and b[i] in PREFIXES:
        lock |= b[i] == 0xf0
        i += 1
    if i < len(b) and b[i] & 0xf0 == 0x40:
        i += 1
    op = b[i:i + 3]
    if not op:
        return None
    modrm = op[1] if len(op) > 1 else 0
    reg = (modrm >> 3) & 7
    if lock or (op[0] in (0x86, 0x87) and len(op) > 1 and modrm >> 6 != 3):
        return 'atomic'
    if op[0] in (0xc3, 0xc2):
        return 'ret'
    if op[0] == 0xff and len(op) > 1 and reg in (2, 3):
        return 'icall'
    if op[0] == 0xff and len(op) > 1 and reg in (4, 5):
        return 'ijmp'
    if op[0] in (0xa4, 0xa5, 0xaa, 0xab, 0xa6, 0xa7, 0xae, 0xaf) and \
            any(x in (0xf2, 0xf3) for x in b[:i]):
        return 'rep-string(iter)'
    simple = {0x9c: 'pushf', 0x9d: 'popf', 0xfa: 'cli', 0xfb: 'sti'}
    if op[0] in simple:
        return simple[op[0]]
    if op[0] != 0x0f or len(op) < 2:
        return None
    o, m = op[1], (op[2] if len(op) > 2 else 0)
    simple0f = {0x05: 'syscall', 0x07: 'sysret', 0x30: 'wrmsr', 0x32: 'rdmsr',
                0x31: 'rdtsc', 0xa2: 'cpuid'}
    if o in simple0f:
        return simple0f[o]
    if o == 0x22:
        return 'mov-to-cr%d' % ((m >> 3) & 7)
    if o == 0x01:
        if m in OF_0F01:
            return OF_0F01[m]
        return 'invlpg' if (m >> 3) & 7 == 7 and m >> 6 != 3 else None
    if o == 0x00 and (m >> 3) & 7 == 5:
        return 'verw'
    if o == 0xae:
        fences = {0xe8: 'lfence', 0xf0: 'mfence', 0xf8: 'sfence'}
        if m in fences:
            return fences[m]
        if m >> 6 != 3 and (m >> 3) & 7 in (4, 5):
            return 'xsave/xrstor'
    if o == 0xc7 and m >> 6 != 3 and (m >> 3) & 7 in (3, 4, 5):
        return 'xsave/xrstor'
    return None


KERNEL_GROUPS = [
    ('k:npu_sim', r'.*\[npu_sim\]$'),
    ('k:xarray', r'(xa_|xas_|__xa)'),
    ('k:list checks', r'(__list_add_valid|__list_del_entry_valid)'),
    ('k:memchr_inv', r'memchr_inv'),
    ('k:vfs ioctl', r'(__x64_sys_ioctl|__se_sys_ioctl|__do_sys_ioctl|do_vfs_ioctl|vfs_ioctl|ioctl_)'),
    ('k:syscall entry/exit', r'(syscall_return_via_sysret|x64_sys_call|amd_clear_divider|'
     r'entry_SYSCALL|do_syscall_64|syscall_(enter|exit)|exit_to_user_mode|'
     r'__(x64|ia32)_sys_|fpregs_|switch_fpu|__rseq|rseq_|arch_exit|mds_|'
     r'__x86_return_thunk|x86_return_thunk|__x86_indirect|ret_from|entry_)'),
    ('k:fd lookup', r'(__fget|__fdget|fdget|fget|fput|__fput)'),
    ('k:LSM', r'(security_|selinux_|apparmor_|bpf_lsm|tomoyo_|aa_|avc_|lsm_|smack)'),
    ('k:uaccess', r'(_copy_(from|to)_user|copy_user|__check_object_size|check_stack_object|'
     r'__virt_addr_valid|check_heap_object|__check_heap_object|rep_movs|copy_(from|to)_user|'
     r'clear_user|memdup_user|strncpy_from_user)'),
    ('k:slab', r'(kmem_cache|__kmalloc|kmalloc|kfree|__kfree|slab|___slab|__slab|kvfree|'
     r'kvmalloc|memcg|obj_cgroup|mod_objcg|refill_obj|__memcg|consume_obj)'),
    ('k:locking/rcu', r'(mutex_|__mutex|_raw_spin|_raw_read|_raw_write|down_|up_read|up_write|'
     r'up$|__down|__up|rwsem|queued_|__rcu|rcu_|percpu_)'),
    ('k:irq/timer', r'(asm_sysvec|sysvec_|__sysvec|irq|hrtimer|tick_|update_process_times|'
     r'scheduler_tick|__irq|handle_|lapic|native_apic|account_|update_|task_tick|run_timer|'
     r'__run_|timekeeping|ktime|clockevents|sched_|__sched|schedule|__schedule|psi_|'
     r'raise_softirq|__do_softirq|do_softirq|_nohz|calc_global|trigger_load|rebalance|'
     r'cpuacct|cgroup_rstat|arch_scale|perf_event|idle|enqueue|dequeue|pick_next|put_prev|'
     r'set_next|finish_task|__update|native_sched)'),
]
KERNEL_GROUPS = [(g, re.compile(r)) for g, r in KERNEL_GROUPS]
SYSCALL_PATH = ('k:syscall entry/exit', 'k:fd lookup', 'k:LSM', 'k:vfs ioctl')


def group(where, fn):
    if where != 'kernel':
        return 'user:' + where
    for g, r in KERNEL_GROUPS:
        if r.match(fn):
            return g
    return 'k:other'


class Row:
    def __init__(self, name, n):
        self.name, self.n = name, n
        self.insns = collections.Counter()     # (where, fn) -> executed insns
        self.tbs = collections.Counter()       # (where, fn of the TB start) -> execs
        self.atomics = collections.Counter()
        self.special = collections.defaultdict(collections.Counter)
        self.kinds = collections.Counter()

    def per(self, x):
        return x / self.n

    def total(self, what):
        return sum(getattr(self, what).values()) / self.n

    def groups(self):
        g = collections.Counter()
        for (where, fn), c in self.insns.items():
            g[group(where, fn)] += c
        return g


def analyze(wins, tbs, execs, sym):
    rows = {}
    for w, (name, n) in sorted(wins.items()):
        r = rows[w] = Row(name, n)
        for tb, ex in execs.get(w, []):
            va, insns = tbs[tb]
            r.tbs[sym(va)] += ex
            for a, b in insns:
                s = sym(a)
                r.insns[s] += ex
                k = classify(b)
                if k == 'atomic':
                    r.atomics[s] += ex
                if k:
                    r.special[s][k] += ex
                    r.kinds[k] += ex
    return rows


def f1(x):
    return '%.1f' % x


def md_table(head, body):
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for b in body:
        print('| ' + ' | '.join(b) + ' |')
    print()


def summary(rows):
    print('## Per call: instructions, TBs, atomics, where they ran')
    print()
    head = ['op', 'insns', 'TB', 'atomics', 'syscalls', 'app', 'libacl_rt', 'libc+ld.so',
            'kernel', 'k: syscall path', 'k: npu_sim', 'k: other', 'k: irq/timer']
    body = []
    for r in rows.values():
        g = r.groups()
        kern = sum(c for k, c in g.items() if k.startswith('k:'))
        path = sum(g[k] for k in SYSCALL_PATH)
        other = kern - path - g['k:npu_sim'] - g['k:irq/timer']
        body.append([r.name, f1(r.total('insns')), f1(r.total('tbs')), f1(r.total('atomics')),
                     f1(r.per(r.kinds['syscall'])), f1(r.per(g['user:app'])),
                     f1(r.per(g['user:libacl_rt'])), f1(r.per(g['user:libc'])), f1(r.per(kern)),
                     f1(r.per(path)), f1(r.per(g['k:npu_sim'])), f1(r.per(other)),
                     f1(r.per(g['k:irq/timer']))])
    md_table(head, body)
    print('k: syscall path = entry/exit + fd lookup + LSM + vfs ioctl (below); '
          'k: other = the kernel helpers our calls use (uaccess, slab, locks, xarray, ...); '
          'k: irq/timer = interrupts landing in the window (the fractions).')
    print()
    groups = [g for g, _ in KERNEL_GROUPS if g != 'k:npu_sim']
    order = list(SYSCALL_PATH) + ['k:npu_sim'] + \
        [g for g in groups if g not in SYSCALL_PATH] + ['k:other']
    print('## Kernel split per call (insns)')
    print()
    md_table(['op'] + [g[2:] for g in order],
             [[r.name] + [f1(r.per(r.groups()[g])) for g in order] for r in rows.values()])
    kinds = sorted(set(k for r in rows.values() for k in r.kinds))
    print('## TCG-relevant instructions per call')
    print()
    md_table(['op'] + kinds, [[r.name] + [f1(r.per(r.kinds[k])) for k in kinds]
                              for r in rows.values()])


def top_functions(rows, top):
    print('## Top functions per call')
    print()
    for w, r in rows.items():
        print('### %s (window %d, N=%d): %s insns' % (r.name, w, r.n, f1(r.total('insns'))))
        print()
        body = []
        for k, c in r.insns.most_common(top):
            sp = ' '.join('%s:%s' % (t, f1(r.per(v))) for t, v in sorted(r.special[k].items())
                          if t != 'atomic')
            body.append([k[1], k[0], group(*k), f1(r.per(c)), f1(r.per(r.tbs[k])),
                         f1(r.per(r.atomics[k])), sp])
        md_table(['function', 'where', 'group', 'insns', 'TB', 'atomics', 'special'], body)


def differences(rows, top):
    by_name = {r.name: r for r in rows.values()}
    print('## What each call adds over its baseline (per call; + = added)')
    print()
    for r in rows.values():
        if r.name in ('empty', 'null ioctl', 'null ioctl x2'):
            continue
        b = by_name.get('null ioctl x2' if r.per(r.kinds['syscall']) > 1.5 else 'null ioctl')
        if b is None:
            continue
        d = {k: (r.per(r.insns[k]) - b.per(b.insns[k]), r.per(r.tbs[k]) - b.per(b.tbs[k]),
                 r.per(r.atomics[k]) - b.per(b.atomics[k]))
             for k in set(r.insns) | set(b.insns)}
        print('### %s minus %s: %+.1f insns, %+.1f TB, %+.1f atomics' % (
            r.name, b.name, r.total('insns') - b.total('insns'),
            r.total('tbs') - b.total('tbs'), r.total('atomics') - b.total('atomics')))
        print()
        gd = collections.Counter()
        for k, v in d.items():
            gd[group(*k)] += v[0]
        print('by group: ' + ', '.join('%s %+.1f' % (g, v) for g, v in
                                      sorted(gd.items(), key=lambda x: -abs(x[1]))
                                      if abs(v) >= 0.5))
        print()
        body = []
        for k, v in sorted(d.items(), key=lambda x: -abs(x[1][0]))[:top]:
            if abs(v[0]) < 0.5:
                break
            body.append([k[1], k[0], group(*k)] + ['%+.1f' % x for x in v])
        md_table(['function', 'where', 'group', 'insns', 'TB', 'atomics'], body)


def listing(rows, tbs, execs, sym, row, func):
    w = [k for k, r in rows.items() if r.name == row]
    if not w:
        sys.exit('symbolize: no row %r (rows: %s)' % (row, ', '.join(r.name for r in rows.values())))
    n = rows[w[0]].n
    per, code = collections.Counter(), {}
    for tb, ex in execs.get(w[0], []):
        for a, b in tbs[tb][1]:
            if sym(a)[1].split()[0] == func:
                per[a] += ex
                code[a] = b
    if not per:
        sys.exit('symbolize: %s runs no instruction of %s' % (row, func))
    base = min(per)
    for a in sorted(per):
        print('%#x +%#05x %8.2f  %-30s %s' % (a, a - base, per[a] / n, code[a].hex(),
                                              classify(code[a]) or ''))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('outdir')
    ap.add_argument('--top', type=int, default=20, help='functions per table (20)')
    ap.add_argument('--listing', nargs=2, metavar=('ROW', 'FUNC'),
                    help='per-instruction counts of FUNC in ROW')
    a = ap.parse_args()
    wins = read_windows(a.outdir)
    tbs, execs = read_counts(a.outdir)
    missing = [name for w, (name, _) in wins.items() if w not in execs]
    if missing:
        sys.exit('symbolize: no counts for %s: was the plugin loaded?' % ', '.join(missing))
    sym = Symbols(a.outdir)
    rows = analyze(wins, tbs, execs, sym)
    if a.listing:
        listing(rows, tbs, execs, sym, *a.listing)
        return
    print('# Instruction profile (insnprof) of %s' % a.outdir)
    print()
    print('Per call = window count / N (N = %s). Every row includes the driver loop: '
          'the "empty" row. The code a call runs counts in whole numbers, the same on every run; '
          'fractions are interrupts landing in the window.' %
          ', '.join(sorted(set(str(r.n) for r in rows.values()))))
    print()
    summary(rows)
    differences(rows, a.top)
    top_functions(rows, a.top)


if __name__ == '__main__':
    main()
