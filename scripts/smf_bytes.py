"""Standard MIDI File bytes, written by hand: what scripts/make-fixtures.py and
scripts/make-black-midi.py build their files from."""
import struct


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(out))


def track(events, end_tick=0):
    """events: (absolute tick, message bytes); End-of-Track at the last event or end_tick."""
    body = b''
    last = 0
    for tick, message in sorted(events, key=lambda e: e[0]):
        body += vlq(tick - last) + bytes(message)
        last = tick
    body += vlq(max(end_tick - last, 0)) + b'\xff\x2f\x00'
    return b'MTrk' + struct.pack('>I', len(body)) + body


def header(division, track_count, fmt=1):
    return b'MThd' + struct.pack('>IHHH', 6, fmt, track_count, division)


def smf(division, tracks, fmt=1):
    return header(division, len(tracks), fmt) + b''.join(tracks)


def meta(kind, data):
    return bytes([0xFF, kind, len(data)]) + bytes(data)


def tempo(bpm):
    return meta(0x51, struct.pack('>I', round(60_000_000 / bpm))[1:])


def name(text):
    return meta(0x03, text.encode())
