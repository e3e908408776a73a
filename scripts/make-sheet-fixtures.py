#!/usr/bin/env python3
"""Writes the MusicXML fixtures of the sheet-music tests in fixtures/sheet/ (ours, same licence as
the project): python3 scripts/make-sheet-fixtures.py"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'sheet')
TYPES = {1: 'eighth', 2: 'quarter', 4: 'half', 8: 'whole'}  # durations in eighths (divisions = 2 a quarter)


def note(step, octave, eighths):
    return ('<note><pitch><step>%s</step><octave>%d</octave></pitch><duration>%d</duration>'
            '<voice>1</voice><type>%s</type></note>' % (step, octave, eighths, TYPES[eighths]))


def tempo(bpm):
    return ('<direction placement="above"><direction-type><metronome><beat-unit>quarter</beat-unit>'
            '<per-minute>%d</per-minute></metronome></direction-type><sound tempo="%d"/></direction>' % (bpm, bpm))


def attributes(beats):
    return ('<attributes><divisions>2</divisions><key><fifths>0</fifths></key><time><beats>%d</beats>'
            '<beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>' % beats)


def score(title, measures):
    """measures: (number, implicit, contents) -> a one-part score-partwise document."""
    body = ''.join('<measure number="%s"%s>%s</measure>' % (number, ' implicit="yes"' if implicit else '', contents)
                   for number, implicit, contents in measures)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 3.1 Partwise//EN" '
            '"http://www.musicxml.org/dtds/partwise.dtd">\n'
            '<score-partwise version="3.1"><work><work-title>%s</work-title></work>'
            '<part-list><score-part id="P1"><part-name>Piano</part-name>'
            '<score-instrument id="P1-I1"><instrument-name>Piano</instrument-name></score-instrument>'
            '<midi-instrument id="P1-I1"><midi-channel>1</midi-channel><midi-program>1</midi-program></midi-instrument>'
            '</score-part></part-list><part id="P1">%s</part></score-partwise>\n' % (title, body))


def scale():
    """C major up an octave in quarter notes at 100 bpm, 4/4: 8 notes, 4.8 s."""
    steps = [('C', 4), ('D', 4), ('E', 4), ('F', 4), ('G', 4), ('A', 4), ('B', 4), ('C', 5)]
    first = attributes(4) + tempo(100) + ''.join(note(s, o, 2) for s, o in steps[:4])
    second = ''.join(note(s, o, 2) for s, o in steps[4:])
    return score('C major scale', [(1, False, first), (2, False, second)])


def whole_note_end():
    """4/4 at 120 bpm: C4 D4 E4 F4 in quarters, then a whole G4 to the final bar line: 5 notes, 4 s."""
    first = attributes(4) + tempo(120) + ''.join(note(s, 4, 2) for s in 'CDEF')
    return score('Whole note at the end', [(1, False, first), (2, False, note('G', 4, 8))])


def pickup_and_tempo():
    """3/4 with a one-quarter pickup at 90 bpm, then 150 bpm from bar 3, 60 bpm from bar 5:
    quarters and pairs of eighths, no note crossing a beat, no accidentals: 24 notes, 13.07 s."""
    measures = [
        (0, True, attributes(3) + tempo(90) + note('G', 4, 2)),
        (1, False, note('C', 5, 2) + note('B', 4, 1) + note('A', 4, 1) + note('G', 4, 2)),
        (2, False, note('E', 4, 2) + note('F', 4, 2) + note('G', 4, 2)),
        (3, False, tempo(150) + note('A', 4, 1) + note('B', 4, 1) + note('C', 5, 2) + note('D', 5, 2)),
        (4, False, note('E', 5, 2) + note('D', 5, 1) + note('C', 5, 1) + note('B', 4, 2)),
        (5, False, tempo(60) + note('A', 4, 2) + note('G', 4, 1) + note('F', 4, 1) + note('E', 4, 2)),
        (6, False, note('D', 4, 1) + note('E', 4, 1) + note('F', 4, 2) + note('C', 4, 2)),
    ]
    return score('Pickup and tempo changes', measures)


def repeat_with_endings():
    """4/4 at 120 bpm, bars 1-2 repeated with first and second endings: ||: 1 | 1. 2 :|| 2. 3 | 4 ||,
    played 1 2 1 3 4, quarter notes only: 20 notes (16 engraved), 10 s."""
    forward = '<barline location="left"><bar-style>heavy-light</bar-style><repeat direction="forward"/></barline>'
    first = ('<barline location="left"><ending number="1" type="start">1.</ending></barline>',
             '<barline location="right"><bar-style>light-heavy</bar-style><ending number="1" type="stop"/>'
             '<repeat direction="backward"/></barline>')
    second = ('<barline location="left"><ending number="2" type="start">2.</ending></barline>',
              '<barline location="right"><ending number="2" type="discontinue"/></barline>')
    measures = [
        (1, False, forward + attributes(4) + tempo(120) + note('C', 4, 2) + note('D', 4, 2) + note('E', 4, 2) + note('F', 4, 2)),
        (2, False, first[0] + note('G', 4, 2) + note('A', 4, 2) + note('B', 4, 2) + note('C', 5, 2) + first[1]),
        (3, False, second[0] + note('E', 5, 2) + note('D', 5, 2) + note('B', 4, 2) + note('G', 4, 2) + second[1]),
        (4, False, note('A', 4, 2) + note('F', 4, 2) + note('D', 4, 2) + note('C', 4, 2)
         + '<barline location="right"><bar-style>light-heavy</bar-style></barline>'),
    ]
    return score('Repeat with endings', measures)


def first_ending_alone():
    """4/4 at 120 bpm, bars 1-2 repeated with a first ending and no second: ||: 1 | 1. 2 :|| 3 ||
    (as MuseScore exports some voltas), played 1 2 1 3, quarter notes: 16 notes (12 engraved),
    8 s. Verovio's expansion played bar 2 once and went on, leaving the page behind the music."""
    forward = '<barline location="left"><bar-style>heavy-light</bar-style><repeat direction="forward"/></barline>'
    measures = [
        (1, False, forward + attributes(4) + tempo(120) + note('C', 4, 2) + note('D', 4, 2) + note('E', 4, 2) + note('F', 4, 2)),
        (2, False, '<barline location="left"><ending number="1" type="start">1.</ending></barline>'
         + note('G', 4, 2) + note('A', 4, 2) + note('B', 4, 2) + note('C', 5, 2)
         + '<barline location="right"><bar-style>light-heavy</bar-style><ending number="1" type="stop"/>'
         '<repeat direction="backward"/></barline>'),
        (3, False, note('E', 5, 2) + note('D', 5, 2) + note('B', 4, 2) + note('G', 4, 2)
         + '<barline location="right"><bar-style>light-heavy</bar-style></barline>'),
    ]
    return score('First ending alone', measures)


