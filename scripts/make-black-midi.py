#!/usr/bin/env python3
"""Writes "black MIDI" test files byte by byte (no dependency): NOTES notes over SECONDS seconds
in TRACKS tracks, 960 ticks a second (480 per quarter at 120 bpm), running status throughout.

  make-black-midi.py OUT.mid --notes 1000000 [--tracks 64] [--seconds 600] [--held]

Track k plays notes k, k + TRACKS, k + 2 TRACKS, ... one after another, each lasting 90 % of the
gap to its track's next note, pitches sweeping the piano. --held writes only note-ons: notes
never released (a note-off never comes), the file a buggy exporter leaves."""
import argparse
import struct

from smf_bytes import header, tempo, vlq


def track_bytes(index, tracks, notes, ticks, held):
    body = bytearray()
    channel = index % 16
    if index == 0:
        body += vlq(0) + tempo(120)
    body += vlq(0) + bytes([0xC0 | channel, index % 8])  # a piano program
    status = 0x90 | channel
    first = True  # running status: the status byte only on the first note
    now = 0
    length = max(1, ticks * tracks // notes * 9 // 10)
    for note in range(index, notes, tracks):
        start = note * ticks // notes
        pitch = 21 + (note * 7) % 88
        delta = start - now
        if first:
            body += vlq(delta) + bytes([status, pitch, 64 + note % 63])
            first = False
        else:
            body += vlq(delta) + bytes([pitch, 64 + note % 63])
        now = start
        if not held:
            body += vlq(length) + bytes([pitch, 0])  # note-on velocity 0 is a note-off
            now += length
    body += b"\x00\xff\x2f\x00"
    return b"MTrk" + struct.pack(">I", len(body)) + bytes(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--notes", type=int, required=True)
    parser.add_argument("--tracks", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--held", action="store_true")
    arguments = parser.parse_args()
    ticks = int(arguments.seconds * 960)
    with open(arguments.output, "wb") as out:
        out.write(header(480, arguments.tracks))
        for index in range(arguments.tracks):
            out.write(track_bytes(index, arguments.tracks, arguments.notes, ticks, arguments.held))


if __name__ == "__main__":
    main()
