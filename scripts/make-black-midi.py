#!/usr/bin/env python3
"""Writes "black MIDI" test files byte by byte (no dependency): NOTES notes over SECONDS seconds
in TRACKS tracks, 960 ticks a second (480 per quarter at 120 bpm), running status throughout.

  make-black-midi.py OUT.mid --notes 1000000 [--tracks 64] [--seconds 600] [--held]
  make-black-midi.py OUT.mid --notes 180000 --tracks 16 --seconds 60 --random 0.2 [--drums]

Track k plays notes k, k + TRACKS, k + 2 TRACKS, ... one after another, each lasting 90 % of the
gap to its track's next note, pitches sweeping the piano. --held writes only note-ons: notes
never released (a note-off never comes), the file a buggy exporter leaves. --random LENGTH
writes the dense songs of the bench instead: notes at random times and keys of the piano
(seeded, so the same bytes each time), each LENGTH seconds long, spread over the tracks; with
--drums the tracks on channel 10 stay there (a song made on all 16 channels plays a sixteenth of
its notes as drums), else they move to another channel."""
import argparse
import random
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


def random_track_bytes(index, tracks, notes, ticks, length, seed, drums):
    """Track `index` of a --random song: its share of NOTES at random ticks and keys."""
    generator = random.Random(seed * 100003 + index)
    channel = index % 16
    if channel == 9 and not drums:
        channel = 15 - index % 6  # keep the drum channel out: these are pitched notes
    count = notes // tracks + (1 if index < notes % tracks else 0)
    events = []
    for _ in range(count):
        start = generator.randrange(0, max(1, ticks - length))
        pitch = generator.randrange(21, 109)
        velocity = generator.randrange(40, 128)
        events.append((start, 1, pitch, velocity))
        events.append((start + length, 0, pitch, 0))
    events.sort()
    body = bytearray()
    if index == 0:
        body += vlq(0) + tempo(120)
    body += vlq(0) + bytes([0xC0 | channel, index % 8])
    now = 0
    for tick, _, pitch, velocity in events:
        body += vlq(tick - now) + bytes([0x90 | channel, pitch, velocity])
        now = tick
    body += b"\x00\xff\x2f\x00"
    return b"MTrk" + struct.pack(">I", len(body)) + bytes(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--notes", type=int, required=True)
    parser.add_argument("--tracks", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--held", action="store_true")
    parser.add_argument("--random", type=float, metavar="LENGTH", help="random keys and times, notes LENGTH seconds long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drums", action="store_true", help="with --random: keep the tracks on channel 10 there")
    arguments = parser.parse_args()
    ticks = int(arguments.seconds * 960)
    with open(arguments.output, "wb") as out:
        out.write(header(480, arguments.tracks))
        for index in range(arguments.tracks):
            if arguments.random:
                length = max(1, round(arguments.random * 960))
                out.write(random_track_bytes(index, arguments.tracks, arguments.notes, ticks, length, arguments.seed, arguments.drums))
            else:
                out.write(track_bytes(index, arguments.tracks, arguments.notes, ticks, arguments.held))


if __name__ == "__main__":
    main()
