#!/usr/bin/env python3
"""build: src/*.cgs -> tests/cg/*.cg with expectations computed by gcc on cg2c output."""
import sys, os, subprocess, glob, tempfile, shutil
sys.path.insert(0, os.path.dirname(__file__))
import cgpp, cg2c
D = os.path.dirname(os.path.abspath(__file__))
DEST = os.environ.get('CG_CORPUS_DEST', os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')))
WORK = tempfile.mkdtemp(prefix='cg-corpus-build.')
names = sys.argv[1:] or sorted(os.path.basename(p)[:-4] for p in glob.glob(D + '/src/*.cgs'))
bad = 0
for n in names:
    src = open('%s/src/%s.cgs' % (D, n)).read()
    body = cgpp.process(src)
    tmp = '%s/%s' % (WORK, n)
    open(tmp + '.cg', 'w').write(body)
    try:
        c = cg2c.main(tmp + '.cg')
    except BaseException as e:
        print('%s: cg2c failed: %r' % (n, e)); bad += 1; continue
    open(tmp + '.c', 'w').write(c)
    r = subprocess.run(['gcc', '-O0', '-fno-builtin', '-w', '-o', tmp + '.exe', tmp + '.c', '-lm', '-lpthread', '-latomic'], capture_output=True, text=True)
    if r.returncode:
        print('%s: gcc failed\n%s' % (n, r.stderr[:3000])); bad += 1; continue
    r = subprocess.run([tmp + '.exe'], capture_output=True, timeout=20)
    out = r.stdout.decode('latin-1')
    if out and not out.endswith('\n'):
        print('%s: output does not end in newline' % n); bad += 1; continue
    if r.returncode < 0:
        print('%s: C program died with signal %d' % (n, -r.returncode)); bad += 1; continue
    lines = body.split('\n')
    assert lines[0].startswith(';'), n + ': first line must be a comment'
    hdr = [lines[0], '; expect-exit: %d' % r.returncode]
    hdr += [('; expect: ' + l) for l in out.split('\n')[:-1]]
    open('%s/%s.cg' % (DEST, n), 'w').write('\n'.join(hdr + lines[1:]))
    print('%s: ok, exit %d, %d lines' % (n, r.returncode, len(out.split('\n')) - 1))
shutil.rmtree(WORK, ignore_errors=True)
sys.exit(1 if bad else 0)
