#!/usr/bin/env python3
"""Writes the small MIDI files in fixtures/ byte by byte (no MIDI library), so every byte of
them is ours and reproducible: python3 scripts/make-fixtures.py"""
import os
import struct

from smf_bytes import header, meta, name, smf, tempo, track, vlq
import importlib

black_midi = importlib.import_module('make-black-midi')

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures')


def notes(channel, items):
    """items: (start tick, length ticks, pitch, velocity) -> note-on/off events."""
    out = []
    for start, length, pitch, velocity in items:
        out.append((start, [0x90 | channel, pitch, velocity]))
        out.append((start + length, [0x80 | channel, pitch, 0]))
    return out


def c_major_arpeggio():
    """The demo: eighth-note arpeggios over C, Am, F, G at 120 bpm in 4/4; 32 notes, 8 s."""
    tpq = 480
    chords = [[60, 64, 67, 72, 76, 72, 67, 64], [57, 60, 64, 69, 72, 69, 64, 60],
              [53, 57, 60, 65, 69, 65, 60, 57], [55, 59, 62, 67, 71, 67, 62, 59]]
    items = []
    for bar, pitches in enumerate(chords):
        for step, pitch in enumerate(pitches):
            items.append((bar * 4 * tpq + step * tpq // 2, tpq // 2, pitch, 100 if step % 2 == 0 else 80))
    conductor = [(0, name('midiviz demo')), (0, tempo(120)), (0, meta(0x58, [4, 2, 24, 8])),
                 (0, meta(0x59, [0, 0]))]
    piano = [(0, name('C major arpeggio')), (0, [0xC0, 0])] + notes(0, items)
    return smf(tpq, [track(conductor), track(piano)])


def smpte_25fps():
    """SMPTE division, 25 fps x 40 ticks per frame (1000 ticks a second): notes at 0, 0.5, 1, 1.5 s."""
    division = ((256 - 25) << 8) | 40
    items = [(i * 500, 250, 60 + 2 * i, 100) for i in range(4)]
    return smf(division, [track([(0, name('SMPTE 25 fps')), (0, tempo(60))] + notes(0, items))], fmt=0)


def tempo_map():
    """Two bars of 4/4 at 120 bpm, then 3/4 at 90 bpm for two bars; a note on every beat.
    Bars start at 0, 2, 4 and 6 s; the song ends at 8 s."""
    tpq = 96
    conductor = [(0, name('tempo map')), (0, tempo(120)), (0, meta(0x58, [4, 2, 24, 8])),
                 (8 * tpq, tempo(90)), (8 * tpq, meta(0x58, [3, 2, 24, 8]))]
    beats = list(range(0, 8 * tpq, tpq)) + list(range(8 * tpq, 14 * tpq, tpq))
    items = [(tick, tpq // 2, 72 if i in (0, 4, 8, 11) else 67, 100) for i, tick in enumerate(beats)]
    return smf(tpq, [track(conductor, end_tick=14 * tpq), track([(0, name('beats'))] + notes(0, items))])


def demo_groove():
    """Our own 8-bar groove for the gallery and demos: chords, melody, bass and drums at 100 bpm
    over C, Am, F, G (twice); 4 tracks, channel 10 for drums; 19.2 s."""
    tpq = 480
    bar = 4 * tpq
    roots = [48, 45, 41, 43] * 2
    triads = {48: [60, 64, 67], 45: [57, 60, 64], 41: [57, 60, 65], 43: [55, 59, 62]}
    chords, bass, melody, drums = [], [], [], []
    tune = [[72, 74, 76, 79], [76, 74, 72, 69], [69, 72, 77, 76], [74, 71, 67, 74],
            [79, 76, 74, 72], [72, 76, 81, 79], [77, 76, 72, 69], [71, 74, 79, 84]]
    for b, root in enumerate(roots):
        start = b * bar
        for beat in range(4):
            for i, pitch in enumerate(triads[root]):
                chords.append((start + beat * tpq + i * 40, tpq - 60, pitch, 70 + 10 * (beat % 2 == 0)))
            melody.append((start + beat * tpq, tpq - 20, tune[b][beat], 96 + 8 * (beat == 0)))
        bass += [(start, tpq * 3 // 2, root - 12, 110), (start + tpq * 3 // 2, tpq // 2, root - 12, 90),
                 (start + 2 * tpq, tpq * 2, root, 100)]
        for eighth in range(8):
            t = start + eighth * tpq // 2
            drums.append((t, 60, 42, 70 if eighth % 2 else 95))       # closed hi-hat
            if eighth in (0, 5):
                drums.append((t, 60, 36, 120))                        # kick
            if eighth in (2, 6):
                drums.append((t, 60, 38, 110))                        # snare
        if b % 4 == 0:
            drums.append((start, 240, 49, 100))                       # crash
    conductor = [(0, name('midiviz groove')), (0, tempo(100)), (0, meta(0x58, [4, 2, 24, 8])), (0, meta(0x59, [0, 0]))]
    return smf(tpq, [track(conductor),
                     track([(0, name('Chords')), (0, [0xC0, 4])] + notes(0, chords)),
                     track([(0, name('Melody')), (0, [0xC1, 80])] + notes(1, melody)),
                     track([(0, name('Bass')), (0, [0xC2, 33])] + notes(2, bass)),
                     track([(0, name('Drums'))] + notes(9, drums))])


def sync_notes():
    """Isolated short loud notes at known times, each in its own pitch class, with silence
    between, for the A/V sync test: 0.5, 1.75, 3.0, 4.4, 5.65 and 7.1 s (120 bpm, 480 ticks)."""
    tpq = 480
    starts = [0.5, 1.75, 3.0, 4.4, 5.65, 7.1]
    pitches = [60, 62, 64, 65, 67, 69]
    items = [(round(t * 2 * tpq), tpq // 8, p, 127) for t, p in zip(starts, pitches)]
    return smf(tpq, [track([(0, name('sync notes')), (0, tempo(120)), (0, [0xC0, 0])] + notes(0, items))], fmt=0)


def pitch_bend():
    """Three held notes under pitch-bend sweeps (up a whole tone, down, back to centre) with a
    bend range set by RPN 0: the audio test's pitch-bend case; 120 bpm, 3 s."""
    tpq = 480
    events = [(0, name('pitch bend')), (0, tempo(120)), (0, [0xC0, 0]),
              (0, [0xB0, 101, 0]), (0, [0xB0, 100, 0]), (0, [0xB0, 6, 2]), (0, [0xB0, 38, 0])]
    events += notes(0, [(0, 2 * tpq, 60, 100), (2 * tpq, 2 * tpq, 64, 100), (4 * tpq, 2 * tpq, 67, 100)])
    for note in range(3):
        for step in range(48):
            phase = step / 48
            bend = 8192 + round(8191 * (phase * 2 if phase < 0.5 else 2 - phase * 2) * (1 if note != 1 else -1))
            bend = min(max(bend, 0), 16383)
            events.append((note * 2 * tpq + step * 20, [0xE0, bend & 0x7F, bend >> 7]))
    return smf(tpq, [track(events, end_tick=6 * tpq)], fmt=0)


def drum_beat():
    """Two bars of a rock beat on channel 10 at 120 bpm, written with running status and an
    SMPTE-offset meta event: the audio test's drum case (kick, snare, hats, crash, toms)."""
    tpq = 120
    hits = []
    for b in range(2):
        start = b * 4 * tpq
        for eighth in range(8):
            t = start + eighth * tpq // 2
            hits.append((t, 30, 42, 90 if eighth % 2 == 0 else 60))
            if eighth in (0, 3, 4):
                hits.append((t, 30, 36, 120))
            if eighth in (2, 6):
                hits.append((t, 30, 38, 115))
    hits += [(0, 60, 49, 110), (7 * tpq, 20, 50, 100), (7 * tpq + 40, 20, 47, 100), (7 * tpq + 80, 20, 45, 100)]
    body = b''
    last = 0
    events = []
    for start, length, pitch, velocity in hits:
        events += [(start, (pitch, velocity)), (start + length, (pitch, 0))]
    events.sort(key=lambda e: e[0])
    body += vlq(0) + meta(0x54, [0x60, 0, 0, 0, 0]) + vlq(0) + tempo(120)
    body += vlq(0) + bytes([0x99, events[0][1][0], events[0][1][1]])
    last = events[0][0]
    for tick, (pitch, velocity) in events[1:]:
        body += vlq(tick - last) + bytes([pitch, velocity])   # running status: 0x99 throughout
        last = tick
    body += vlq(8 * tpq - last) + b'\xff\x2f\x00'
    return smf(tpq, [b'MTrk' + struct.pack('>I', len(body)) + body], fmt=0)


def rmid_wrapper():
    """The C-major arpeggio inside a RIFF RMID container (a .rmi), as Windows wrote them."""
    inner = c_major_arpeggio()
    data = b'data' + struct.pack('<I', len(inner)) + inner + (b'\0' if len(inner) % 2 else b'')
    return b'RIFF' + struct.pack('<I', 4 + len(data)) + b'RMID' + data


def truncated_file():
    """A download cut short: the header promises 30 tracks; after two whole tracks the third
    declares 1 MB and stops inside a note-on. What is complete is read: 3 + 2 + 4 notes."""
    tpq = 96
    whole = [track([(0, tempo(100))] + notes(0, [(i * tpq, tpq, 60 + i, 90) for i in range(3)])),
             track(notes(1, [(i * tpq, tpq, 48 + i, 90) for i in range(2)]))]
    cut = b''
    last = 0
    for tick, message in sorted(notes(2, [(i * tpq, tpq // 2, 72 + i, 90) for i in range(4)]), key=lambda e: e[0]):
        cut += vlq(tick - last) + bytes(message)
        last = tick
    cut += vlq(tpq) + bytes([0x92, 76])  # the next note-on loses its velocity byte
    return (header(tpq, 30) + b''.join(whole)
            + b'MTrk' + struct.pack('>I', 1_000_000) + cut)


def short_time_signature():
    """A time-signature meta event of 2 bytes (the spec says 4), as some exporters write; the
    notes around it must survive: 16 notes at 120 bpm."""
    tpq = 480
    conductor = [(0, name('short time signature')), (0, tempo(120)), (0, meta(0x58, [3, 2]))]
    melody = notes(0, [(i * tpq // 2, tpq // 2, 60 + (i * 5) % 12, 90) for i in range(16)])
    return smf(tpq, [track(conductor), track(melody)])


def sysex_tracks_without_end():
    """Format 1 with a conductor track and two tracks holding only SysEx messages (GM on, a
    GS reset), neither ended by End-of-Track: no notes, 1 s of song."""
    tpq = 96

    def raw(events):
        body = b''
        last = 0
        for tick, message in events:
            body += vlq(tick - last) + message
            last = tick
        return b'MTrk' + struct.pack('>I', len(body)) + body

    gm_on = bytes([0xF0, 5, 0x7E, 0x7F, 0x09, 0x01, 0xF7])
    gs_reset = bytes([0xF0, 10, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7])
    return smf(tpq, [track([(0, name('sysex only')), (0, tempo(120))], end_tick=2 * tpq),
                     raw([(0, gm_on), (tpq, gm_on)]), raw([(0, gs_reset), (2 * tpq, gs_reset)])])


def tempo_in_second_track():
    """The tempo lives in track 1, not the conductor track: 60 bpm there makes each of the 8
    quarter notes 1 s long (a player honouring only track 0 would make them 0.5 s)."""
    tpq = 240
    return smf(tpq, [track([(0, name('tempo in track 1'))]),
                     track([(0, tempo(60))] + notes(0, [(i * tpq, tpq, 60 + 2 * i, 90) for i in range(8)]))])


FRERE_JACQUES = [  # (pitch, length in eighths) for the eight bars of the round, in C
    (60, 2), (62, 2), (64, 2), (60, 2), (60, 2), (62, 2), (64, 2), (60, 2),
    (64, 2), (65, 2), (67, 4), (64, 2), (65, 2), (67, 4),
    (67, 1), (69, 1), (67, 1), (65, 1), (64, 2), (60, 2), (67, 1), (69, 1), (67, 1), (65, 1), (64, 2), (60, 2),
    (60, 2), (55, 2), (60, 4), (60, 2), (55, 2), (60, 4)]


def round_song(title, words, text_kind, encoding, header_texts=()):
    """The round at 120 bpm (8 bars, 16 s): a melody track and a words track whose text
    events (FF 01 .kar style, or FF 05 lyrics) fall on the melody's notes, one per note."""
    tpq = 480
    eighth = tpq // 2
    assert len(words) == len(FRERE_JACQUES)
    items, texts, tick = [], [], 0
    for (pitch, length), word in zip(FRERE_JACQUES, words):
        items.append((tick, length * eighth - 20, pitch, 96))
        texts.append((tick, meta(text_kind, word.encode(encoding))))
        tick += length * eighth
    bass = [(bar * 4 * tpq, 4 * tpq - 40, 48, 70) for bar in range(8)]
    conductor = [(0, name(title)), (0, tempo(120)), (0, meta(0x58, [4, 2, 24, 8])), (0, meta(0x59, [0, 0]))]
    words_track = [(0, name('Words'))] + [(0, meta(0x01, text.encode(encoding))) for text in header_texts] + texts
    melody = [(0, name('Melody')), (0, [0xC0, 0])] + notes(0, items) + notes(1, bass) + [(0, [0xC1, 32])]
    return smf(tpq, [track(conductor), track(words_track), track(melody)])


def karaoke_latin1():
    """A .kar file: Frère Jacques in French, the words as text events in Latin-1 bytes (è is
    0xE8), with the .kar marks: @ headers, \\ for a new paragraph, / for a new line."""
    words = ['\\Frè', 're ', 'Jac', 'ques, ', 'frè', 're ', 'Jac', 'ques,',
             '/Dor', 'mez-', 'vous ? ', 'Dor', 'mez-', 'vous ?',
             '/Son', 'nez ', 'les ', 'ma', 'ti', 'nes, ', 'son', 'nez ', 'les ', 'ma', 'ti', 'nes,',
             '/Ding, ', 'daing, ', 'dong ! ', 'Ding, ', 'daing, ', 'dong !']
    return round_song('Frère Jacques', words, 0x01, 'latin-1', header_texts=('@KMIDI KARAOKE FILE', '@LFRA', '@TFrère Jacques'))


def karaoke_headers():
    """A small .kar (4 notes at 120 bpm, 2 s) with the Soft Karaoke headers: @K, @V and @I as
    text events in the first track, and @L and two @T (the title, then the author) as lyric
    events (FF 05) before the words, as some converters write them. The title is the first @T;
    none of the headers is sung."""
    tpq = 480
    conductor = [(0, meta(0x01, b'@KMIDI KARAOKE FILE')), (0, meta(0x01, b'@V0100')),
                 (0, meta(0x01, b'@IMade for the midiviz tests')), (0, tempo(120))]
    headers = [b'@LENGL', b'@TTwinkle Twinkle', b'@TJane Taylor']
    words = [(i * tpq, meta(0x05, word)) for i, word in enumerate([b'Twin', b'kle ', b'twin', b'kle'])]
    words_track = [(0, name('Words'))] + [(0, meta(0x05, header)) for header in headers] + words
    melody = [(0, name('Melody')), (0, [0xC0, 0])] + notes(0, [(i * tpq, tpq - 20, pitch, 96) for i, pitch in enumerate([60, 60, 67, 67])])
    return smf(tpq, [track(conductor), track(words_track), track(melody)])


def lyrics_utf8():
    """The same round in Polish (Panie Janie) as lyric events (FF 05) in UTF-8, lines ended by
    CR as RP-026 has it; ń and ą are beyond Latin-1."""
    words = ['Pa', 'nie ', 'Ja', 'nie, ', 'Pa', 'nie ', 'Ja', 'nie,\r',
             'Ra', 'no ', 'wstań, ', 'ra', 'no ', 'wstań,\r',
             'Wszyst', 'kie ', 'dzwo', 'ny ', 'bi', 'ją, ', 'wszyst', 'kie ', 'dzwo', 'ny ', 'bi', 'ją,\r',
             'Bim, ', 'bam, ', 'bom, ', 'bim, ', 'bam, ', 'bom.']
    return round_song('Panie Janie', words, 0x05, 'utf-8')


def pedal_two_hands():
    """Two bars of piano at 120 bpm (4 s) in two tracks, right and left hand, both on channel 1:
    short notes held by the sustain pedal (CC 64), down at each bar's start and lifted just
    before the next bar (at 1.9 s and 3.9 s)."""
    tpq = 480
    melody = [76, 74, 72, 74, 76, 76, 76, 74]
    right = [(i * tpq, tpq // 2, pitch, 90) for i, pitch in enumerate(melody)]
    left = [(i * tpq // 2, tpq // 4, pitch, 70) for i, pitch in enumerate([48, 55, 60, 55] * 4)]
    pedal = [(0, [0xB0, 64, 127]), (4 * tpq - 48, [0xB0, 64, 0]), (4 * tpq, [0xB0, 64, 127]), (8 * tpq - 48, [0xB0, 64, 0])]
    conductor = [(0, name('pedal, two hands')), (0, tempo(120)), (0, meta(0x58, [4, 2, 24, 8]))]
    return smf(tpq, [track(conductor), track([(0, name('Right hand')), (0, [0xC0, 0])] + notes(0, right)),
                     track([(0, name('Left hand'))] + notes(0, left) + pedal)])


def dense_random():
    """The bench's black MIDI, small: 6000 notes of 0.2 s at random keys and times over 4 s, 16 tracks."""
    tracks, ticks, length = 16, 4 * 960, round(0.2 * 960)
    return header(480, tracks) + b''.join(black_midi.random_track_bytes(index, tracks, 6000, ticks, length, 1) for index in range(tracks))


def main():
    os.makedirs(HERE, exist_ok=True)
    for filename, data in [('c-major-arpeggio.mid', c_major_arpeggio()), ('smpte-25fps.mid', smpte_25fps()),
                           ('tempo-map.mid', tempo_map()), ('demo-groove.mid', demo_groove()),
                           ('sync-notes.mid', sync_notes()), ('pitch-bend.mid', pitch_bend()),
                           ('drum-beat.mid', drum_beat()), ('c-major-arpeggio.rmi', rmid_wrapper()),
                           ('truncated-30-tracks.mid', truncated_file()),
                           ('short-time-signature.mid', short_time_signature()),
                           ('sysex-tracks-without-end.mid', sysex_tracks_without_end()),
                           ('tempo-in-second-track.mid', tempo_in_second_track()),
                           ('karaoke-latin1.kar', karaoke_latin1()), ('karaoke-headers.kar', karaoke_headers()),
                           ('lyrics-utf8.mid', lyrics_utf8()),
                           ('pedal-two-hands.mid', pedal_two_hands()), ('dense-random.mid', dense_random())]:
        with open(os.path.join(HERE, filename), 'wb') as f:
            f.write(data)
        print(f'fixtures/{filename}: {len(data)} bytes')


if __name__ == '__main__':
    main()
