#!/usr/bin/env python3
"""Runs the independent reference (../shared/tools/oracle_notes.py, mido + pretty_midi) with
synth semantics over every MIDI file under a folder, in one process, and prints one JSON line
per file: {"file": relative path, "rejected": bool, "error"?, "notes"?, "duration_s"?}.

Usage: oracle_corpus.py ORACLE_TOOLS_DIR CORPUS_DIR
"""
import json
import os
import sys


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    tools, corpus = argv
    sys.path.insert(0, tools)
    import oracle_notes  # noqa: E402  (needs mido and pretty_midi)
    for path in sorted(oracle_notes.iter_files([corpus])):
        rel = os.path.relpath(path, corpus)
        try:
            result = oracle_notes.oracle(path, 'synth')
            print(json.dumps({'file': rel, 'rejected': False, 'notes': result['notes'],
                              'duration_s': result['duration_s']}))
        except oracle_notes.Rejected as error:
            print(json.dumps({'file': rel, 'rejected': True, 'error': str(error)}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
