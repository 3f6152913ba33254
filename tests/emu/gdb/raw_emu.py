#!/usr/bin/env python3
"""tests/emu/gdb/raw_emu.py KIT_EMU — kit-emu -g spoken to packet by packet,
for what this gdb-multiarch cannot drive on riscv64 ("catch syscall" is
"not supported on this architecture yet" in it): QCatchSyscalls with the
syscall_entry/syscall_return stop replies, qXfer:auxv (AT_ENTRY is the
program's entry), qXfer:exec-file, qXfer:threads, vFile (the program's
bytes; no host file the guest has not mapped), qXfer:libraries-svr4 of a
dynamic program (libc listed once ld.so has loaded it), monitor commands,
an unreadable address answered E14 (never a fault of kit-emu), a step,
vKill; threads (threads.c): qfThreadInfo, qC, T, Hg with another
thread's registers, a stop naming its thread, vCont;s:TID of a thread other
than the one stopped. Exit 77 without the cross compiler."""
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_gdb import free_port, listening  # noqa: E402

failures = []


def check(name, cond, detail=b""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": %r" % detail[:300]))
    if not cond:
        failures.append(name)


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.settimeout(20)
        self.buf = b""

    def byte(self):
        while not self.buf:
            self.buf = self.s.recv(65536)
            if not self.buf:
                raise EOFError("kit-emu closed the connection")
        c, self.buf = self.buf[:1], self.buf[1:]
        return c

    def packet(self):
        c = self.byte()
        while c != b"$":
            c = self.byte()
        body = b""
        while (c := self.byte()) != b"#":
            body += c
        cs = self.byte() + self.byte()
        assert int(cs, 16) == sum(body) & 0xFF
        self.s.sendall(b"+")
        out, i = b"", 0
        while i < len(body):  # '}' escapes
            if body[i:i + 1] == b"}":
                out += bytes([body[i + 1] ^ 0x20])
                i += 2
            else:
                out += body[i:i + 1]
                i += 1
        return out

    def ask(self, body):
        self.s.sendall(b"$" + body + b"#" + b"%02x" % (sum(body) & 0xFF))
        return self.packet()

    def xfer(self, obj, annex=b""):
        data, off = b"", 0
        while True:
            r = self.ask(b"qXfer:%s:read:%s:%x,800" % (obj, annex, off))
            if not r or r[:1] not in (b"m", b"l"):
                return r
            data += r[1:]
            off += len(r) - 1
            if r[:1] == b"l":
                return data


