#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tiny ELF crafting/patching helper for the markers-elf tests.

  elftool.py gen OUT [--class 32|64] [--endian little|big] [--type rel|exec|dyn]
                 NAME=CONTENT...          minimal ELF with these PROGBITS sections
  elftool.py ehdr FILE FIELD VALUE        set an ELF header field
  elftool.py shdr FILE SECTION FIELD VALUE  set a section header field
  elftool.py secwrite FILE SECTION OFFSET CONTENT   overwrite section bytes
  elftool.py secinfo FILE SECTION         print "index offset size"

CONTENT uses backslash escapes (\\0, \\t, \\n, \\xNN); in gen, @PATH takes
the bytes of a file.  VALUE is an integer
(0x.. allowed) or an expression of "filesize", e.g. filesize+1.
SECTION is a section name (first match) or #INDEX.
"""
import codecs
import struct
import sys

EHDR = {  # field: (offset32, offset64, size32, size64)
    'class': (4, 4, 1, 1), 'data': (5, 5, 1, 1), 'version': (6, 6, 1, 1),
    'type': (16, 16, 2, 2), 'shoff': (32, 40, 4, 8),
    'shentsize': (46, 58, 2, 2), 'shnum': (48, 60, 2, 2),
    'shstrndx': (50, 62, 2, 2),
}
SHDR = {
    'name': (0, 0, 4, 4), 'type': (4, 4, 4, 4), 'flags': (8, 8, 4, 8),
    'offset': (16, 24, 4, 8), 'size': (20, 32, 4, 8), 'link': (24, 40, 4, 4),
}
FMT = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}


def unescape(s):
    return codecs.escape_decode(s.encode())[0]


class Elf:
    def __init__(self, data):
        self.d = bytearray(data)
        if self.d[:4] != b'\x7fELF':
            sys.exit('elftool: not an ELF file')
        self.is64 = self.d[4] == 2
        self.e = '>' if self.d[5] == 2 else '<'

    def _field(self, table, name):
        o32, o64, s32, s64 = table[name]
        return (o64, s64) if self.is64 else (o32, s32)

    def get(self, off, size):
        return struct.unpack_from(self.e + FMT[size], self.d, off)[0]

    def put(self, off, size, value):
        value &= (1 << (8 * size)) - 1
        struct.pack_into(self.e + FMT[size], self.d, off, value)

    def eget(self, name):
        return self.get(*self._field(EHDR, name))

    def shdr_off(self, idx):
        return self.eget('shoff') + idx * self.eget('shentsize')

    def sget(self, idx, name):
        off, size = self._field(SHDR, name)
        return self.get(self.shdr_off(idx) + off, size)

    def find(self, sec):
        if sec.startswith('#'):
            return int(sec[1:], 0)
        strndx = self.eget('shstrndx')
        stroff = self.sget(strndx, 'offset')
        for i in range(self.eget('shnum')):
            nm = stroff + self.sget(i, 'name')
            end = self.d.index(b'\0', nm)
            if self.d[nm:end].decode('latin-1') == sec:
                return i
        sys.exit('elftool: no section ' + sec)


def value(expr, filesize):
    """An integer, or filesize, filesize+N, filesize-N."""
    if expr.startswith('filesize'):
        rest = expr[len('filesize'):]
        return filesize + (int(rest, 0) if rest else 0)
    return int(expr, 0)


def gen(argv):
    out, cls, endian, etype, secs = argv[0], 64, 'little', 'rel', []
    args = iter(argv[1:])
    for a in args:
        if a == '--class':
            cls = int(next(args))
        elif a == '--endian':
            endian = next(args)
        elif a == '--type':
            etype = next(args)
        else:
            name, _, content = a.partition('=')
            if content.startswith('@'):
                with open(content[1:], 'rb') as f:
                    secs.append((name, f.read()))
            else:
                secs.append((name, unescape(content)))
    e = '<' if endian == 'little' else '>'
    is64 = cls == 64
    ehsize, shsize = (64, 64) if is64 else (52, 40)
    shstr = bytearray(b'\0')
    names = []
    for name, _ in secs + [('.shstrtab', b'')]:
        names.append(len(shstr))
        shstr += name.encode() + b'\0'
    body = bytearray()
    offs = []
    for _, content in secs:
        offs.append(ehsize + len(body))
        body += content
    offs.append(ehsize + len(body))
    body += shstr
    while (ehsize + len(body)) % 8:
        body += b'\0'
    shoff = ehsize + len(body)
    nsec = len(secs) + 2
    ident = b'\x7fELF' + bytes([2 if is64 else 1, 1 if endian == 'little' else 2, 1, 0]) + bytes(8)
    t = {'rel': 1, 'exec': 2, 'dyn': 3}[etype]
    if is64:
        hdr = ident + struct.pack(e + 'HHIQQQIHHHHHH', t, 62 if e == '<' else 43, 1, 0, 0, shoff,
                                  0, ehsize, 0, 0, shsize, nsec, nsec - 1)
    else:
        hdr = ident + struct.pack(e + 'HHIIIIIHHHHHH', t, 3 if e == '<' else 2, 1, 0, 0, shoff,
                                  0, ehsize, 0, 0, shsize, nsec, nsec - 1)
    sh = bytearray(shsize)
    sizes = [len(c) for _, c in secs] + [len(shstr)]
    for i in range(nsec - 1):
        stype = 3 if i == nsec - 2 else 1
        flags = 0 if i == nsec - 2 else 2
        if is64:
            sh += struct.pack(e + 'IIQQQQIIQQ', names[i], stype, flags, 0, offs[i], sizes[i], 0, 0, 1, 0)
        else:
            sh += struct.pack(e + 'IIIIIIIIII', names[i], stype, flags, 0, offs[i], sizes[i], 0, 0, 1, 0)
    with open(out, 'wb') as f:
        f.write(hdr + body + sh)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, argv = sys.argv[1], sys.argv[2:]
    if cmd == 'gen':
        gen(argv)
        return
    path = argv[0]
    with open(path, 'rb') as f:
        elf = Elf(f.read())
    size = len(elf.d)
    if cmd == 'ehdr':
        off, sz = elf._field(EHDR, argv[1])
        elf.put(off, sz, value(argv[2], size))
    elif cmd == 'shdr':
        idx = elf.find(argv[1])
        off, sz = elf._field(SHDR, argv[2])
        elf.put(elf.shdr_off(idx) + off, sz, value(argv[3], size))
    elif cmd == 'secwrite':
        idx = elf.find(argv[1])
        data = unescape(argv[3])
        start = elf.sget(idx, 'offset') + int(argv[2], 0)
        if int(argv[2], 0) + len(data) > elf.sget(idx, 'size'):
            sys.exit('elftool: write past the end of the section')
        elf.d[start:start + len(data)] = data
    elif cmd == 'secinfo':
        idx = elf.find(argv[1])
        print(idx, elf.sget(idx, 'offset'), elf.sget(idx, 'size'))
        return
    else:
        sys.exit('elftool: unknown command ' + cmd)
    with open(path, 'wb') as f:
        f.write(elf.d)


if __name__ == '__main__':
    main()
