#!/usr/bin/env python3
"""The loader tests' independent reference: the notes of MIDI files as a synthesizer playing the
merged event stream hears them, read by mido, with ticks turned into seconds by pretty_midi.

Usage: reference_notes.py FILE...
Prints one JSON line per file, in the order given:
  {"file": FILE, "rejected": false, "notes": [[start_s, end_s, pitch, velocity, channel, track], ...],
   "duration_s": ..., "warnings": [...]}
  {"file": FILE, "rejected": true, "error": "..."}           (mido cannot read it)

Semantics, as the SMF specification and a General MIDI synthesizer have them:
- a RIFF RMID container is opened and its `data` chunk read; chunks other than MTrk are skipped;
- the tracks are merged by tick (ties: track order, then order in the track); tempo events of
  any track apply to all; format 2 tracks play one after another, each starting at the tick
  where the previous one ended;
- at one tick, a track releasing a key is read (all its events of the tick) before the tracks
  striking that key, unless tracks would each have to come first (then the stream's order): a
  note struck again as another track lets the key go is a new note, whatever the order of the
  tracks;
- a note-on of velocity 0 is a note-off; a note-off ends every sounding note of its channel and
  key, whichever track started it; notes never ended end with the song;
- SMPTE division: 1 / (fps * ticks per frame) seconds a tick (29 means 29.97), tempo ignored;
- the song lasts until its last event (End-of-Track included).
Needs mido and pretty_midi (scripts/requirements-reference.txt).
"""
import heapq
import io
import json
import struct
import sys
from fractions import Fraction

import mido
import pretty_midi


class Rejected(Exception):
    pass


def smf_bytes(data, warnings):
    """The SMF inside a RIFF RMID container, with every chunk but MThd and MTrk left out."""
    if data[:4] == b'RIFF' and data[8:12] == b'RMID':
        position = 12
        while position + 8 <= len(data):
            kind, (length,) = data[position:position + 4], struct.unpack('<I', data[position + 4:position + 8])
            if kind == b'data':
                data = data[position + 8:position + 8 + length]
                warnings.append('RIFF RMID container')
                break
            position += 8 + length + (length & 1)
        else:
            raise Rejected('RIFF RMID without a data chunk')
    if data[:4] != b'MThd' or len(data) < 14:
        return data
    (header_length,) = struct.unpack('>I', data[4:8])
    position = 8 + header_length
    kept, skipped = [data[:position]], []
    while position + 8 <= len(data):
        kind, (length,) = data[position:position + 4], struct.unpack('>I', data[position + 4:position + 8])
        if kind == b'MTrk' or not all(32 <= byte < 127 for byte in kind):
            kept.append(data[position:position + 8 + length])
        else:
            skipped.append(kind.decode('ascii'))
        position += 8 + length
    if not skipped:
        return data
    warnings.append(f'chunks skipped: {skipped}')
    return b''.join(kept) + data[position:]


def merged_events(midi):
    """(tick, track, index, message) for every event, format 2 tracks placed one after another."""
    events, offset = [], 0
    for track_index, track in enumerate(midi.tracks):
        tick = offset
        for index, message in enumerate(track):
            tick += message.time
            events.append((tick, track_index, index, message))
        if midi.type == 2:
            offset = tick
    events.sort(key=lambda event: event[:3])
    ordered, start = [], 0
    while start < len(events):
        end = start
        while end < len(events) and events[end][0] == events[start][0]:
            end += 1
        ordered += releasers_first(events[start:end])
        start = end
    return ordered


