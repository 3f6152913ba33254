#!/usr/bin/env python3
"""cgpp: symbolic CG (.cgs) -> canonical CG text (.cg).
 - %name values (letters first) renumbered per function: params 1..n, then defs in text order
 - block labels `name:` -> bN in order; references written as `.name`
 - `stack $name ...` -> $N
 - `const f32|f64|f80 <python float literal|inf|-inf|nan|-0.0>` -> raw bits
 - global `= str"..."` (C escapes) -> x"..." + NUL; `size auto` -> blob length
"""
import re, struct, sys, math

def f80_bits(v):
    if math.isnan(v):
        return (0x7fff << 64) | 0xC000000000000000
    sign = 1 if math.copysign(1.0, v) < 0 else 0
    v = abs(v)
    if math.isinf(v):
        return ((sign << 15 | 0x7fff) << 64) | 0x8000000000000000
    if v == 0:
        return (sign << 15) << 64
    m, e = math.frexp(v)  # v = m*2^e, 0.5<=m<1
    mant = int(m * (1 << 64))  # exact for doubles
    exp = e - 1 + 16383
    return ((sign << 15 | exp) << 64) | mant

def fbits(ty, lit):
    lit = lit.strip()
    if lit.startswith('0x') and '.' not in lit and 'p' not in lit:
        return lit  # already raw bits
    if lit in ('nan', '+nan'):
        v = float('nan')
    elif lit == '-nan':
        v = -float('nan')
    elif 'p' in lit:
        v = float.fromhex(lit)
    else:
        v = float(lit)
    if ty == 'f32':
        if math.isnan(v):
            return '0x%08x' % (0xffc00000 if lit.startswith('-') else 0x7fc00000)
        try:
            return '0x%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
        except OverflowError:
            return '0x%08x' % (0xff800000 if v < 0 else 0x7f800000)
    if ty == 'f64':
        if math.isnan(v):
            return '0x%016x' % (0xfff8000000000000 if lit.startswith('-') else 0x7ff8000000000000)
        return '0x%016x' % struct.unpack('<Q', struct.pack('<d', v))[0]
    if ty == 'f80':
        b = f80_bits(v)
        if math.isnan(v) and lit.startswith('-'):
            b |= 1 << 79
        return '0x%020x' % b
    raise ValueError(ty)

def cstr_bytes(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == '\\':
            n = s[i + 1]
            if n == 'n': out.append(10); i += 2
            elif n == 't': out.append(9); i += 2
            elif n == '\\': out.append(92); i += 2
            elif n == '"': out.append(34); i += 2
            elif n == '0': out.append(0); i += 2
            elif n == 'x': out.append(int(s[i + 2:i + 4], 16)); i += 4
            else: raise ValueError('escape ' + n)
        else:
            out += c.encode(); i += 1
    return bytes(out)

STR_RE = re.compile(r'str"((?:[^"\\]|\\.)*)"')

def do_global(line):
    m = STR_RE.search(line)
    if m:
        b = cstr_bytes(m.group(1)) + b'\0'
        line = line[:m.start()] + 'x"' + b.hex() + '"' + line[m.end():]
        line = line.replace('size auto', 'size %d' % len(b))
    return line

def do_func(lines):
    hdr = lines[0]
    m = re.match(r'(func\s+@(?:"(?:[^"\\]|\\.)*"|[\w.$]+)\()(.*?)(\)\s*->.*)$', hdr)
    vals = {}
    n = 0
    params = []
    for p in [x.strip() for x in re.split(r',(?![^(]*\))', m.group(2))] if m.group(2).strip() else []:
        pm = re.search(r'\s%([A-Za-z_]\w*)$', p)
        if pm:
            n += 1
            vals[pm.group(1)] = n
            p = p[:pm.start()]
        elif p != '...':
            n += 1
        params.append(p)
    hdr = m.group(1) + ', '.join(params) + m.group(3)
    blocks, stacks = {}, {}
    for l in lines[1:]:
        s = l.split(';')[0].strip() if not l.strip().startswith('stack') else l.strip()
        bm = re.match(r'^([A-Za-z_]\w*):\s*$', s)
        if bm:
            blocks[bm.group(1)] = len(blocks)
        sm = re.match(r'^stack\s+\$([A-Za-z_]\w*)', s)
        if sm:
            stacks[sm.group(1)] = len(stacks)
        dm = re.match(r'^%([A-Za-z_]\w*)\s*=', s)
        if dm:
            if dm.group(1) in vals:
                raise SystemExit('redefined %' + dm.group(1) + ' in ' + hdr)
            n += 1
            vals[dm.group(1)] = n
    out = [hdr]
    for l in lines[1:]:
        code, sep, com = l.partition(';')
        s = code.strip()
        bm = re.match(r'^([A-Za-z_]\w*):\s*$', s)
        if bm:
            out.append('b%d:' % blocks[bm.group(1)])
            continue
        def rv(mm):
            k = mm.group(1)
            if k not in vals:
                raise SystemExit('undefined %%%s in %s: %s' % (k, hdr, l))
            return '%%%d' % vals[k]
        code = re.sub(r'%([A-Za-z_]\w*)', rv, code)
        def rb(mm):
            k = mm.group(1)
            if k not in blocks:
                raise SystemExit('undefined block .%s in %s' % (k, hdr))
            return 'b%d' % blocks[k]
        code = re.sub(r'(?<![\w"])\.([A-Za-z_]\w*)', rb, code)
        code = re.sub(r'\$([A-Za-z_]\w*)', lambda mm: '$%d' % stacks[mm.group(1)], code)
        cm = re.match(r'^(\s*%\d+\s*=\s*const\s+(f32|f64|f80)\s+)(\S+)(.*)$', code)
        if cm:
            code = cm.group(1) + fbits(cm.group(2), cm.group(3)) + cm.group(4)
        out.append(code.rstrip() + ((' ;' + com) if sep and code.strip() else (';' + com if sep else '')))
    return out

def process(text):
    lines = text.split('\n')
    out = []
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith('func '):
            j = i
            while lines[j].strip() != '}':
                j += 1
            out += do_func(lines[i:j])
            out.append('}')
            i = j + 1
            continue
        if l.startswith('global '):
            l = do_global(l)
        out.append(l)
        i += 1
    return '\n'.join(out).rstrip('\n') + '\n'

if __name__ == '__main__':
    sys.stdout.write(process(open(sys.argv[1]).read()))
