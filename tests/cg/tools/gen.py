#!/usr/bin/env python3
"""gen: table-driven corpus programs -> src/*.cgs"""
import os
D = os.path.dirname(os.path.abspath(__file__)) + '/src/'
W = {'i1': 1, 'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64, 'i128': 128}

def sv(w, x):  # signed-view literal for const
    x &= (1 << w) - 1
    if w == 128:
        return '0x%032x' % x
    if w == 1:
        return str(x)
    return str(x - (1 << w) if x >> (w - 1) else x)

class P:
    def __init__(self, name, desc):
        self.name, self.desc = name, desc
        self.body, self.fmts, self.k = [], {}, 0
    def t(self):
        self.k += 1
        return 't%d' % self.k
    def e(self, text):
        v = self.t()
        self.body.append('  %%%s = %s' % (v, text))
        return v
    def c(self, ty, x):
        if ty in W:
            return self.e('const %s %s' % (ty, sv(W[ty], x)))
        return self.e('const %s %s' % (ty, x))
    def fmt(self, s):
        if s not in self.fmts:
            self.fmts[s] = 'fmt%d' % len(self.fmts)
        return self.fmts[s]
    def show(self, ty, v):
        """returns (format piece, [value names])"""
        if ty in ('i1', 'i8', 'i16', 'i32'):
            return '%llx', [self.e('zext i64 %%%s' % v)]
        if ty == 'i64':
            return '%llx', [v]
        if ty == 'i128':
            lo = self.e('trunc i64 %%%s' % v)
            s = self.c('i128', 64)
            h = self.e('lshr i128 %%%s, %%%s' % (v, s))
            hi = self.e('trunc i64 %%%s' % h)
            return '%llx:%016llx', [hi, lo]
        if ty == 'ptr':
            raise ValueError
        # floats: canonicalize NaN
        un = self.e('fcmp uno %s %%%s, %%%s' % (ty, v, v))
        nn = self.c(ty, 'nan')
        y = self.e('select %s %%%s, %%%s, %%%s' % (ty, un, nn, v))
        if ty == 'f32':
            y = self.e('fpext f64 %%%s' % y)
            return '%a', [y]
        if ty == 'f64':
            return '%a', [y]
        return '%La', [y]
    def pr(self, text, *pieces):
        """pieces: (ty, v); text contains {} for each"""
        args = []
        parts = text.split('{}')
        s = parts[0]
        for (ty, v), rest in zip(pieces, parts[1:]):
            f, a = self.show(ty, v)
            s += f + rest
            args += a
        g = self.fmt(s + '\n')
        p = self.e('symaddr @%s' % g)
        self.e('call i32 @printf(%%%s, ...%s)' % (p, ''.join(', %' + x for x in args)))
    def write(self, extra_funcs='', ret=0):
        r = self.c('i32', ret)
        out = ['; %s: %s' % (self.name, self.desc), 'module "%s"' % self.name]
        for s, g in self.fmts.items():
            esc = s.replace('\\', '\\\\').replace('\n', '\\n').replace('"', '\\"')
            out.append('global @%s size auto align 1 const internal = str"%s"' % (g, esc))
        out.append('declare @printf(ptr, ...) -> i32')
        out.append(extra_funcs.strip('\n')) if extra_funcs else None
        out.append('func @main() -> i32 {')
        out.append('entry:')
        out += self.body
        out.append('  ret %%%s' % r)
        out.append('}')
        open(D + self.name + '.cgs', 'w').write('\n'.join(x for x in out if x is not None) + '\n')

def edges(w):
    m = (1 << w) - 1
    mn = 1 << (w - 1)
    return [0, 1, m, mn, mn - 1, mn + 1, 2, (0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a & m) | 1, (0x123456789abcdef0fedcba9876543210 & m)]

INTS = ['i8', 'i16', 'i32', 'i64', 'i128']

def gen_arith():
    for ty in INTS:
        w = W[ty]
        p = P('arith_%s' % ty, 'wraparound add/sub/mul/neg at %s edges (0, 1, -1, MIN, MAX, MIN+1, patterns)' % ty)
        ev = edges(w)
        cs = [p.c(ty, x) for x in ev]
        for i, a in enumerate(cs):
            for j, b in enumerate(cs):
                if (i + j) % 2 and i != j and not (i < 6 and j < 6):
                    continue
                r1 = p.e('add %s %%%s, %%%s' % (ty, a, b))
                r2 = p.e('sub %s %%%s, %%%s' % (ty, a, b))
                r3 = p.e('mul %s %%%s, %%%s' % (ty, a, b))
                p.pr('%d,%d: add {} sub {} mul {}' % (i, j), (ty, r1), (ty, r2), (ty, r3))
            n = p.e('neg %s %%%s' % (ty, a))
            p.pr('%d: neg {}' % i, (ty, n))
        p.write()

def gen_shift():
    for ty in ['i1'] + INTS:
        w = W[ty]
        p = P('shift_%s' % ty, 'shl/lshr/ashr %s with amounts 0, 1, width-1, width, width+1, 2*width+3, all-ones (amount is taken modulo the width)' % ty)
        vals = [1, (1 << w) - 1, 1 << (w - 1), edges(w)[8] if w > 1 else 1, edges(w)[7]]
        amts = sorted(set([0, 1 % (1 << w) if w > 1 else 0, w - 1, w, w + 1, 2 * w + 3, (1 << w) - 1]))
        if w == 1:
            amts = [0, 1]
        for vi, x in enumerate(vals):
            a = p.c(ty, x)
            for s in amts:
                sc = p.c(ty, s)
                r1 = p.e('shl %s %%%s, %%%s' % (ty, a, sc))
                r2 = p.e('lshr %s %%%s, %%%s' % (ty, a, sc))
                r3 = p.e('ashr %s %%%s, %%%s' % (ty, a, sc))
                p.pr('v%d s%d: shl {} lshr {} ashr {}' % (vi, s & 0xffff), (ty, r1), (ty, r2), (ty, r3))
        p.write()

def gen_div():
    for ty in INTS:
        w = W[ty]
        m = (1 << w) - 1
        p = P('div_%s' % ty, 'sdiv/udiv/srem/urem %s: negative operands, MIN/1, MIN/MIN, MAX/-1, small/large (no /0, no MIN/-1)' % ty)
        mn = 1 << (w - 1)
        nums = [0, 7, m & -7, mn, mn - 1, m, m & -1000, 1000 % (1 << w) if w > 8 else 100]
        dens = [1, m, 3, m & -3, 2, mn, mn - 1, 7]
        for i, a in enumerate(nums):
            ac = p.c(ty, a)
            for j, b in enumerate(dens):
                if a == mn and b == m:
                    continue
                bc = p.c(ty, b)
                r = [p.e('%s %s %%%s, %%%s' % (op, ty, ac, bc)) for op in ('sdiv', 'udiv', 'srem', 'urem')]
                p.pr('%d/%d: sdiv {} udiv {} srem {} urem {}' % (i, j), *[(ty, x) for x in r])
        p.write()

def gen_logic():
    for ty in INTS:
        w = W[ty]
        p = P('logic_%s' % ty, 'and/or/xor/not/smin/smax/umin/umax and every icmp predicate on %s' % ty)
        ev = edges(w)[:8]
        cs = [p.c(ty, x) for x in ev]
        for i in range(len(cs)):
            for j in range(len(cs)):
                if (i * 3 + j) % 3 and i != j:
                    continue
                a, b = cs[i], cs[j]
                r = [p.e('%s %s %%%s, %%%s' % (op, ty, a, b)) for op in ('and', 'or', 'xor', 'smin', 'smax', 'umin', 'umax')]
                p.pr('%d,%d: and {} or {} xor {} smin {} smax {} umin {} umax {}' % (i, j), *[(ty, x) for x in r])
                c = [p.e('icmp %s %s %%%s, %%%s' % (pr, ty, a, b)) for pr in ('eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge')]
                p.pr('%d,%d: eq ne slt sle sgt sge ult ule ugt uge = {}{}{}{}{}{}{}{}{}{}' % (i, j), *[('i1', x) for x in c])
            n = p.e('not %s %%%s' % (ty, cs[i]))
            p.pr('%d: not {}' % i, (ty, n))
        p.write()

def gen_bits():
    for ty in INTS:
        w = W[ty]
        p = P('bits_%s' % ty, 'clz/ctz/popcnt%s on %s incl. 0 (clz/ctz of 0 = width)' % ('' if w == 8 else '/bswap', ty))
        vals = [0, 1, (1 << w) - 1, 1 << (w - 1), edges(w)[8], edges(w)[7], 0x10 % (1 << w), (1 << (w // 2)) | 0x8]
        for i, x in enumerate(vals):
            a = p.c(ty, x)
            r = [p.e('%s %s %%%s' % (op, ty, a)) for op in ('clz', 'ctz', 'popcnt')]
            if w > 8:
                b = p.e('bswap %s %%%s' % (ty, a))
                p.pr('%d: clz {} ctz {} pop {} bswap {}' % i, *[(ty, y) for y in r], (ty, b))
            else:
                p.pr('%d: clz {} ctz {} pop {}' % i, *[(ty, y) for y in r])
        p.write()

def gen_ovf():
    for ty in INTS:
        w = W[ty]
        p = P('overflow_%s' % ty, 'saddo/uaddo/ssubo/usubo/smulo/umulo on %s edges' % ty)
        ev = edges(w)
        cs = [p.c(ty, x) for x in ev]
        for i in range(len(cs)):
            for j in range(len(cs)):
                if (i + 2 * j) % 3 and i != j:
                    continue
                a, b = cs[i], cs[j]
                r = [p.e('%s %s %%%s, %%%s' % (op, ty, a, b)) for op in ('saddo', 'uaddo', 'ssubo', 'usubo', 'smulo', 'umulo')]
                p.pr('%d,%d: sadd uadd ssub usub smul umul = {}{}{}{}{}{}' % (i, j), *[('i1', x) for x in r])
        p.write()

def gen_intconv():
    p = P('conv_int', 'trunc/zext/sext between every pair of integer widths i1..i128')
    tys = ['i1'] + INTS
    for s in tys:
        for x in ([0, 1] if s == 'i1' else [edges(W[s])[k] for k in (2, 3, 4, 8)]):
            a = p.c(s, x)
            for d in tys:
                if W[d] < W[s]:
                    r = p.e('trunc %s %%%s' % (d, a))
                    p.pr('%s %x trunc %s {}' % (s, x, d), (d, r))
                elif W[d] > W[s]:
                    r1 = p.e('zext %s %%%s' % (d, a))
                    r2 = p.e('sext %s %%%s' % (d, a))
                    p.pr('%s %x zext/sext %s {} {}' % (s, x, d), (d, r1), (d, r2))
    p.write()

FL = ['f32', 'f64', 'f80']
def gen_fptoint():
    for ft in FL:
        p = P('fptoint_%s' % ft, 'fptosi/fptoui from %s to i8..i128: truncation, saturation at both ends, inf, NaN -> 0' % ft)
        vals = ['0.0', '-0.0', '0.5', '-0.5', '-0.99', '-1.5', '127.9', '128.0', '-128.7', '-129.0', '255.5', '256.0',
                '32767.5', '65536.0', '-32769.0', '2147483647.0', '2147483648.0', '-2147483649.0', '4294967296.0',
                '1e10', '-1e10', '9.2233720368547758e18', '-9.2233720368547758e18', '1.8446744073709552e19',
                '1.7014118346046923e38', '-1.7014118346046923e38', '1e38', '3.4e38', 'inf', '-inf', 'nan', '-nan']
        if ft != 'f32':
            vals += ['1e300', '-1e300', '9007199254740993.0', '4.5e15']
        for v in vals:
            a = p.c(ft, v)
            for it in INTS:
                r1 = p.e('fptosi %s %%%s' % (it, a))
                r2 = p.e('fptoui %s %%%s' % (it, a))
                p.pr('%s -> %s: si {} ui {}' % (v, it), (it, r1), (it, r2))
        p.write()

def gen_inttofp():
    p = P('inttofp', 'sitofp/uitofp from i8..i128 to f32/f64/f80 incl. rounding (2^24+1, 2^53+1, UINT64_MAX, i128 extremes)')
    for it in INTS:
        w = W[it]
        vals = edges(w) + ([(1 << 24) + 1, (1 << 53) + 1, (1 << 24) + 3, (1 << 63) + 1025] if w >= 32 else [])
        vals = [v & ((1 << w) - 1) for v in vals]
        for x in vals:
            a = p.c(it, x)
            for ft in FL:
                r1 = p.e('sitofp %s %%%s' % (ft, a))
                r2 = p.e('uitofp %s %%%s' % (ft, a))
                p.pr('%s %x -> %s: s {} u {}' % (it, x, ft), (ft, r1), (ft, r2))
    p.write()

FVALS = ['1.0', '-2.5', '0.1', '3.0', '-0.0', '0.0', 'inf', '-inf', 'nan', '1e-310', '1.5e300', '7.0', '-1e-30']
def gen_farith():
    for ft in FL:
        p = P('farith_%s' % ft, 'fadd/fsub/fmul/fdiv/frem/fneg on %s incl. inf, NaN, -0, denormal/overflow' % ft)
        cs = [(v, p.c(ft, v)) for v in FVALS]
        for i, (va, a) in enumerate(cs):
            for j, (vb, b) in enumerate(cs):
                if (i + j) % 2 and i != j:
                    continue
                r = [p.e('%s %s %%%s, %%%s' % (op, ft, a, b)) for op in ('fadd', 'fsub', 'fmul', 'fdiv', 'frem')]
                p.pr('%s,%s: + {} - {} * {} / {} rem {}' % (va, vb), *[(ft, x) for x in r])
            n = p.e('fneg %s %%%s' % (ft, a))
            p.pr('%s: neg {}' % va, (ft, n))
        # 1/3 chains: precision of the type
        one, three = p.c(ft, '1.0'), p.c(ft, '3.0')
        q = p.e('fdiv %s %%%s, %%%s' % (ft, one, three))
        q3 = p.e('fmul %s %%%s, %%%s' % (ft, q, three))
        d = p.e('fsub %s %%%s, %%%s' % (ft, q3, one))
        p.pr('third {} x3-1 {}', (ft, q), (ft, d))
        p.write()

FCP = ['oeq', 'one', 'olt', 'ole', 'ogt', 'oge', 'ueq', 'une', 'ult', 'ule', 'ugt', 'uge', 'ord', 'uno']
def gen_fcmp():
    for ft in FL:
        p = P('fcmp_%s' % ft, 'every fcmp predicate on %s with NaN on either/both sides, equal, less, greater, -0 vs 0, infinities' % ft)
        pairs = [('1.0', '2.0'), ('2.0', '1.0'), ('1.0', '1.0'), ('nan', '1.0'), ('1.0', 'nan'), ('nan', 'nan'),
                 ('-0.0', '0.0'), ('inf', '-inf'), ('-inf', 'nan'), ('inf', 'inf')]
        for a_, b_ in pairs:
            a, b = p.c(ft, a_), p.c(ft, b_)
            r = [p.e('fcmp %s %s %%%s, %%%s' % (pr, ft, a, b)) for pr in FCP]
            p.pr('%s %s: %s = %s' % (a_, b_, ' '.join(FCP), '{}' * len(FCP)), *[('i1', x) for x in r])
        p.write()

def gen_fmath():
    for ft in FL:
        p = P('fmath_%s' % ft, 'fmin/fmax (NaN operand ignored)/fma (single rounding)/fsqrt/fcopysign/fabs on %s' % ft)
        vals = ['1.0', '-2.5', '4.0', 'nan', 'inf', '-inf', '2.0', '-0.0', '0.1']
        cs = [(v, p.c(ft, v)) for v in vals]
        for va, a in cs:
            r1 = p.e('fsqrt %s %%%s' % (ft, a))
            r2 = p.e('fabs %s %%%s' % (ft, a))
            p.pr('%s: sqrt {} abs {}' % va, (ft, r1), (ft, r2))
            for vb, b in cs:
                if va in ('-0.0',) and vb in ('0.0', '-0.0') or (va == vb == '-0.0'):
                    continue
                r = [p.e('%s %s %%%s, %%%s' % (op, ft, a, b)) for op in ('fmin', 'fmax', 'fcopysign')]
                p.pr('%s,%s: min {} max {} copysign {}' % (va, vb), *[(ft, x) for x in r])
        # fma single rounding: (1+e)*(1-e) - 1 = -e^2
        eps = {'f32': '0x1p-13', 'f64': '0x1p-30', 'f80': '0x1p-33'}[ft]
        e = p.c(ft, eps)
        one = p.c(ft, '1.0')
        mone = p.c(ft, '-1.0')
        a = p.e('fadd %s %%%s, %%%s' % (ft, one, e))
        b = p.e('fsub %s %%%s, %%%s' % (ft, one, e))
        f = p.e('fma %s %%%s, %%%s, %%%s' % (ft, a, b, mone))
        m = p.e('fmul %s %%%s, %%%s' % (ft, a, b))
        m2 = p.e('fadd %s %%%s, %%%s' % (ft, m, mone))
        p.pr('fma {} vs mul+add {}', (ft, f), (ft, m2))
        for x, y, z in [('2.0', '3.0', '4.0'), ('inf', '0.0', '1.0'), ('nan', '1.0', '1.0'), ('1.0', '1.0', '-1.0'), ('-2.0', '0.5', 'inf')]:
            f = p.e('fma %s %%%s, %%%s, %%%s' % (ft, p.c(ft, x), p.c(ft, y), p.c(ft, z)))
            p.pr('fma(%s,%s,%s) {}' % (x, y, z), (ft, f))
        p.write()

def gen_fpconv():
    p = P('conv_fp', 'fptrunc/fpext between f32/f64/f80 (rounding, overflow to inf, denormals, NaN) and bitcast f32<->i32, f64<->i64')
    for v in ['0.1', '1e39', '-1e39', '1e-40', '1e-46', '3.4028235677973366e38', '1.0000001192092896', 'nan', '-inf', '-0.0', '16777217.0', '1e300']:
        a64 = p.c('f64', v)
        a80 = p.c('f80', v)
        t1 = p.e('fptrunc f32 %%%s' % a64)
        t2 = p.e('fptrunc f32 %%%s' % a80)
        t3 = p.e('fptrunc f64 %%%s' % a80)
        e1 = p.e('fpext f80 %%%s' % t1)
        e2 = p.e('fpext f64 %%%s' % t1)
        e3 = p.e('fpext f80 %%%s' % a64)
        p.pr('%s: {} {} {} {} {} {}' % v, ('f32', t1), ('f32', t2), ('f64', t3), ('f80', e1), ('f64', e2), ('f80', e3))
        b1 = p.e('bitcast i64 %%%s' % a64)
        b2 = p.e('bitcast i32 %%%s' % t1)
        p.pr('%s bits: {} {}' % v, ('i64', b1), ('i32', b2))
    for bits in [0x3f800000, 0x7f800001, 0x00000001, 0x80000000]:
        x = p.c('i32', bits)
        f = p.e('bitcast f32 %%%s' % x)
        b = p.e('bitcast i32 %%%s' % f)
        d = p.e('fpext f64 %%%s' % f)
        un = p.e('fcmp uno f32 %%%s, %%%s' % (f, f))
        p.pr('i32 %x -> f32 -> i32 {} uno {}' % bits, ('i32', b), ('i1', un))
    # f80 third: narrowing roundings
    one = p.c('f80', '1.0')
    three = p.c('f80', '3.0')
    q = p.e('fdiv f80 %%%s, %%%s' % (one, three))
    q64 = p.e('fptrunc f64 %%%s' % q)
    q32 = p.e('fptrunc f32 %%%s' % q)
    p.pr('1/3L -> f64 {} f32 {}', ('f64', q64), ('f32', q32))
    p.write()

def gen_select():
    p = P('select_i1', 'i1 logic (and/or/xor/not/icmp on i1) and select on every type with true/false conditions')
    t, f = p.c('i1', 1), p.c('i1', 0)
    for a, an in ((t, 1), (f, 0)):
        for b, bn in ((t, 1), (f, 0)):
            r = [p.e('%s i1 %%%s, %%%s' % (op, a, b)) for op in ('and', 'or', 'xor', 'add', 'mul')]
            c = [p.e('icmp %s i1 %%%s, %%%s' % (pr, a, b)) for pr in ('eq', 'ne', 'ult', 'ugt', 'slt', 'sgt')]
            p.pr('%d %d: and {} or {} xor {} add {} mul {} | eq ne ult ugt slt sgt {}{}{}{}{}{}' % (an, bn), *[('i1', x) for x in r + c])
        n = p.e('not i1 %%%s' % a)
        z = p.e('zext i32 %%%s' % a)
        s = p.e('sext i32 %%%s' % a)
        p.pr('%d: not {} zext {} sext {}' % an, ('i1', n), ('i32', z), ('i32', s))
    for ty, x, y in [('i8', 5, 250), ('i16', 1, 65535), ('i32', 7, 0xdeadbeef), ('i64', 1, 1 << 63), ('i128', 3, 1 << 127), ('f32', '1.5', '-2.0'), ('f64', '0.25', 'inf'), ('f80', '3.0', '-0.0'), ('i1', 1, 0)]:
        a, b = p.c(ty, x), p.c(ty, y)
        for c, cn in ((t, 1), (f, 0)):
            r = p.e('select %s %%%s, %%%s, %%%s' % (ty, c, a, b))
            p.pr('select %s %d: {}' % (ty, cn), (ty, r))
    # select driven by a comparison
    a, b = p.c('i32', 10), p.c('i32', -3 & 0xffffffff)
    lt = p.e('icmp slt i32 %%%s, %%%s' % (a, b))
    ult = p.e('icmp ult i32 %%%s, %%%s' % (a, b))
    r1 = p.e('select i32 %%%s, %%%s, %%%s' % (lt, a, b))
    r2 = p.e('select i32 %%%s, %%%s, %%%s' % (ult, a, b))
    p.pr('smin-by-select {} umin-by-select {}', ('i32', r1), ('i32', r2))
    p.write()

if __name__ == '__main__':
    for g in [gen_arith, gen_shift, gen_div, gen_logic, gen_bits, gen_ovf, gen_intconv, gen_fptoint, gen_inttofp,
              gen_farith, gen_fcmp, gen_fmath, gen_fpconv, gen_select]:
        g()

# ---- dynamic variants: every op goes through a noinline helper taking parameters,
# so executors cannot constant-fold it (LLVM: poison rules, hardware shift masking, ...)
class DP(P):
    def __init__(self, name, desc):
        P.__init__(self, name, desc)
        self.helpers = {}
    def h(self, op, rty, tys, text):
        key = (op, rty, tuple(tys))
        if key not in self.helpers:
            nm = 'h_%s_%s_%s' % (op.replace('.', '_'), rty, '_'.join(tys))
            ps = ', '.join('%s %%a%d' % (t, i) for i, t in enumerate(tys))
            body = text % tuple('%%a%d' % i for i in range(len(tys)))
            self.helpers[key] = (nm, 'func @%s(%s) -> %s noinline internal {\nentry:\n  %%r = %s\n  ret %%r\n}' % (nm, ps, rty, body))
        return self.helpers[key][0]
    def call(self, op, rty, tys, text, *args):
        nm = self.h(op, rty, tys, text)
        return self.e('call %s @%s(%s)' % (rty, nm, ', '.join('%' + a for a in args)))
    def write(self, ret=0):
        P.write(self, extra_funcs='\n'.join(v[1] for v in self.helpers.values()), ret=ret)

def gen_dyn():
    for ty in ['i8', 'i16', 'i32', 'i64', 'i128']:
        w = W[ty]
        p = DP('dyn_shift_%s' % ty, 'shl/lshr/ashr %s through noinline helpers (runtime amounts 0, 1, w-1, w, w+1, 2w+3, all-ones; taken modulo the width)' % ty)
        vals = [1, (1 << w) - 1, 1 << (w - 1), edges(w)[8]]
        amts = sorted(set([0, 1, w - 1, w, w + 1, 2 * w + 3, (1 << w) - 1]))
        for vi, x in enumerate(vals):
            a = p.c(ty, x)
            for s in amts:
                sc = p.c(ty, s)
                r = [p.call(op, ty, [ty, ty], op + ' ' + ty + ' %s, %s', a, sc) for op in ('shl', 'lshr', 'ashr')]
                p.pr('v%d s%d: shl {} lshr {} ashr {}' % (vi, s & 0xffff), *[(ty, y) for y in r])
        p.write()
    p = DP('dyn_divbits', 'sdiv/udiv/srem/urem, clz/ctz/popcnt/bswap and overflow ops through noinline helpers on every width (runtime operands)')
    for ty in ['i8', 'i16', 'i32', 'i64', 'i128']:
        w = W[ty]
        m = (1 << w) - 1
        mn = 1 << (w - 1)
        for a_, b_ in [(mn, 1), (m & -7, 2), (7, m & -2), (mn - 1, mn), (m, 3)]:
            a, b = p.c(ty, a_), p.c(ty, b_)
            r = [p.call(op, ty, [ty, ty], op + ' ' + ty + ' %s, %s', a, b) for op in ('sdiv', 'udiv', 'srem', 'urem')]
            o = [p.call(op, 'i1', [ty, ty], op + ' ' + ty + ' %s, %s', a, b) for op in ('saddo', 'uaddo', 'ssubo', 'usubo', 'smulo', 'umulo')]
            p.pr('%s %x %x: {} {} {} {} ovf {}{}{}{}{}{}' % (ty, a_, b_), *[(ty, y) for y in r], *[('i1', y) for y in o])
        for x in [0, 1, m, mn, edges(w)[8]]:
            a = p.c(ty, x)
            ops = ('clz', 'ctz', 'popcnt') + (('bswap',) if w > 8 else ())
            r = [p.call(op, ty, [ty], op + ' ' + ty + ' %s', a) for op in ops]
            p.pr('%s %x: %s' % (ty, x, ' '.join(['{}'] * len(r))), *[(ty, y) for y in r])
    p.write()
    for ft in FL:
        p = DP('dyn_fptoint_%s' % ft, 'fptosi/fptoui %s -> i8..i128 through noinline helpers: saturation and NaN -> 0 on runtime values' % ft)
        vals = ['-0.5', '-1.5', '127.9', '128.0', '-129.0', '255.5', '256.0', '65536.0', '-32769.0', '4294967296.0',
                '-1e10', '1.8446744073709552e19', '1.7014118346046923e38', '3.4e38', 'inf', '-inf', 'nan']
        for v in vals:
            a = p.c(ft, v)
            for it in INTS:
                r1 = p.call('fptosi', it, [ft], 'fptosi ' + it + ' %s', a)
                r2 = p.call('fptoui', it, [ft], 'fptoui ' + it + ' %s', a)
                p.pr('%s -> %s: si {} ui {}' % (v, it), (it, r1), (it, r2))
        p.write()
    p = DP('dyn_fcmp', 'every fcmp predicate on f32/f64/f80 through noinline helpers with NaN operands (runtime values)')
    for ft in FL:
        for a_, b_ in [('1.0', '2.0'), ('2.0', '2.0'), ('nan', '1.0'), ('1.0', 'nan'), ('-0.0', '0.0'), ('inf', 'nan')]:
            a, b = p.c(ft, a_), p.c(ft, b_)
            r = [p.call('fcmp_' + pr, 'i1', [ft, ft], 'fcmp ' + pr + ' ' + ft + ' %s, %s', a, b) for pr in FCP]
            p.pr('%s %s %s: %s' % (ft, a_, b_, '{}' * len(FCP)), *[('i1', x) for x in r])
        for a_, b_ in [('1.0', 'nan'), ('-0.0', '0.0'), ('-3.0', '2.0')]:
            a, b = p.c(ft, a_), p.c(ft, b_)
            r = [p.call(op, ft, [ft, ft], op + ' ' + ft + ' %s, %s', a, b) for op in ('fmin', 'fmax', 'fcopysign', 'frem')] if a_ != '-0.0' else \
                [p.call(op, ft, [ft, ft], op + ' ' + ft + ' %s, %s', a, b) for op in ('fcopysign', 'frem')]
            p.pr('%s %s %s: %s' % (ft, a_, b_, ' '.join(['{}'] * len(r))), *[(ft, x) for x in r])
    p.write()

if __name__ == '__main__':
    gen_dyn()