def with_drums():
    """A piano and a drum kit (unpitched notes on a percussion staff, channel 10), 4/4 at 120
    bpm: C5 D5 E5 F5 over bass drum and snare in turn, quarter notes: 8 notes, 2 s. Verovio's
    script once failed on a note without a pitch name."""
    drum = ('<note><unpitched><display-step>%s</display-step><display-octave>%d</display-octave></unpitched>'
            '<duration>2</duration><instrument id="P2-I%d"/><voice>1</voice><type>quarter</type></note>')
    kit = drum % ('F', 4, 36) + drum % ('C', 5, 39)
    text = score('With drums', [(1, False, attributes(4) + tempo(120) + note('C', 5, 2) + note('D', 5, 2) + note('E', 5, 2) + note('F', 5, 2))])
    drums = ('<score-part id="P2"><part-name>Drums</part-name>'
             '<score-instrument id="P2-I36"><instrument-name>Bass Drum</instrument-name></score-instrument>'
             '<score-instrument id="P2-I39"><instrument-name>Snare</instrument-name></score-instrument>'
             '<midi-instrument id="P2-I36"><midi-channel>10</midi-channel><midi-unpitched>36</midi-unpitched></midi-instrument>'
             '<midi-instrument id="P2-I39"><midi-channel>10</midi-channel><midi-unpitched>39</midi-unpitched></midi-instrument>'
             '</score-part></part-list>')
    part = ('<part id="P2"><measure number="1"><attributes><divisions>2</divisions><key><fifths>0</fifths></key>'
            '<time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>percussion</sign></clef></attributes>'
            + kit + kit + '</measure></part></score-partwise>')
    return text.replace('</part-list>', drums).replace('</score-partwise>', part)