def releasers_first(tick):
    """One tick's events with each track releasing a key before the tracks striking it."""
    runs = []
    for event in tick:
        if runs and runs[-1][0][1] == event[1]:
            runs[-1].append(event)
        else:
            runs.append([event])
    strikers, releasers = {}, {}
    for run, events in enumerate(runs):
        for _, _, _, message in events:
            if message.type not in ('note_on', 'note_off'):
                continue
            table = strikers if message.type == 'note_on' and message.velocity > 0 else releasers
            held = table.setdefault((message.channel, message.note), [])
            if not held or held[-1] != run:
                held.append(run)
    edges = [(releaser, striker) for key, runs_releasing in releasers.items()
             for releaser in runs_releasing for striker in strikers.get(key, []) if releaser != striker]
    if not any(before > after for before, after in edges):
        return tick
    waiting, followers = [0] * len(runs), {}
    for before, after in edges:
        waiting[after] += 1
        followers.setdefault(before, []).append(after)
    ready = [run for run in range(len(runs)) if waiting[run] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        run = heapq.heappop(ready)
        order.append(run)
        for follower in followers.get(run, []):
            waiting[follower] -= 1
            if waiting[follower] == 0:
                heapq.heappush(ready, follower)
    if len(order) != len(runs):
        return tick
    return [event for run in order for event in runs[run]]


def seconds_of_ticks(midi, events, end_tick):
    """A function tick -> seconds: pretty_midi's tempo map over every tempo event, or SMPTE time."""
    if midi.ticks_per_beat < 0:
        raw = midi.ticks_per_beat & 0xFFFF
        fps_code, ticks_per_frame = 256 - (raw >> 8), raw & 0xFF
        if ticks_per_frame == 0 or fps_code not in (24, 25, 29, 30):
            raise Rejected(f'bad SMPTE division: {fps_code} fps, {ticks_per_frame} ticks a frame')
        fps = Fraction(30000, 1001) if fps_code == 29 else Fraction(fps_code)
        return lambda tick: float(Fraction(tick) / (fps * ticks_per_frame))
    if midi.ticks_per_beat == 0:
        raise Rejected('division of 0 ticks a quarter note')
    # pretty_midi reads tempo from the first track: give it one holding every tempo event.
    conductor = mido.MidiTrack()
    last = 0
    for tick, _, _, message in events:
        if message.type == 'set_tempo':
            conductor.append(message.copy(time=tick - last))
            last = tick
    conductor.append(mido.MetaMessage('end_of_track', time=end_tick - last))
    tempo_only = mido.MidiFile(type=1, ticks_per_beat=midi.ticks_per_beat)
    tempo_only.tracks.append(conductor)
    try:
        timing = pretty_midi.PrettyMIDI(mido_object=tempo_only)
    except ValueError as error:
        raise Rejected(f'pretty_midi: {error}') from None
    return timing.tick_to_time


def reference(path):
    with open(path, 'rb') as file:
        data = file.read()
    warnings = []
    try:
        midi = mido.MidiFile(file=io.BytesIO(smf_bytes(data, warnings)), clip=False)
    except Rejected:
        raise
    except Exception as error:  # mido raises OSError, EOFError, ValueError, IndexError, KeyError...
        raise Rejected(f'mido: {type(error).__name__}: {error}') from None
    if not midi.tracks:
        raise Rejected('no tracks')
    events = merged_events(midi)
    end_tick = max((event[0] for event in events), default=0)
    seconds = seconds_of_ticks(midi, events, end_tick)
    sounding, notes = {}, []
    for tick, track, _, message in events:
        if message.type == 'note_on' and message.velocity > 0:
            sounding.setdefault((message.channel, message.note), []).append((tick, message.velocity, track))
        elif message.type in ('note_on', 'note_off'):
            for start, velocity, started_by in sounding.pop((message.channel, message.note), []):
                notes.append((start, tick, message.note, velocity, message.channel, started_by))
    hanging = [(start, end_tick, pitch, velocity, channel, track)
               for (channel, pitch), held in sounding.items() for start, velocity, track in held]
    if hanging:
        warnings.append(f'{len(hanging)} notes never released')
    rows = [[round(float(seconds(start)), 9), round(float(seconds(end)), 9), pitch, velocity, channel, track]
            for start, end, pitch, velocity, channel, track in notes + hanging]
    rows.sort(key=lambda row: (row[0], row[2], row[4], row[5], row[1]))
    return {'notes': rows, 'duration_s': round(float(seconds(end_tick)), 9), 'warnings': warnings}


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for path in paths:
        try:
            print(json.dumps({'file': path, 'rejected': False, **reference(path)}))
        except Rejected as error:
            print(json.dumps({'file': path, 'rejected': True, 'error': str(error)}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
