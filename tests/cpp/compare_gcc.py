#!/usr/bin/env python3
"""tests/cpp/compare_gcc.py — preprocess a file with kit-cpp and with gcc -E
under several flag sets and require the same token stream (line markers and
white space ignored). gcc is told kitcc's deliberate differences (the
__GNUC__ version it claims, types it does not define) with -U/-D; attributes
that kitcc's __has_attribute table answers 0 for are dropped from gcc's side.
Usage: compare_gcc.py KIT_CPP FILE.c"""
import re, shutil, subprocess, sys

GCC_ADJUST = ['-U__GNUC__', '-D__GNUC__=8', '-U__GNUC_MINOR__', '-D__GNUC_MINOR__=1',
              '-U__GNUC_PATCHLEVEL__', '-D__GNUC_PATCHLEVEL__=0',
              '-U__VERSION__', '-D__VERSION__="8.1.0 (kitcc 0.1)"',
              '-U__SIZEOF_INT128__', '-U__SIZEOF_FLOAT128__', '-U__SIZEOF_FLOAT80__',
              '-D__kitcc__=1']
# attributes gcc's glibc path uses and kitcc's would not (none since kitcc
# claims GNU C 8.1: glibc then takes __alloc_align__ and __artificial__ by version)
GCC_ONLY_ATTRS = set()
FLAG_SETS = [[], ['-D_GNU_SOURCE'], ['-std=c11'], ['-std=c99', '-D_POSIX_C_SOURCE=200809L'],
             ['-O2', '-D_FORTIFY_SOURCE=2'], ['-D_GNU_SOURCE', '-D_FILE_OFFSET_BITS=64', '-O1']]

TOKEN = re.compile(r'''\s*((?:[LuU]|u8)?"(?:\\.|[^"\\])*"|(?:[LuU]|u8)?'(?:\\.|[^'\\])*'|'''
                   r'''\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*|[A-Za-z_$\x80-\uffff][A-Za-z0-9_$\x80-\uffff]*|'''
                   r'''%:%:|\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^=!]=|##|'''
                   r'''<:|:>|<%|%>|%:|\S)''')


def tokens(text):
    out = []
    for line in text.splitlines():
        if line.startswith('#'):
            continue
        pos = 0
        while pos < len(line):
            m = TOKEN.match(line, pos)
            if not m:
                break
            out.append(m.group(1))
            pos = m.end()
    return out


def drop_attrs(toks):
    """Remove __attribute__ ((NAME ...)) where NAME is one kitcc does not claim."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] == '__attribute__' and toks[i + 1:i + 3] == ['(', '('] and toks[i + 3] in GCC_ONLY_ATTRS:
            depth, j = 0, i + 1
            while True:
                depth += {'(': 1, ')': -1}.get(toks[j], 0)
                if depth == 0:
                    break
                j += 1
            i = j + 1
            continue
        out.append(toks[i])
        i += 1
    return out


def main():
    kit, src = sys.argv[1], sys.argv[2]
    if not shutil.which('gcc'):
        print('gcc not found: skipped')
        return 77
    failed = False
    for flags in FLAG_SETS:
        k = subprocess.run([kit, '-P'] + flags + [src], capture_output=True, text=True,
                           errors='replace')
        if k.returncode != 0 or k.stderr:
            print('kit-cpp %s: exit %d\n%s' % (' '.join(flags), k.returncode, k.stderr[:3000]))
            failed = True
            continue
        km = subprocess.run([kit] + flags + [src], capture_output=True, text=True, errors='replace')
        g = subprocess.run(['gcc', '-E', '-P'] + GCC_ADJUST + flags + [src], capture_output=True,
                           text=True, errors='replace')
        if g.returncode != 0:
            print('gcc failed: ' + g.stderr[:2000])
            return 1
        kt, gt = tokens(k.stdout), drop_attrs(tokens(g.stdout))
        if tokens(km.stdout) != kt:
            print('flags %s: -E with line markers gives other tokens than -P' % flags)
            failed = True
        if kt != gt:
            n = next((i for i, (a, b) in enumerate(zip(kt, gt)) if a != b), min(len(kt), len(gt)))
            print('flags %s: token %d differs (kit %d tokens, gcc %d)' % (flags, n, len(kt), len(gt)))
            print('  kit: ' + ' '.join(kt[max(0, n - 20):n + 20]))
            print('  gcc: ' + ' '.join(gt[max(0, n - 20):n + 20]))
            failed = True
        else:
            print('flags %-45s %d tokens, same as gcc' % (' '.join(flags) or '(none)', len(kt)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
