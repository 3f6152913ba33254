#!/usr/bin/env python3
"""tests/emu/gdb/fuzz_stub.py KIT_EMU GUEST_SRC — bad input never crashes the
stub: seeded random packets (and raw bytes) to kit-emu -g, none of which
changes the guest's registers or memory (reads of any address and length,
any register number, breakpoints and watchpoints anywhere, every qXfer
object with any offset, vFile with bad descriptors and paths, thousands of
syscall numbers, malformed vCont, garbage), then a continue and a hang-up:
the guest must run to its own end, exit code 55, every time."""
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_gdb import free_port, listening  # noqa: E402


def packets(rnd):
    h = lambda n: b"%x" % rnd.getrandbits(n)  # noqa: E731
    return [
        b"g", b"p" + h(10), b"m%s,%s" % (h(64), h(20)), b"Z%d,%s,%s" % (rnd.randint(0, 9), h(64), h(64)),
        b"z%d,%s,%s" % (rnd.randint(0, 4), h(64), h(8)), b"qXfer:features:read:target.xml:%s,%s" % (h(16), h(16)),
        b"qXfer:libraries-svr4:read::0,ffffffff", b"qXfer:auxv:read::ffffffffffff,1", b"qXfer:threads:read::0,0",
        b"qXfer:nosuch:read::0,10", b"qXfer:exec-file:read:zz:", b"vFile:open:%s,0,0" % os.urandom(4).hex().encode(),
        b"vFile:pread:%x,ffffffff,ffffffffffff" % rnd.randint(0, 20), b"vFile:fstat:zz", b"vFile:close:-1",
        b"vCont;q", b"vCont;s:zz", b"vCont", b"qRcmd,zz", b"qRcmd,", b"qRcmd," + b"points".hex().encode(),
        b"QCatchSyscalls:1;" + b";".join(h(64) for _ in range(rnd.randint(0, 700))), b"QCatchSyscalls:0",
        b"H" + bytes([rnd.randint(33, 126)]), b"Hg" + h(64), b"T-5", b"qC", b"?", b"qSupported:" + os.urandom(8).hex().encode(),
        bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 80))),
    ]


def main():
    kit_emu, src = sys.argv[1], sys.argv[2]
    if not shutil.which("riscv64-linux-gnu-gcc"):
        print("riscv64-linux-gnu-gcc not installed")
        sys.exit(77)
    work = tempfile.mkdtemp(prefix="kit-gdb-fuzz-")
    prog = os.path.join(work, "guest")
    subprocess.run(["riscv64-linux-gnu-gcc", "-g", "-static", src, "-o", prog], check=True)
    failures = 0
    for seed in range(8):
        rnd = random.Random(seed)
        port = free_port()
        guest = subprocess.Popen([kit_emu, "-g", str(port), prog], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while not listening(port):
            time.sleep(0.01)
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(0.1)
        try:
            for _ in range(80):
                c = rnd.choice(packets(rnd))
                s.sendall(b"$" + c + b"#%02x" % (sum(c) & 0xFF) if rnd.random() < 0.9 else c)
                try:
                    s.recv(1 << 16)
                except socket.timeout:
                    pass
            for c in (b"z0,0,0", b"QCatchSyscalls:0", b"vCont;c"):  # what a seed left must not stop it for long
                s.sendall(b"$" + c + b"#%02x" % (sum(c) & 0xFF))
        except OSError:
            pass
        s.close()  # a hang-up: the stub detaches, the guest runs on
        try:
            guest.wait(timeout=20)
        except subprocess.TimeoutExpired:
            guest.kill()
            guest.wait()
        ok = guest.returncode == 55
        print("%s seed %d: kit-emu exit %s" % ("ok  " if ok else "FAIL", seed, guest.returncode))
        if not ok:
            failures += 1
            print(guest.stderr.read().decode(errors="replace")[-400:])
    shutil.rmtree(work)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