def start(kit_emu, prog, args=()):
    port = free_port()
    guest = subprocess.Popen([kit_emu, "-L", "/usr/riscv64-linux-gnu", "-g", str(port), prog] + list(args),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while not listening(port):
        if guest.poll() is not None or time.time() > deadline:
            sys.exit("kit-emu did not listen")
        time.sleep(0.05)
    c = Conn(port)
    c.ask(b"qSupported:multiprocess+;swbreak+;hwbreak+")
    return guest, c


def threads_packets(kit_emu, work):
    """threads.c: thread 2 stopped at work() while threads 1 and 3 wait in pthread_join"""
    prog = os.path.join(work, "threads")
    subprocess.run(["riscv64-linux-gnu-gcc", "-g", "-O0", "-static", "-pthread", os.path.join(HERE, "threads.c"), "-o",
                    prog], check=True)
    nm = subprocess.run(["riscv64-linux-gnu-nm", prog], capture_output=True, text=True).stdout
    work_fn = int([l for l in nm.splitlines() if l.endswith(" t work")][0].split()[0], 16)
    guest, c = start(kit_emu, prog)
    pid = guest.pid
    r = c.ask(b"qfThreadInfo")
    check("qfThreadInfo before the threads: the main thread", r == b"mp%x.%x" % (pid, pid), r)
    check("Z0 at work", c.ask(b"Z0,%x,2" % work_fn) == b"OK")
    r = c.ask(b"vCont;c")
    stopped = r.split(b"thread:p%x." % pid)[1].split(b";")[0] if b"thread:p" in r else b""
    check("the breakpoint stops the second thread and names it", r.startswith(b"T05swbreak:;thread:p") and
          stopped and int(stopped, 16) != pid, r)
    r = c.ask(b"qfThreadInfo")
    tids = [int(t.split(b".")[1], 16) for t in r[1:].split(b",")] if r.startswith(b"m") else []
    check("qfThreadInfo: three threads, the main one first", len(tids) == 3 and tids[0] == pid, r)
    check("qsThreadInfo ends the list", c.ask(b"qsThreadInfo") == b"l")
    check("qXfer:threads lists the three", c.xfer(b"threads").count(b"<thread id=\"p") == 3)
    check("qC: the thread that stopped", c.ask(b"qC") == b"QCp%x.%s" % (pid, stopped))
    for t in tids:
        check("T: thread %d alive" % t, c.ask(b"Tp%x.%x" % (pid, t)) == b"OK")
    check("T: no such thread", c.ask(b"Tp%x.7fffffff" % pid) == b"E01")
    r = c.ask(b"p20")
    check("after the stop the registers are the stopped thread's: its pc is work's", r and
          int.from_bytes(bytes.fromhex(r.decode()), "little") == work_fn, r)
    check("Hg the main thread", c.ask(b"Hgp%x.%x" % (pid, pid)) == b"OK")
    r = c.ask(b"p20")
    main_pc = int.from_bytes(bytes.fromhex(r.decode()), "little") if len(r) == 16 else 0
    code = c.ask(b"m%x,4" % (main_pc - 4))
    check("the main thread waits in a system call: its pc is after the ecall", code == b"73000000", r + b" " + code)
    check("Hg a thread that is not there", c.ask(b"Hgp%x.7fffffff" % pid) == b"OK")
    check("its registers: E01", c.ask(b"p20") == b"E01")
    c.ask(b"Hgp%x.%x" % (pid, pid))
    # step the main thread, not the one stopped: the others run, the join returns, one instruction more
    check("z0 at work", c.ask(b"z0,%x,2" % work_fn) == b"OK")
    r = c.ask(b"vCont;s:p%x.%x;c" % (pid, pid))
    check("vCont;s:MAIN;c stops the main thread", r == b"T05thread:p%x.%x;" % (pid, pid), r)
    r = c.ask(b"p20")
    check("one instruction after its system call", len(r) == 16 and
          int.from_bytes(bytes.fromhex(r.decode()), "little") in (main_pc + 2, main_pc + 4), r)
    r = c.ask(b"qfThreadInfo")
    check("the other two are gone", r == b"mp%x.%x" % (pid, pid), r)
    c.s.sendall(b"$vCont;c#a8")
    r = c.packet()
    check("the end: W03", r == b"W03", r)
    guest.wait(timeout=10)


def main():
    kit_emu = sys.argv[1]
    if not shutil.which("riscv64-linux-gnu-gcc"):
        print("riscv64-linux-gnu-gcc not installed")
        sys.exit(77)
    work = tempfile.mkdtemp(prefix="kit-gdb-raw-")
    src = os.path.join(HERE, "guest.c")
    static, dynamic = os.path.join(work, "guest_s"), os.path.join(work, "guest_d")
    subprocess.run(["riscv64-linux-gnu-gcc", "-g", "-O1", "-static", src, "-o", static], check=True)
    subprocess.run(["riscv64-linux-gnu-gcc", "-g", "-O1", src, "-o", dynamic], check=True)

    guest, c = start(kit_emu, static)
    r = c.ask(b"?")
    check("first stop: SIGTRAP before the first instruction", r.startswith(b"T05thread:p"), r)
    entry = int(subprocess.run(["riscv64-linux-gnu-readelf", "-h", static], capture_output=True, text=True)
                .stdout.split("Entry point address:")[1].split()[0], 16)
    auxv = c.xfer(b"auxv")
    pairs = dict(struct.unpack("<QQ", auxv[i:i + 16]) for i in range(0, len(auxv) - 15, 16))
    check("qXfer:auxv: AT_ENTRY is the program's entry", pairs.get(9) == entry, auxv)
    check("qXfer:exec-file names the program", c.xfer(b"exec-file", b"") == static.encode(), c.xfer(b"exec-file"))
    check("qXfer:threads lists the thread", b"<thread id=\"p" in c.xfer(b"threads"))
    r = c.ask(b"p20")  # the pc
    check("p: the pc is the entry", int.from_bytes(bytes.fromhex(r.decode()), "little") == entry, r)
    check("m of unmapped memory: E14", c.ask(b"m10,8") == b"E14")
    check("M of unmapped memory: E14", c.ask(b"M10,4:01020304") == b"E14")
    r = c.ask(b"vCont;s:p1.-1")
    check("a step stops with SIGTRAP", r.startswith(b"T05"), r)
    r = c.ask(b"p20")
    # _start's first instruction is a jal: one step lands at its target
    dis = subprocess.run(["riscv64-linux-gnu-objdump", "-d", "--start-address=%d" % entry, "--stop-address=%d" %
                          (entry + 4), static], capture_output=True, text=True).stdout.splitlines()[-1].split()
    after = int(dis[-2], 16) if dis[-3] == "jal" else entry + len(dis[1]) // 2
    check("a step goes one instruction on", int.from_bytes(bytes.fromhex(r.decode()), "little") == after, r + dis[-3].encode())
    r = c.ask(b"vFile:open:%s,0,0" % static.encode().hex().encode())
    check("vFile:open of the program", r.startswith(b"F") and not r.startswith(b"F-1"), r)
    fd = r[1:]
    r = c.ask(b"vFile:pread:%s,4,0" % fd)
    check("vFile:pread: the ELF magic", r == b"F4;\x7fELF", r)
    check("vFile:fstat: 64 bytes", c.ask(b"vFile:fstat:%s" % fd).startswith(b"F40;"))
    check("vFile:close", c.ask(b"vFile:close:%s" % fd) == b"F0")
    check("vFile:pread of a closed fd: EBADF", c.ask(b"vFile:pread:%s,4,0" % fd) == b"F-1,9")
    check("vFile:open of a host file the guest has not mapped: ENOENT",
          c.ask(b"vFile:open:%s,0,0" % b"/etc/passwd".hex().encode()) == b"F-1,2")
    check("vFile:open for writing: EACCES", c.ask(b"vFile:open:%s,1,0" % static.encode().hex().encode()) == b"F-1,d")
    check("QCatchSyscalls: write (64)", c.ask(b"QCatchSyscalls:1;40") == b"OK")
    r = c.ask(b"vCont;c")
    check("catch: syscall_entry of write", r.startswith(b"T05syscall_entry:40;"), r)
    r = c.ask(b"vCont;c")
    check("catch: syscall_return of write", r.startswith(b"T05syscall_return:40;"), r)
    check("QCatchSyscalls:0", c.ask(b"QCatchSyscalls:0") == b"OK")
    mon = c.ask(b"qRcmd," + b"mappings".hex().encode())
    check("monitor mappings: the guest's map as console output", mon.startswith(b"O") and b"[stack]" in
          bytes.fromhex(mon[1:].decode()), mon)
    while mon != b"OK":
        mon = c.packet()
    r = c.ask(b"vCont;c")
    check("W with the exit code", r == b"W37", r)
    guest.wait(timeout=10)
    check("kit-emu exits with the guest's status", guest.returncode == 55, guest.returncode)

    guest, c = start(kit_emu, dynamic)
    libs = c.xfer(b"libraries-svr4")
    check("libraries-svr4 before ld.so ran: none", b"<library " not in libs, libs)
    # stop in main: every library is loaded by then
    nm = subprocess.run(["riscv64-linux-gnu-nm", dynamic], capture_output=True, text=True).stdout
    main_off = int([l for l in nm.splitlines() if l.endswith(" T main")][0].split()[0], 16)
    auxv = c.xfer(b"auxv")
    pairs = dict(struct.unpack("<QQ", auxv[i:i + 16]) for i in range(0, len(auxv) - 15, 16))
    elf_entry = int(subprocess.run(["riscv64-linux-gnu-readelf", "-h", dynamic], capture_output=True, text=True)
                    .stdout.split("Entry point address:")[1].split()[0], 16)
    bias = pairs[9] - elf_entry  # the PIE's load bias
    check("Z0 in main", c.ask(b"Z0,%x,4" % (bias + main_off)) == b"OK")
    r = c.ask(b"vCont;c")
    check("the breakpoint in main: swbreak", r.startswith(b"T05swbreak:;"), r)
    libs = c.xfer(b"libraries-svr4")
    check("libraries-svr4 in main: libc with its lm and l_addr", b"libc.so.6\" lm=\"0x" in libs and b"l_addr=" in libs,
          libs)
    check("vKill answered", c.ask(b"vKill;1") == b"OK")
    guest.wait(timeout=10)
    check("vKill ends kit-emu", guest.returncode is not None)

    threads_packets(kit_emu, work)

    shutil.rmtree(work)
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