def lyrics():
    """A voice singing one word an eighth note, 4/4 at 120 bpm: 16 words over 2 bars, 4 s. Verovio
    spaces the notes by the words' widths in Times: drawn in a wider serif, they ran together."""
    words = 'Twinkle twinkle little star how I wonder what you are up above the world so high'.split()
    steps = [('C', 5), ('C', 5), ('G', 5), ('G', 5), ('A', 5), ('A', 5), ('G', 5), ('G', 5),
             ('F', 5), ('F', 5), ('E', 5), ('E', 5), ('D', 5), ('D', 5), ('C', 5), ('C', 5)]
    sung = [note(step, octave, 1).replace('</type>', '</type><lyric number="1"><syllabic>single</syllabic><text>%s</text></lyric>' % word)
            for (step, octave), word in zip(steps, words)]
    text = score('', [(1, False, attributes(4) + tempo(120) + ''.join(sung[:8])), (2, False, ''.join(sung[8:]))])
    return text.replace('<part-name>Piano</part-name>', '<part-name>Voice</part-name>')


def grace_notes():
    """4/4 at 120 bpm: C5, then D5 after a slashed grace E5 (an acciaccatura), F5, then C6 after two
    slashed sixteenth graces A5 B5, quarter notes: 7 notes, 2 s. MuseScore plays the graces on the
    beat and delays the note after them; Verovio's timemap put them before the beat."""
    def grace(step, octave, kind):
        return ('<note><grace slash="yes"/><pitch><step>%s</step><octave>%d</octave></pitch><voice>1</voice>'
                '<type>%s</type></note>' % (step, octave, kind))
    measure = (attributes(4) + tempo(120) + note('C', 5, 2) + grace('E', 5, 'eighth') + note('D', 5, 2) + note('F', 5, 2)
               + grace('A', 5, '16th') + grace('B', 5, '16th') + note('C', 6, 2))
    return score('Grace notes', [(1, False, measure)])


def pickup_repeat():
    """4/4 at 120 bpm, a one-quarter pickup, then two bars repeated from the start (the pickup
    included): played 0 1 2 0 1 2, quarter notes: 16 notes (8 engraved), 8 s. Verovio numbers
    the pickup bar before its staff, which once hid it from the page's jumps."""
    end = '<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"/></barline>'
    measures = [
        (0, True, attributes(4) + tempo(120) + note('G', 4, 2)),
        (1, False, note('C', 5, 2) + note('D', 5, 2) + note('E', 5, 2) + note('F', 5, 2)),
        (2, False, note('E', 5, 2) + note('D', 5, 2) + note('C', 5, 2) + end),
    ]
    return score('Pickup repeated', measures)


def spelled_accidentals():
    """D major, 4/4 at 120 bpm: F#4 by the key, then D#4, Eb4, a natural F4, B#3, C##4 written
    with their accidentals, and C#5 by the key: 7 notes, 4 s. Names under the noteheads are
    spelled as written, where the key would spell D#4 as Eb4 and B#3 as C4."""
    def spelled(step, alter, octave, eighths, accidental=None):
        return ('<note><pitch><step>%s</step>%s<octave>%d</octave></pitch><duration>%d</duration><voice>1</voice>'
                '<type>%s</type>%s</note>' % (step, '<alter>%d</alter>' % alter if alter else '', octave, eighths, TYPES[eighths],
                                             '<accidental>%s</accidental>' % accidental if accidental else ''))
    key = attributes(4).replace('<fifths>0</fifths>', '<fifths>2</fifths>')
    measures = [
        (1, False, key + tempo(120) + spelled('F', 1, 4, 2) + spelled('D', 1, 4, 2, 'sharp') + spelled('E', -1, 4, 2, 'flat')
         + spelled('F', 0, 4, 2, 'natural')),
        (2, False, spelled('B', 1, 3, 2, 'sharp') + spelled('C', 2, 4, 2, 'double-sharp') + spelled('C', 1, 5, 4)),
    ]
    return score('Spelled accidentals', measures)


