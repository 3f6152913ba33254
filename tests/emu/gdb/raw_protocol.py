#!/usr/bin/env python3
"""tests/emu/gdb/raw_protocol.py MOCK — the stub's packet layer byte by byte:
acknowledgements, a bad checksum answered '-', '}' escapes in X packets,
QStartNoAckMode, Ctrl-C (0x03) stopping a running target, vCont, k."""
import os, select, subprocess, sys, time

mock = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
out, inp = mock.stdin, mock.stdout
failures = []

def frame(body: bytes) -> bytes:
    return b"$" + body + b"#" + b"%02x" % (sum(body) & 0xff)

def read_bytes(n=1, timeout=5.0):
    r, _, _ = select.select([inp], [], [], timeout)
    if not r:
        raise TimeoutError("no answer from the stub")
    return inp.read(n)

def read_packet(ack=True):
    """the next packet's body (checksum checked), skipping acks"""
    c = read_bytes()
    while c in (b"+", b"-"):
        c = read_bytes()
    assert c == b"$", c
    body = b""
    while (c := read_bytes()) != b"#":
        body += c
    cs = read_bytes() + read_bytes()
    if int(cs, 16) != sum(body) & 0xff:
        failures.append("reply checksum wrong: %r" % body)
    if ack:
        out.write(b"+")
    return body

def unescape(body):
    res, i = b"", 0
    while i < len(body):
        if body[i:i + 1] == b"}":
            res += bytes([body[i + 1] ^ 0x20]); i += 2
        else:
            res += body[i:i + 1]; i += 1
    return res

def check(name, cond):
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failures.append(name)

def ask(body: bytes, ack=True):
    out.write(frame(body))
    return read_packet(ack)

r = ask(b"qSupported:multiprocess+;swbreak+")
check("qSupported: PacketSize and multiprocess", b"PacketSize=4000" in r and b"multiprocess+" in r)
check("qSupported: no-ack, target.xml, vCont", all(f in r for f in (b"QStartNoAckMode+", b"qXfer:features:read+", b"vContSupported+")))

out.write(b"$g#00")
check("bad checksum answered '-'", read_bytes() == b"-")
check("? after noise: stop reply with thread", ask(b"?").startswith(b"T05thread:p1092.1;"))

xml = b""
while True:
    r = ask(b"qXfer:features:read:target.xml:%x,200" % len(xml))
    xml += unescape(r[1:])
    if r[:1] == b"l":
        break
check("target.xml in chunks", xml.count(b"<reg ") == 68 and b"org.gnu.gdb.riscv.fpu" in xml and xml.endswith(b"</target>\n"))

data = bytes([0x23, 0x24, 0x7D, 0x2A, 0x03, 0x00])
esc = b"".join(b"}" + bytes([c ^ 0x20]) if c in (0x23, 0x24, 0x7D, 0x2A) else bytes([c]) for c in data)
check("X with escaped bytes", ask(b"X10010,6:" + esc) == b"OK")
check("m reads them back", ask(b"m10010,6") == data.hex().encode())
check("m outside memory: E14", ask(b"m9000,4") == b"E14")
check("P then p", ask(b"Pa=efbeadde00000000") == b"OK" and ask(b"pa") == b"efbeadde00000000")
check("vCont?", ask(b"vCont?").startswith(b"vCont;c;C;s;S"))
check("Z2 accepted", ask(b"Z2,10100,8") == b"OK" and ask(b"z2,10100,8") == b"OK")

check("QStartNoAckMode", ask(b"QStartNoAckMode") == b"OK")
out.write(frame(b"qC"))
c = read_bytes()
check("no '+' after no-ack mode", c == b"$")
body = b""
while (c := read_bytes()) != b"#":
    body += c
read_bytes(2)
check("qC names the thread", body == b"QCp1092.1")

# a running target stops on Ctrl-C
ask(b"qRcmd," + b"spin".hex().encode(), ack=False)  # O packet
read_packet(ack=False)                                # OK
out.write(frame(b"vCont;c"))
time.sleep(0.3)
r, _, _ = select.select([inp], [], [], 0)
check("continue runs (no reply before Ctrl-C)", not r)
out.write(b"\x03")
check("Ctrl-C stops it: T02", read_packet(ack=False).startswith(b"T02"))
check("vCont;s:1 steps", ask(b"vCont;s:p1092.1;c", ack=False).startswith(b"T05"))
out.write(frame(b"k"))
mock.wait(timeout=5)
check("k ends the target", mock.returncode == 0)
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
