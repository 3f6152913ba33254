#!/usr/bin/env python3
"""cg2c: canonical CG text (the corpus subset) -> C, to compute expected output with gcc.
An independent reading of docs/cg-text.md semantics; not the project's parser."""
import re, sys

CT = {'i1': 'uint8_t', 'i8': 'uint8_t', 'i16': 'uint16_t', 'i32': 'uint32_t', 'i64': 'uint64_t',
      'i128': 'u128', 'f32': 'float', 'f64': 'double', 'f80': 'long double', 'ptr': 'char *', 'void': 'void'}
W = {'i1': 1, 'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64, 'i128': 128}
MSIZE = {'i1': 1, 'i8': 1, 'i16': 2, 'i32': 4, 'i64': 8, 'i128': 16, 'f32': 4, 'f64': 8, 'f80': 10, 'ptr': 8}
FS = {'f32': 'f', 'f64': '', 'f80': 'l'}

PRELUDE = r'''
#include <stdint.h>
typedef unsigned __int128 u128; typedef __int128 s128;
#define NAN_(x) __builtin_isnan(x)
static int8_t sx1(uint8_t x){ return (x&1) ? -1 : 0; }
static int8_t sx8(uint8_t x){ return (int8_t)x; }
static int16_t sx16(uint16_t x){ return (int16_t)x; }
static int32_t sx32(uint32_t x){ return (int32_t)x; }
static int64_t sx64(uint64_t x){ return (int64_t)x; }
static s128 sx128(u128 x){ return (s128)x; }
static unsigned clz64(uint64_t x){ return x ? __builtin_clzll(x) : 64; }
static unsigned ctz64(uint64_t x){ return x ? __builtin_ctzll(x) : 64; }
static unsigned clz128(u128 x){ uint64_t hi=x>>64, lo=(uint64_t)x; return hi ? clz64(hi) : 64+clz64(lo); }
static unsigned ctz128(u128 x){ uint64_t hi=x>>64, lo=(uint64_t)x; return lo ? ctz64(lo) : 64+ctz64(hi); }
static unsigned pop128(u128 x){ return __builtin_popcountll((uint64_t)x)+__builtin_popcountll((uint64_t)(x>>64)); }
static u128 bswap128(u128 x){ return ((u128)__builtin_bswap64((uint64_t)x)<<64) | __builtin_bswap64((uint64_t)(x>>64)); }
static s128 fptosi_(long double x, int w){
  if (NAN_(x)) return 0;
  long double lim = 1.0L; for (int i=0;i<w-1;i++) lim*=2;  /* 2^(w-1) */
  s128 mx = (w==128) ? (s128)(~(u128)0>>1) : (((s128)1<<(w-1))-1);
  if (x >= lim) return mx;
  if (x < -lim) return -mx-1;
  return (s128)x; }
static u128 fptoui_(long double x, int w){
  if (NAN_(x)) return 0;
  long double lim = 1.0L; for (int i=0;i<w;i++) lim*=2;
  u128 mx = (w==128) ? ~(u128)0 : (((u128)1<<w)-1);
  if (x >= lim) return mx;
  if (x <= -1.0L) return 0;
  if (x < 0) return 0;
  return (u128)x; }
'''

def tok(s):
    return re.findall(r'x"[0-9a-fA-F]*"|"(?:[^"\\]|\\.)*"|\{[^}]*\}|\.\.\.|->|[%@$!]?[\w.\-]+|[(),\[\]=:]', s)

class Fn:
    pass

def main(path):
    text = open(path).read()
    text = re.sub(r'@"((?:[^"\\]|\\.)*)"', lambda m: '@q_' + m.group(1).encode().hex(), text)
    globs, decls, funcs, externs = [], {}, [], []
    global aliases
    aliases = {}
    cd = []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        l = lines[i].split(';')[0].rstrip() if not lines[i].lstrip().startswith('global') else lines[i]
        s = l.strip()
        if s.startswith('global'):
            globs.append(s)
        elif s.startswith('ctor') or s.startswith('dtor'):
            cd.append((s.split()[0], s.split()[1][1:], int(s.split()[2])))
        elif s.startswith('alias'):
            am = re.match(r'alias\s+@([\w.]+)\s*=\s*@([\w.]+)', s)
            aliases[am.group(1)] = am.group(2)
        elif s.startswith('extern'):
            externs.append(s.split()[1][1:])
        elif s.startswith('declare'):
            decls[re.match(r'declare\s+@([\w.]+)', s).group(1)] = s
        elif s.startswith('func'):
            body = []
            i += 1
            while lines[i].strip() != '}':
                body.append(lines[i])
                i += 1
            funcs.append((s, body))
        i += 1
    out = [PRELUDE]
    fsig = {}
    def ctyp(t):
        if t.startswith('{'):
            a, b = [x.strip() for x in t[1:-1].split(',')]
            return 'struct r2_%s_%s' % (a, b)
        return CT[t]
    pairs = set()
    def parse_sig(s):
        m = re.match(r'(?:declare|func)\s+@([\w.]+)\((.*)\)\s*->\s*(\{[^}]*\}|\w+)(.*)$', s)
        name, ps, ret, attrs = m.group(1), m.group(2), m.group(3), m.group(4)
        params, va = [], False
        for p in [x.strip() for x in re.split(r',(?![^(]*\))', ps)] if ps.strip() else []:
            if p == '...':
                va = True
                continue
            ws = p.split()
            byval = None
            bm = re.search(r'byval\((\d+),\s*(\d+)\)', p)
            if bm:
                byval = int(bm.group(1))
            params.append((ws[0], byval))
        if ret.startswith('{'):
            pairs.add(tuple(x.strip() for x in ret[1:-1].split(',')))
        return name, params, va, ret, ('internal' in attrs.split())
    for s in decls.values():
        name, params, va, ret, _ = parse_sig(s)
        fsig[name] = (params, va, ret, False)
    for s, _ in funcs:
        name, params, va, ret, _ = parse_sig(s)
        fsig[name] = (params, va, ret, True)
    for a, b in sorted(pairs):
        out.append('struct r2_%s_%s { %s a; %s b; };' % (a, b, CT[a], CT[b]))
    def fname(n):
        n = aliases.get(n, n)
        return ('f_' + n) if fsig.get(n, (0, 0, 0, False))[3] else n
    gnames = set()
    def gname(n):
        return 'g_' + n.replace('.', '_')
    for e in externs:
        out.append('extern unsigned char %s[] __asm__("%s");' % (gname(e), e))
        gnames.add(e)
    # prototypes
    for n, (params, va, ret, defined) in fsig.items():
        ps = [CT[t] for t, _ in params] + (['...'] if va else [])
        weak = (not defined) and n in decls and ' weak' in decls[n].split(')', 1)[1]
        out.append('%s%s %s(%s)%s;' % ('static ' if defined else '', ctyp(ret), fname(n), ', '.join(ps) or 'void', ' __attribute__((weak))' if weak else ''))
    relocs = []
    blockrelocs = {}  # function -> [(global, offset, block, minus block or None, addend, size)]
    for g in globs:
        t = tok(g)
        name = t[1][1:]
        size = int(t[t.index('size') + 1])
        align = int(t[t.index('align') + 1])
        init = ''
        for x in t:
            if x.startswith('x"'):
                init = x[2:-1]
        b = bytes.fromhex(init)
        out.append(('static __thread ' if 'tls' in t else 'static ') + 'unsigned char %s[%d] __attribute__((aligned(%d))) = {%s};' %
                   (gname(name), max(size, 1), align, ','.join(str(c) for c in b) or '0'))
        gnames.add(name)
        k = 0
        while k < len(t):
            if t[k] == 'reloc':
                r = (name, int(t[k + 1], 0), t[k + 2][1:], int(t[k + 3], 0), int(t[k + 4]))
                k += 5
                if k < len(t) and re.match(r'^b\d+$', t[k]):
                    # a block address of function r[2]: &&bN (minus &&bM), taken inside that function
                    b2 = int(t[k + 2][1:]) if k + 2 < len(t) and t[k + 1] == 'minus' else None
                    blockrelocs.setdefault(r[2], []).append((name, r[1], int(t[k][1:]), b2, r[3], r[4]))
                    k += 3 if b2 is not None else 1
                else:
                    relocs.append(r)
            else:
                k += 1
    def symref(n):
        n = aliases.get(n, n)
        if n in gnames:
            return '(char *)%s' % gname(n)
        return '(char *)&%s' % fname(n)
    # block addresses exist only inside their function: the constructor calls
    # it once in a mode where it stores them and returns at once
    out.append('static int cg2c_blockinit;')
    out.append('__attribute__((constructor(101))) static void init_relocs(void) {')
    for g, off, s, add, sz in relocs:
        out.append('  { char *p = %s + %d; __builtin_memcpy(%s + %d, &p, %d); }' % (symref(s), add, gname(g), off, sz))
    out.append('  cg2c_blockinit = 1;')
    for fn in blockrelocs:
        out.append('  (void)%s(%s);' % (fname(fn), ', '.join('0' for _ in fsig[fn][0])))
    out.append('  cg2c_blockinit = 0;')
    out.append('}')

    for s, body in funcs:
        name, params, va, ret, _ = parse_sig(s)
        vt = {}
        for k, (t, _) in enumerate(params):
            vt[k + 1] = t
        stacks = []
        blocks = {}
        insts = []  # (block, toks, raw)
        cur = None
        for l in body:
            l = l.split(';')[0].strip()
            if not l:
                continue
            if l.startswith('stack '):
                t = tok(l)
                stacks.append((int(t[t.index('size') + 1]), int(t[t.index('align') + 1])))
                continue
            m = re.match(r'^b(\d+):', l)
            if m:
                cur = int(m.group(1))
                blocks[cur] = []
                continue
            t = tok(l)
            # strip modifiers
            k = 0
            tt = []
            while k < len(t):
                if t[k] in ('!loc',):
                    k += 5
                elif t[k] in ('!ty', '!pc'):
                    k += 2
                elif t[k].startswith('!'):
                    k += 1
                else:
                    tt.append(t[k])
                    k += 1
            blocks[cur].append(tt)
        # result types
        for b, il in blocks.items():
            for t in il:
                if len(t) > 2 and t[1] == '=':
                    v = int(t[0][1:])
                    op = t[2]
                    if op in ('icmp', 'fcmp', 'saddo', 'uaddo', 'ssubo', 'usubo', 'smulo', 'umulo'):
                        ty = 'i1'
                    elif op in ('symaddr', 'stackaddr', 'ptradd', 'frameaddr', 'retaddr', 'alloca', 'stacksave', 'blockaddr'):
                        ty = 'ptr'
                    elif op == 'atomic.rmw':
                        ty = t[4]
                    elif op == 'tail':
                        ty = t[4]
                    else:
                        ty = t[3]
                    vt[v] = ty
        def V(x):
            return 'v' + x[1:]
        o = []
        rs = ctyp(ret)
        ps = ['%s v%d' % (CT[t], k + 1) for k, (t, _) in enumerate(params)] + (['...'] if va else [])
        o.append('static %s %s(%s) {' % (rs, fname(name), ', '.join(ps) or 'void'))
        if name in blockrelocs:
            o.append('  if (cg2c_blockinit) {')
            for g, off, b1, b2, add, sz in blockrelocs[name]:
                e = '(char *)&&b%d - (char *)&&b%d + %d' % (b1, b2, add) if b2 is not None else '(char *)&&b%d + %d' % (b1, add)
                ct = 'char *' if b2 is None else 'int64_t'
                o.append('    { %s p = %s; __builtin_memcpy(%s + %d, &p, %d); }' % (ct, e, gname(g), off, sz))
            o.append('    %s' % ('return;' if rs == 'void' else '{ %s z; __builtin_memset(&z, 0, sizeof z); return z; }' % rs))
            o.append('  }')
        for k, (t, bv) in enumerate(params):
            if bv:
                o.append('  char byval%d[%d] __attribute__((aligned(16))); __builtin_memcpy(byval%d, v%d, %d); v%d = byval%d;' % (k + 1, bv, k + 1, k + 1, bv, k + 1, k + 1))
        for v, t in sorted(vt.items()):
            if v > len(params):
                if t.startswith('{'):
                    a, bb = [x.strip() for x in t[1:-1].split(',')]
                    o.append('  %s v%d; %s v%d_2;' % (CT[a], v, CT[bb], v))
                else:
                    o.append('  %s v%d;' % (CT[t], v))
        for k, (sz, al) in enumerate(stacks):
            o.append('  unsigned char s%d[%d] __attribute__((aligned(%d)));' % (k, max(sz, 1), al))
        # phis: block -> list of (dst, type, {pred: val})
        phis = {}
        for b, il in blocks.items():
            for t in il:
                if len(t) > 2 and t[2] == 'phi':
                    ty = t[3]
                    inc = {}
                    k = 4
                    while k < len(t):
                        if t[k] == '[':
                            inc[int(t[k + 3][1:])] = t[k + 1]
                            k += 5
                        else:
                            k += 1
                    phis.setdefault(b, []).append((t[0], ty, inc))
        def edge(frm, to):
            ps = phis.get(to, [])
            if not ps:
                return 'goto b%d;' % to
            s = '{ '
            for j, (d, ty, inc) in enumerate(ps):
                s += '%s t%d = %s; ' % (CT[ty], j, V(inc[frm]))
            for j, (d, ty, inc) in enumerate(ps):
                s += '%s = t%d; ' % (V(d), j)
            return s + 'goto b%d; }' % to
        def args_of(t, k):
            # t[k] == '(' ; returns list of args, index of fixed count or None
            a, fixed = [], None
            k += 1
            while t[k] != ')':
                if t[k] == '...':
                    fixed = len(a)
                elif t[k] != ',':
                    a.append(V(t[k]))
                k += 1
            return a, fixed
        vt1 = {k: (v[1:-1].split(',')[0].strip() if v.startswith('{') else v) for k, v in vt.items()}
        for b in sorted(blocks):
            o.append('b%d: ;' % b)
            for t in blocks[b]:
                o.append('  ' + inst(t, vt1, V, edge, b, args_of, ctyp, fname, symref, params, fsig).replace('__typeof__(*(struct r2_dummy*)0)', rs))
        o.append('}')
        out += o
    for k, (kind, fn, prio) in enumerate(cd):
        out.append('__attribute__((%s(%d))) static void cd_%d(void) { %s(); }' % ('constructor' if kind == 'ctor' else 'destructor', prio, k, fname(fn)))
    out.append('int main(int argc, char **argv) { (void)argc; (void)argv; return (int)f_main(%s); }' %
               ('' if not fsig['main'][0] else '(uint32_t)argc, (char *)argv'))
    return '\n'.join(out) + '\n'

def inst(t, vt, V, edge, b, args_of, ctyp, fname, symref, params, fsig):
    if len(t) > 1 and t[1] == '=':
        d, op, r = V(t[0]), t[2], t[3:]
        dv = int(t[0][1:])
    else:
        d, op, r, dv = None, t[0], t[1:], None
    if op == 'tail':
        op, r = r[0], r[1:]
    ty = vt.get(dv)
    def w(x):
        return W[x]
    def m(expr, ty_):
        if ty_ == 'i1':
            return '(uint8_t)((%s) & 1)' % expr
        return '(%s)(%s)' % (CT[ty_], expr)
    def sx(ty_, v):
        return 'sx%d(%s)' % (W[ty_], v)
    def wt(ty_):
        return 'u128' if ty_ == 'i128' else 'uint64_t'
    if op == 'const':
        ty_, val = r[0], r[1]
        if ty_ in ('f32', 'f64', 'f80'):
            x = int(val, 16)
            if ty_ == 'f80':
                return '{ uint64_t q[2] = {0x%xULL, 0x%xULL}; __builtin_memcpy(&%s, q, 10); }' % (x & (2**64 - 1), x >> 64, d)
            return '{ uint%d_t q = 0x%xULL; __builtin_memcpy(&%s, &q, %d); }' % (W['i32' if ty_ == 'f32' else 'i64'], x, d, 4 if ty_ == 'f32' else 8)
        x = int(val, 0)
        x &= (1 << W[ty_]) - 1
        if ty_ == 'i128':
            return '%s = ((u128)0x%xULL << 64) | 0x%xULL;' % (d, x >> 64, x & (2**64 - 1))
        return '%s = 0x%xULL;' % (d, x)
    if op == 'symaddr':
        off = int(r[2], 0) if len(r) > 2 else 0
        return '%s = %s + %d;' % (d, symref(r[0][1:]), off)
    if op == 'stackaddr':
        return '%s = (char *)s%s;' % (d, r[0][1:])
    INT2 = {'add': '+', 'sub': '-', 'mul': '*', 'and': '&', 'or': '|', 'xor': '^'}
    if op in INT2:
        a, bb = V(r[1]), V(r[3])
        return '%s = %s;' % (d, m('(%s)%s %s (%s)%s' % (wt(ty), a, INT2[op], wt(ty), bb), ty))
    if op in ('udiv', 'urem'):
        return '%s = %s;' % (d, m('%s %s %s' % (V(r[1]), '/' if op == 'udiv' else '%', V(r[3])), ty))
    if op in ('sdiv', 'srem'):
        return '%s = %s;' % (d, m('%s %s %s' % (sx(ty, V(r[1])), '/' if op == 'sdiv' else '%', sx(ty, V(r[3]))), ty))
    if op in ('shl', 'lshr', 'ashr'):
        a, amt = V(r[1]), '(%s %% %d)' % (V(r[3]), W[ty])
        if op == 'shl':
            return '%s = %s;' % (d, m('(%s)%s << %s' % (wt(ty), a, amt), ty))
        if op == 'lshr':
            return '%s = %s;' % (d, m('%s >> %s' % (a, amt), ty))
        return '%s = %s;' % (d, m('%s >> %s' % (sx(ty, a), amt), ty))
    if op == 'neg':
        return '%s = %s;' % (d, m('(%s)0 - %s' % (wt(ty), V(r[1])), ty))
    if op == 'not':
        return '%s = %s;' % (d, m('~%s' % V(r[1]), ty))
    if op in ('smin', 'smax', 'umin', 'umax'):
        a, bb = V(r[1]), V(r[3])
        if op[0] == 's':
            c = '%s %s %s' % (sx(ty, a), '<' if op == 'smin' else '>', sx(ty, bb))
        else:
            c = '%s %s %s' % (a, '<' if op == 'umin' else '>', bb)
        return '%s = (%s) ? %s : %s;' % (d, c, a, bb)
    if op in ('saddo', 'uaddo', 'ssubo', 'usubo', 'smulo', 'umulo'):
        oty = r[0]
        a, bb = V(r[1]), V(r[3])
        fn = {'add': '__builtin_add_overflow', 'sub': '__builtin_sub_overflow', 'mul': '__builtin_mul_overflow'}[op[1:4]]
        if op[0] == 's':
            st = {'i8': 'int8_t', 'i16': 'int16_t', 'i32': 'int32_t', 'i64': 'int64_t', 'i128': 's128'}[oty]
            return '{ %s q; %s = %s(%s, %s, &q); }' % (st, d, fn, sx(oty, a), sx(oty, bb))
        return '{ %s q; %s = %s(%s, %s, &q); }' % (CT[oty], d, fn, a, bb)
    if op == 'bswap':
        a = V(r[1])
        if ty == 'i128':
            return '%s = bswap128(%s);' % (d, a)
        return '%s = __builtin_bswap%d(%s);' % (d, W[ty], a)
    if op in ('clz', 'ctz', 'popcnt'):
        a = V(r[1])
        wd = W[ty]
        if ty == 'i128':
            f = {'clz': 'clz128', 'ctz': 'ctz128', 'popcnt': 'pop128'}[op]
            return '%s = %s(%s);' % (d, f, a)
        if op == 'clz':
            return '%s = %s ? clz64(%s) - %d : %d;' % (d, a, a, 64 - wd, wd)
        if op == 'ctz':
            return '%s = %s ? ctz64(%s) : %d;' % (d, a, a, wd)
        return '%s = __builtin_popcountll(%s);' % (d, a)
    F2 = {'fadd': '+', 'fsub': '-', 'fmul': '*', 'fdiv': '/'}
    if op in F2:
        return '%s = (%s)(%s %s %s);' % (d, CT[ty], V(r[1]), F2[op], V(r[3]))
    if op in ('frem', 'fmin', 'fmax', 'fcopysign'):
        f = {'frem': 'fmod', 'fmin': 'fmin', 'fmax': 'fmax', 'fcopysign': 'copysign'}[op]
        return '%s = __builtin_%s%s(%s, %s);' % (d, f, FS[ty], V(r[1]), V(r[3]))
    if op == 'fneg':
        return '%s = -%s;' % (d, V(r[1]))
    if op in ('fabs', 'fsqrt'):
        return '%s = __builtin_%s%s(%s);' % (d, 'fabs' if op == 'fabs' else 'sqrt', FS[ty], V(r[1]))
    if op == 'fma':
        return '%s = __builtin_fma%s(%s, %s, %s);' % (d, FS[ty], V(r[1]), V(r[3]), V(r[5]))
    if op == 'icmp':
        p, oty, a, bb = r[0], r[1], V(r[2]), V(r[4])
        if p in ('eq', 'ne'):
            return '%s = %s %s %s;' % (d, a, '==' if p == 'eq' else '!=', bb)
        rel = {'lt': '<', 'le': '<=', 'gt': '>', 'ge': '>='}[p[1:]]
        if p[0] == 's':
            return '%s = %s %s %s;' % (d, sx(oty, a), rel, sx(oty, bb))
        return '%s = %s %s %s;' % (d, a, rel, bb)
    if op == 'fcmp':
        p, a, bb = r[0], V(r[2]), V(r[4])
        un = '__builtin_isunordered(%s, %s)' % (a, bb)
        if p == 'ord':
            return '%s = !%s;' % (d, un)
        if p == 'uno':
            return '%s = %s;' % (d, un)
        rel = {'eq': '==', 'ne': '!=', 'lt': '<', 'le': '<=', 'gt': '>', 'ge': '>='}[p[1:]]
        if p[0] == 'o':
            return '%s = !%s && (%s %s %s);' % (d, un, a, rel, bb)
        return '%s = %s || (%s %s %s);' % (d, un, a, rel, bb)
    if op == 'select':
        return '%s = %s ? %s : %s;' % (d, V(r[1]), V(r[3]), V(r[5]))
    if op in ('trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptosi', 'fptoui', 'sitofp', 'uitofp', 'ptrtoint', 'inttoptr', 'bitcast'):
        a = r[1]
        sty = vt[int(a[1:])]
        a = V(a)
        if op == 'trunc':
            return '%s = %s;' % (d, m(a, ty))
        if op == 'zext':
            return '%s = (%s)%s;' % (d, CT[ty], a)
        if op == 'sext':
            return '%s = %s;' % (d, m(sx(sty, a), ty))
        if op in ('fptrunc', 'fpext'):
            return '%s = (%s)%s;' % (d, CT[ty], a)
        if op == 'fptosi':
            return '%s = %s;' % (d, m('fptosi_((long double)%s, %d)' % (a, W[ty]), ty))
        if op == 'fptoui':
            return '%s = %s;' % (d, m('fptoui_((long double)%s, %d)' % (a, W[ty]), ty))
        if op == 'sitofp':
            return '%s = (%s)%s;' % (d, CT[ty], sx(sty, a))
        if op == 'uitofp':
            return '%s = (%s)%s;' % (d, CT[ty], a)
        if op == 'ptrtoint':
            return '%s = %s;' % (d, m('(uintptr_t)%s' % a, ty))
        if op == 'inttoptr':
            return '%s = (char *)(uintptr_t)%s;' % (d, a)
        return '__builtin_memcpy(&%s, &%s, %d);' % (d, a, MSIZE[ty])
    if op == 'load':
        p = V(r[1])
        if 'volatile' in r:
            return '%s = *(volatile %s *)%s;' % (d, CT[ty], p)
        return '__builtin_memcpy(&%s, %s, %d);' % (d, p, MSIZE[ty])
    if op == 'store':
        sty, v, p = r[0], V(r[1]), V(r[3])
        if 'volatile' in r:
            return '*(volatile %s *)%s = %s;' % (CT[sty], p, v)
        return '__builtin_memcpy(%s, &%s, %d);' % (p, v, MSIZE[sty])
    if op == 'ptradd':
        return '%s = %s + (int64_t)%s;' % (d, V(r[0]), V(r[2]))
    if op in ('memcpy', 'memmove'):
        return '__builtin_%s(%s, %s, %s);' % (op, V(r[0]), V(r[2]), V(r[4]))
    if op == 'memset':
        return '__builtin_memset(%s, %s, %s);' % (V(r[0]), V(r[2]), V(r[4]))
    if op in ('lifetime.start', 'lifetime.end'):
        return ';'
    if op == 'atomic.load':
        return '%s = __atomic_load_n((%s *)%s, __ATOMIC_SEQ_CST);' % (d, CT[ty], V(r[1]))
    if op == 'atomic.store':
        return '__atomic_store_n((%s *)%s, %s, __ATOMIC_SEQ_CST);' % (CT[r[0]], V(r[3]), V(r[1]))
    if op == 'atomic.rmw':
        k, p, v = r[0], V(r[2]), V(r[4])
        ct = CT[ty]
        if k in ('xchg', 'add', 'sub', 'and', 'or', 'xor', 'nand'):
            fn = '__atomic_exchange_n' if k == 'xchg' else '__atomic_fetch_' + k
            return '%s = %s((%s *)%s, %s, __ATOMIC_SEQ_CST);' % (d, fn, ct, p, v)
        cmp = {'smax': '%s > %s', 'smin': '%s < %s', 'umax': '%s > %s', 'umin': '%s < %s'}[k]
        if k[0] == 's':
            c = cmp % (sx(ty, 'o'), sx(ty, v))
        else:
            c = cmp % ('o', v)
        return '{ %s o = *(%s *)%s; %s = o; *(%s *)%s = (%s) ? o : %s; }' % (ct, ct, p, d, ct, p, c, v)
    if op == 'atomic.cmpxchg':
        p, e, n = V(r[1]), V(r[3]), V(r[5])
        return '{ %s e = %s; __atomic_compare_exchange_n((%s *)%s, &e, %s, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); %s = e; }' % (CT[ty], e, CT[ty], p, n, d)
    if op == 'fence':
        return '__atomic_thread_fence(__ATOMIC_SEQ_CST);'
    if op in ('call', 'calli'):
        rt = r[0]
        if op == 'call':
            callee = fname(r[1][1:])
            a, fixed = args_of(r, 2)
        else:
            a, fixed = args_of(r, 2)
            # callee pointer type from arg value types
            ats = []
            # r[2] == '(' ; collect types
            k = 3
            vals = []
            while r[k] != ')':
                if r[k] == '...':
                    vals.append('...')
                elif r[k] != ',':
                    vals.append(CT[vt[int(r[k][1:])]])
                k += 1
            if '...' in vals:
                idx = vals.index('...')
                ptys = vals[:idx] + ['...']
            else:
                ptys = vals
            callee = '((%s (*)(%s))%s)' % (ctyp(rt), ', '.join(ptys) or 'void', V(r[1]))
        c = '%s(%s)' % (callee, ', '.join(a))
        if rt == 'void':
            return c + ';'
        if rt.startswith('{'):
            return '{ %s q = %s; %s = q.a; %s_2 = q.b; }' % (ctyp(rt), c, d, d)
        return '%s = %s;' % (d, c)
    if op == 'second':
        return '%s = %s_2;' % (d, V(r[1]))
    if op == 'va.start':
        return '__builtin_va_start(*(__builtin_va_list *)%s, v%d);' % (V(r[0]), len(params))
    if op == 'va.end':
        return '__builtin_va_end(*(__builtin_va_list *)%s);' % V(r[0])
    if op == 'va.copy':
        return '__builtin_va_copy(*(__builtin_va_list *)%s, *(__builtin_va_list *)%s);' % (V(r[0]), V(r[2]))
    if op == 'va.arg':
        return '%s = __builtin_va_arg(*(__builtin_va_list *)%s, %s);' % (d, V(r[1]), CT[ty])
    if op == 'phi':
        return ';'
    if op == 'br':
        return edge(b, int(r[0][1:]))
    if op == 'condbr':
        return 'if (%s) %s else %s' % (V(r[0]), edge(b, int(r[2][1:])), edge(b, int(r[4][1:])))
    if op == 'switch':
        sty, v, dflt = r[0], V(r[1]), int(r[3][1:])
        s = 'switch (%s) { ' % (v if sty != 'i128' else v)
        k = 5
        while r[k] != ']':
            if r[k] == ',':
                k += 1
                continue
            cv = int(r[k], 0) & ((1 << W[sty]) - 1)
            lab = '0x%xULL' % cv if W[sty] <= 64 else '(((u128)0x%xULL << 64) | 0x%xULL)' % (cv >> 64, cv & (2**64 - 1))
            s += 'case %s: %s ' % (lab, edge(b, int(r[k + 2][1:])))
            k += 3
        return s + 'default: %s }' % edge(b, dflt)
    if op == 'ret':
        if not r:
            return 'return;'
        if len(r) == 3:
            return 'return (%s){%s, %s};' % ('__typeof__(*(struct r2_dummy*)0)', V(r[0]), V(r[2]))
        return 'return %s;' % V(r[0])
    if op == 'alloca':
        al = int(r[r.index('align') + 1]) if 'align' in r else 16
        return '%s = __builtin_alloca_with_align(%s, %d);' % (d, V(r[0]), al * 8)
    if op == 'stacksave':
        return '%s = __builtin_stack_save();' % d
    if op == 'stackrestore':
        return '__builtin_stack_restore(%s);' % V(r[0])
    if op == 'frameaddr':
        return '%s = __builtin_frame_address(0);' % d
    if op == 'retaddr':
        return '%s = __builtin_return_address(0);' % d
    if op == 'blockaddr':
        return '%s = (char *)&&%s;' % (d, r[0])
    if op == 'indirectbr':
        # the address is compared with each destination's; any other is undefined: trap
        s = '{ char *t = %s; ' % V(r[0])
        for x in r[2:]:
            if re.match(r'^b\d+$', x):
                s += 'if (t == (char *)&&%s) %s else ' % (x, edge(b, int(x[1:])))
        return s + '__builtin_trap(); }'
    if op == 'unreachable':
        return '__builtin_unreachable();'
    if op == 'trap':
        return '__builtin_trap();'
    raise SystemExit('cg2c: unknown op %s' % op)

if __name__ == '__main__':
    sys.stdout.write(main(sys.argv[1]))