def da_capo_al_fine():
    """4/4 at 120 bpm, three bars in quarter notes, Fine at the end of bar 2, D.C. al Fine at the
    end of bar 3: played 1 2 3 1 2, 20 notes (12 engraved), 10 s."""
    fine = '<direction placement="below"><direction-type><words>Fine</words></direction-type><sound fine="yes"/></direction>'
    da_capo = '<direction placement="above"><direction-type><words>D.C. al Fine</words></direction-type><sound dacapo="yes"/></direction>'
    measures = [
        (1, False, attributes(4) + tempo(120) + note('C', 4, 2) + note('D', 4, 2) + note('E', 4, 2) + note('F', 4, 2)),
        (2, False, note('G', 4, 2) + note('A', 4, 2) + note('B', 4, 2) + note('C', 5, 2) + fine
         + '<barline location="right"><bar-style>light-light</bar-style></barline>'),
        (3, False, note('E', 5, 2) + note('D', 5, 2) + note('B', 4, 2) + note('G', 4, 2) + da_capo),
    ]
    return score('Da capo al fine', measures)


def no_text():
    """G major, 3/4, no tempo (120 bpm; MuseScore writes a tempo mark for any given), no title, the part's
    name not printed, two staves: beamed eighths, a tie across the bar line, a rest, an
    accidental, chords in the bass; 2 bars, 3 s. Nothing is text, so Verovio's engraving (glyphs
    as paths from its own font data) does not depend on the fonts installed: the golden band."""
    def n(step, octave, eighths, staff, alter=None, accidental=None, beam=None, tie=None, chord=False):
        ties = ''.join('<tie type="%s"/>' % t for t in (tie or []))
        tied = ''.join('<tied type="%s"/>' % t for t in (tie or []))
        return ('<note>%s<pitch><step>%s</step>%s<octave>%d</octave></pitch><duration>%d</duration>%s<voice>%d</voice>'
                '<type>%s</type>%s<staff>%d</staff>%s%s</note>' % (
                    '<chord/>' if chord else '', step, '<alter>%d</alter>' % alter if alter is not None else '', octave, eighths,
                    ties, staff, TYPES[eighths], '<accidental>%s</accidental>' % accidental if accidental else '', staff,
                    '<beam number="1">%s</beam>' % beam if beam else '', '<notations>%s</notations>' % tied if tied else ''))

    def rest(eighths, staff):
        return '<note><rest/><duration>%d</duration><voice>%d</voice><type>%s</type><staff>%d</staff></note>' % (
            eighths, staff, TYPES[eighths], staff)
    head = ('<attributes><divisions>2</divisions><key><fifths>1</fifths></key><time><beats>3</beats><beat-type>4</beat-type>'
            '</time><staves>2</staves><clef number="1"><sign>G</sign><line>2</line></clef>'
            '<clef number="2"><sign>F</sign><line>4</line></clef></attributes>')
    first = (head + n('G', 4, 1, 1, beam='begin') + n('A', 4, 1, 1, beam='continue') + n('B', 4, 1, 1, beam='continue')
             + n('C', 5, 1, 1, beam='end') + n('D', 5, 2, 1, tie=['start'])
             + '<backup><duration>6</duration></backup>'
             + n('G', 2, 4, 2) + n('B', 2, 4, 2, chord=True) + n('D', 3, 4, 2, chord=True) + rest(2, 2))
    second = (n('D', 5, 2, 1, tie=['stop']) + n('F', 5, 1, 1, alter=0, accidental='natural', beam='begin')
              + n('E', 5, 1, 1, beam='end') + n('D', 5, 2, 1)
              + '<backup><duration>6</duration></backup>'
              + n('C', 3, 2, 2) + n('E', 3, 2, 2, chord=True) + n('D', 3, 4, 2) + n('F', 3, 4, 2, alter=1, chord=True))
    text = score('', [(1, False, first), (2, False, second)])
    return text.replace('<work><work-title></work-title></work>', '').replace(
        '<part-name>Piano</part-name>', '<part-name print-object="no">Piano</part-name>')


if __name__ == '__main__':
    os.makedirs(HERE, exist_ok=True)
    for name, text in [('c-major-scale.musicxml', scale()), ('pickup-tempo.musicxml', pickup_and_tempo()),
                       ('repeat-endings.musicxml', repeat_with_endings()), ('da-capo-fine.musicxml', da_capo_al_fine()),
                       ('pickup-repeat.musicxml', pickup_repeat()), ('spelled-accidentals.musicxml', spelled_accidentals()),
                       ('no-text.musicxml', no_text()), ('first-ending.musicxml', first_ending_alone()),
                       ('with-drums.musicxml', with_drums()), ('lyrics.musicxml', lyrics()),
                       ('grace-notes.musicxml', grace_notes()), ('whole-note-end.musicxml', whole_note_end())]:
        with open(os.path.join(HERE, name), 'w') as out:
            out.write(text)
