#!/usr/bin/env python3
"""Interleave the packets of two encapsulated streams into one, as a trace
funnel merging two harts' encoders would (Encapsulation 1.0 2.1: a normal
packet is 1 header byte (length bits 0-4, extend bit 7), S srcID bytes,
T timestamp bytes when extend = 1, then `length` bytes; a header with
length 0 is a one-byte null packet).  The first stream's leading
synchronisation sequence starts the result; the second's null packets are
dropped; then one normal packet of each in turn.
usage: encap_mix.py S T A B OUT   (S, T in bytes)"""
import sys


def packets(data, sbytes, tbytes):
    i, out = 0, []
    while i < len(data):
        h = data[i]
        n = h & 31
        size = 1 if n == 0 else 1 + sbytes + (tbytes if h & 0x80 else 0) + n
        out.append(data[i:i + size])
        i += size
    return out


def main():
    sb, tb = int(sys.argv[1]), int(sys.argv[2])
    a = packets(open(sys.argv[3], 'rb').read(), sb, tb)
    b = [p for p in packets(open(sys.argv[4], 'rb').read(), sb, tb) if len(p) > 1]
    k = next(i for i, p in enumerate(a) if len(p) > 1)
    res, a = a[:k], [p for p in a[k:] if len(p) > 1]
    while a or b:
        if a:
            res.append(a.pop(0))
        if b:
            res.append(b.pop(0))
    open(sys.argv[5], 'wb').write(b''.join(res))


main()
