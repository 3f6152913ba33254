#!/usr/bin/env python3
# tests/rv64/lift/fp_random.py — writes a riscv64 assembly program that runs
# a few thousand F/D instructions on special and random operands in every
# rounding mode (static and dynamic), storing each result and the fflags it
# raised, then writes them all to stdout: kit and qemu-riscv64 must agree
# bit for bit. Deterministic (fixed seed).
import random, struct, sys

rng = random.Random(20261129)
RMS = ['rne', 'rtz', 'rdn', 'rup', 'rmm', 'dyn']

def d(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def s(x): return struct.unpack('<I', struct.pack('<f', x))[0]

D_SPECIAL = [0, 1 << 63, d(1.0), d(-1.0), d(0.5), d(1.5), d(2.5), d(-2.5), d(1 / 3), d(-2 / 3),
             0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000000,
             0xfff8000000000123, 1, 0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
             d(2.0 ** 63), d(-2.0 ** 63), d(2.0 ** 64), d(2.0 ** 31), d(-2.0 ** 31 - 1), d(4294967295.5),
             d(1e300), d(1e-300), d(3.0), d(1.0 + 2 ** -52), d(-0.49999999999999994)]
S_SPECIAL = [0, 0x80000000, s(1.0), s(-1.0), s(0.5), s(2.5), s(-2.5), s(1 / 3), 0x7f800000, 0xff800000,
             0x7fc00000, 0x7fa00000, 1, 0x007fffff, 0x00800000, 0x7f7fffff, s(2.0 ** 31), s(-2.0 ** 31),
             s(2.0 ** 63), s(2.0 ** 64), s(3.0), s(1.0 + 2 ** -23), s(16777217.0), s(-0.75)]
INTS = [0, 1, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, 1 << 31, (1 << 31) - 1, 0xffffffff80000000,
        16777217, 0x20000001, 9007199254740993, 0xfffffffffffff001]

def dval():
    if rng.random() < 0.6: return rng.choice(D_SPECIAL)
    if rng.random() < 0.5: return d(rng.uniform(-10, 10))
    return rng.getrandbits(64)

def sval():
    if rng.random() < 0.07: return rng.getrandbits(64)      # not NaN-boxed: reads as the canonical NaN
    v = rng.choice(S_SPECIAL) if rng.random() < 0.6 else (
        s(rng.uniform(-10, 10)) if rng.random() < 0.5 else rng.getrandbits(32))
    return 0xffffffff00000000 | v

def ival():
    return rng.choice(INTS) if rng.random() < 0.5 else rng.getrandbits(64)

# (mnemonic template, operand kinds, result kind, takes rm)
OPS = []
for t in 'sd':
    OPS += [(f'f{o}.{t}', 'fff'[:2], 'f', True) for o in ('add', 'sub', 'mul', 'div')]
    OPS += [(f'fsqrt.{t}', 'f', 'f', True)]
    OPS += [(f'{o}.{t}', 'fff', 'f', True) for o in ('fmadd', 'fmsub', 'fnmsub', 'fnmadd')]
    OPS += [(f'{o}.{t}', 'ff', 'f', False) for o in ('fmin', 'fmax', 'fsgnj', 'fsgnjn', 'fsgnjx')]
    OPS += [(f'{o}.{t}', 'ff', 'x', False) for o in ('feq', 'flt', 'fle')]
    OPS += [(f'fclass.{t}', 'f', 'x', False)]
    OPS += [(f'fcvt.{i}.{t}', 'f', 'x', True) for i in ('w', 'wu', 'l', 'lu')]
    OPS += [(f'fcvt.{t}.{i}', 'x', 'f', t == 's' or i in ('l', 'lu')) for i in ('w', 'wu', 'l', 'lu')]
OPS += [('fcvt.s.d', 'f', 'f', True), ('fcvt.d.s', 'f', 'f', False)]

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
data, code = [], []
for k in range(N):
    name, kinds, res, has_rm = rng.choice(OPS)
    src_t = name.split('.')[-1] if name != 'fcvt.d.s' else 's'
    if name == 'fcvt.s.d': src_t = 'd'
    vals = [(dval() if src_t == 'd' else sval()) if kk == 'f' else ival() for kk in kinds]
    vals += [0] * (3 - len(vals))
    data.append(vals)
    code.append(f'  fld f1, 0(s0)\n  fld f2, 8(s0)\n  fld f3, 16(s0)\n  ld a1, 0(s0)')
    rm = rng.choice(RMS) if has_rm else None
    if rm == 'dyn' or (rm is None and rng.random() < 0.2):
        code.append(f'  fsrmi {rng.randrange(5)}')
    code.append('  fsflags zero')
    if kinds == 'x':
        ops = 'f0, a1'
    else:
        regs = ['f1', 'f2', 'f3'][:len(kinds)]
        ops = ('a0, ' if res == 'x' else 'f0, ') + ', '.join(regs)
    code.append(f'  {name} {ops}' + (f', {rm}' if rm else ''))
    code.append('  sd a0, 0(s1)' if res == 'x' else '  fsd f0, 0(s1)')
    code.append('  frflags t0\n  sd t0, 8(s1)\n  addi s0, s0, 24\n  addi s1, s1, 16')

print('  .text\n  .globl _start\n_start:\n  la s0, operands\n  la s1, results')
print('\n'.join(code))
print(f'  li a7, 64\n  li a0, 1\n  la a1, results\n  li a2, {16 * N}\n  ecall\n  li a7, 93\n  li a0, 0\n  ecall')
print('  .data\n  .balign 8\noperands:')
for v in data: print('  .dword ' + ', '.join(hex(x) for x in v))
print(f'results: .space {16 * N}')
