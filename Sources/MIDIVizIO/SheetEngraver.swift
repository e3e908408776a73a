import Algorithms
import Foundation
import MIDIVizCore

/// Engraves a song's sheet music once, before any frame: its notation as MusicXML (the score it
/// was read from, or MuseScore 3's reading of `NotationMIDI`) → Verovio (the Python module, run
/// as `python3 -c` with the script below, so that it cannot go missing or drift from this code)
/// engraving one endless system as SVG, with the column of each note onset in its timemap →
/// librsvg drawing it into coverage tiles the height of the band.
///
/// Time reaches the strip only through quarter notes: the timemap's `qstamp` of each onset
/// (never its milliseconds, which follow Verovio's own idea of the tempo) and the song's tempo
/// map (`Song.quarters(atSeconds:)`).
package enum SheetEngraver {
    /// What Verovio made, kept for tests: the SVG, and how it was scaled into the strip.
    package struct Engraving {
        package var music: SheetMusic
        package var svg: [UInt8]
        /// The document's size in pixels, and how far down the strip it starts.
        package var documentWidth: Double
        package var documentHeight: Double
        package var top: Double
    }

    /// The engraved music of `song` for frames of `settings`.
    /// - Parameter name: the song's file, for messages.
    package static func engrave(song: Song, name: String, settings: RenderSettings) throws(LoadError) -> SheetMusic {
        try engraving(song: song, name: name, settings: settings).music
    }

    /// - Parameter cache: where MuseScore's notation and Verovio's engraving are kept (by the
    ///   MusicXML or notation MIDI's bytes and the tools' identities); nil to run the tools.
    package static func engraving(
        song: Song, name: String, settings: RenderSettings, cache: ScoreToolCache? = .fromEnvironment()
    ) throws(LoadError) -> Engraving {
        if let problem = ScoreTools.setupProblem() { throw .toolMissing(path: name, reason: problem) }
        guard let python = ScoreTools.python() else { throw .toolMissing(path: name, reason: ScoreTools.pythonMissing) }
        let musicXML: [UInt8]
        if let given = song.musicXML { musicXML = given } else { musicXML = try notation(of: song, name: name, cache: cache) }
        var (layout, svg) = try verovio(musicXML, python: python, name: name, cache: cache)
        layout.heads = layout.heads.map { timedAsPlayed($0, song: song) }
        return try rasterize(layout: layout, svg: svg, name: name, settings: settings)
    }

    /// `heads` (the layout's) with grace notes and the notes they lead to timed as `song` plays
    /// them: MuseScore plays an acciaccatura on the beat and delays the note after it, where
    /// Verovio's timemap puts it before the beat. Each such head takes the start and end of the
    /// song's note of its pitch class that starts nearest it, within half a quarter; the others
    /// keep Verovio's times, which are the song's.
    static func timedAsPlayed(_ heads: [[Double]], song: Song) -> [[Double]] {
        guard heads.contains(where: { $0.count == 8 && $0[7] > 0 && $0[5] >= 0 }) else { return heads }
        let played = song.notes.map { note in
            (start: song.quarters(atSeconds: note.startSeconds), end: song.quarters(atSeconds: note.endSeconds), pitchClass: Int(note.pitch) % 12)
        }.sorted { $0.start < $1.start }
        return heads.map { head in
            guard head.count == 8, head[7] > 0, let step = Int(exactly: head[5]), (0..<7).contains(step) else { return head }
            let pitchClass = SheetMusic.Spelling(step: step, alter: Int(head[6])).pitchClass
            let from = played.partitioningIndex { $0.start >= head[0] - 0.5 }
            let nearest = played[from...].prefix { $0.start <= head[0] + 0.5 }.filter { $0.pitchClass == pitchClass }
                .min { abs($0.start - head[0]) < abs($1.start - head[0]) }
            guard let nearest else { return head }
            var timed = head
            (timed[0], timed[3]) = (nearest.start, nearest.end)
            return timed
        }
    }

    /// MuseScore 3's MusicXML of the notation of `song` (`NotationMIDI`), from the cache if there.
    static func notation(of song: Song, name: String, cache: ScoreToolCache?) throws(LoadError) -> [UInt8] {
        guard let museScore = ScoreTools.museScore() else { throw .toolMissing(path: name, reason: ScoreTools.museScoreMissing) }
        let midi = NotationMIDI.bytes(of: song)
        let key =
            cache == nil
            ? nil : ToolIdentity.museScore(museScore).map { ScoreToolCache.key("notation", [Array("-o musicxml notation.mid".utf8), Array($0.utf8), midi]) }
        if let cache, let key, let musicXML = cache.read(key)?["musicxml"] { return musicXML }
        let result: Result<[UInt8], LoadError>
        do {
            result = try ScoreTools.withTemporaryFolder { folder -> Result<[UInt8], LoadError> in
                let notation = "\(folder)/notation.mid", score = "\(folder)/notation.musicxml"
                try Data(midi).write(to: URL(fileURLWithPath: notation))
                let run = try MuseScore.run(museScore, ["-o", score, notation], in: folder)
                guard !run.timedOut else {
                    return .failure(.invalid(path: name, reason: "MuseScore 3 did not notate it within \(ScoreTools.timeLimitText) s"))
                }
                if let crash = ScoreTools.crash(of: "MuseScore 3 (\(museScore))", run, doing: "notating it", path: name) { return .failure(crash) }
                guard run.exitedCleanly, let musicXML = FileManager.default.contents(atPath: score) else {
                    if let broken = ScoreTools.brokenMuseScore(museScore, doing: "notating it", file: name) { return .failure(broken) }
                    let complaint = MuseScore.complaint(run.errorLines)
                    return .failure(.invalid(path: name, reason: "MuseScore 3 cannot notate it" + (complaint.map { " (\($0))" } ?? "")))
                }
                if let cache, let key { cache.write(key, [("musicxml", [UInt8](musicXML))]) }
                return .success([UInt8](musicXML))
            }
        } catch {
            throw .invalid(path: name, reason: "cannot engrave its sheet music: \(error.localizedDescription)")
        }
        return try result.get()
    }

    /// Verovio's engraving of `musicXML` (`verovioScript`): its layout and SVG, from the cache if there.
    static func verovio(_ musicXML: [UInt8], python: String, name: String, cache: ScoreToolCache?) throws(LoadError) -> (Layout, [UInt8]) {
        let key =
            cache == nil
            ? nil : ToolIdentity.verovio(python: python).map { ScoreToolCache.key("verovio", [Array($0.utf8), Array(verovioScript.utf8), musicXML]) }
        if let cache, let key, let stored = cache.read(key), let json = stored["layout"], let svg = stored["svg"], let layout = Layout.read(json) {
            return (layout, svg)
        }
        let result: Result<(Layout, [UInt8]), LoadError>
        do {
            result = try ScoreTools.withTemporaryFolder { folder -> Result<(Layout, [UInt8]), LoadError> in
                let score = "\(folder)/notation.musicxml", svgPath = "\(folder)/notation.svg"
                try Data(musicXML).write(to: URL(fileURLWithPath: score))
                let run = try ScoreTools.run(python, ["-c", verovioScript, score, svgPath], readsOutput: true)
                if run.timedOut {
                    return .failure(.invalid(path: name, reason: "Verovio did not engrave it within \(ScoreTools.timeLimitText) s"))
                }
                if run.errorLines.contains(where: { $0.contains("midiviz: no verovio") }) {
                    return .failure(.toolMissing(path: name, reason: ScoreTools.verovioMissing))
                }
                if let crash = ScoreTools.crash(of: "Verovio (\(python))", run, doing: "engraving it", path: name) { return .failure(crash) }
                let json = [UInt8](run.output)
                guard run.exitedCleanly, let layout = Layout.read(json), let svg = FileManager.default.contents(atPath: svgPath) else {
                    let complaint = run.errorLines.last { !$0.isEmpty }
                    // Another python3 than the one on PATH is named, as the likelier cause.
                    let through = ProcessInfo.processInfo.environment["MIDIVIZ_PYTHON"].map { $0.isEmpty ? "" : " through \(python)" } ?? ""
                    return .failure(.invalid(path: name, reason: "Verovio cannot engrave it" + through + (complaint.map { " (\($0))" } ?? "")))
                }
                if let cache, let key { cache.write(key, [("layout", json), ("svg", [UInt8](svg))]) }
                return .success((layout, [UInt8](svg)))
            }
        } catch {
            throw .invalid(path: name, reason: "cannot engrave its sheet music: \(error.localizedDescription)")
        }
        return try result.get()
    }

    /// What the script prints: the page's size in SVG units, and (quarter, column) of each onset
    /// (and of each jump: a third number, 1, where the reading goes on after a repeat or ending;
    /// and of the end: 2, the last bar line as the music ends).
    struct Layout: Decodable {
        var width: Double
        var height: Double
        var anchors: [[Double]]
        var staffSpace: Double
        /// Each notehead played: the quarter its note starts at, its centre (column, row), the
        /// quarter its note ends at and its half width, its spelling (letter 0-6 from C, -1 when
        /// the engraving says none; alteration in semitones), and 1 for a grace note, 2 for the
        /// note a grace note leads to, else 0.
        var heads: [[Double]]?

        /// The largest size or place the script prints (SVG units; a long piece is about 10^6).
        static let largest = 1e12

        /// The layout the script printed, if it is one: every number finite and of a size a page
        /// has (a tampered cache entry or another tool may print anything).
        static func read(_ json: [UInt8]) -> Layout? {
            guard let layout = try? JSONDecoder().decode(Layout.self, from: Data(json)) else { return nil }
            let isPlace = { (value: Double) in value.isFinite && abs(value) <= largest }
            let isSize = { (value: Double) in isPlace(value) && value > 0 }
            guard isSize(layout.width), isSize(layout.height), isPlace(layout.staffSpace), layout.staffSpace >= 0,
                layout.anchors.allSatisfy({ $0.allSatisfy(isPlace) }), (layout.heads ?? []).allSatisfy({ $0.allSatisfy(isPlace) })
            else { return nil }
            // Quarters that never go back, at most `largest` units a quarter between them (a
            // page's place in between stays a number).
            for (a, b) in zip(layout.anchors, layout.anchors.dropFirst()) where a.count >= 2 && b.count >= 2 {
                guard b[0] >= a[0], b[0] == a[0] || abs(b[1] - a[1]) / (b[0] - a[0]) <= largest else { return nil }
            }
            return layout
        }
    }

    /// The most columns a strip may have: cairo's coordinates are 24.8 fixed point (±8 388 607
    /// pixels), and every tile draws the whole document shifted left.
    static let mostColumns = 8_000_000

    static func rasterize(layout: Layout, svg: [UInt8], name: String, settings: RenderSettings) throws(LoadError) -> Engraving {
        let rows = SheetBand.stripHeight(settings: settings)
        // The system fills the band's height, a staff space at most a 20th of it (a grand staff
        // with room for ledger lines), 2 % of the frame's height and 1 % of its width (a vertical
        // frame still shows a few bars); and at least three quarters of that: a system made tall
        // by a few far ledger lines is cut at the band's edges rather than shrunk out of reading.
        let largestSpace = max(4, min(Double(rows) / 20, Double(settings.height) * 0.02, Double(settings.width) * 0.01))
        let largestScale = largestSpace / max(1, layout.staffSpace)
        let scale = min(largestScale, max(Double(rows) / layout.height, 0.75 * largestScale))
        let width = layout.width * scale, height = layout.height * scale
        let top = (Double(rows) - height) / 2
        let columns = Int(width.rounded(.up))
        guard columns > 0, columns <= mostColumns else {
            throw .invalid(path: name, reason: "its sheet music would be \(columns) pixels long, more than midiviz draws (\(mostColumns))")
        }
        let document: SVGDocument
        do { document = try SVGDocument(bytes: svg) } catch { throw .invalid(path: name, reason: "cannot draw its sheet music: \(error)") }
        // Tiles are drawn as frames need them, as many kept as two frames need; the first now,
        // which checks that the document draws.
        let tileColumns = SheetMusic.tileColumns
        let drawer = SVGTileDrawer(document: document, width: width, height: height, top: top, tileColumns: tileColumns, rows: rows)
        let first: [UInt8]
        do { first = try drawer.draw(tile: 0, columns: min(tileColumns, columns)) } catch {
            throw .invalid(path: name, reason: "cannot draw its sheet music: \(error)")
        }
        let tilesAFrame = settings.width / tileColumns + 2
        let tiles = SheetTiles(width: columns, tileColumns: tileColumns, capacity: 2 * tilesAFrame, drawer: drawer, first: first)
        let anchors = layout.anchors.compactMap { entry in
            (2...3).contains(entry.count)
                ? SheetMusic.Anchor(
                    quarter: entry[0], x: entry[1] * scale, startsPass: entry.count == 3 && entry[2] == 1, endsMusic: entry.count == 3 && entry[2] == 2)
                : nil
        }
        let heads = (layout.heads ?? []).compactMap { head -> SheetMusic.Head? in
            guard head.count == 8 else { return nil }
            let written = head[5] >= 0 ? SheetMusic.Spelling(step: Int(head[5]), alter: Int(head[6])) : nil
            return SheetMusic.Head(
                quarter: head[0], x: head[1] * scale, y: head[2] * scale + top, endQuarter: max(head[0], head[3]), halfWidth: head[4] * scale,
                written: written)
        }
        let music = SheetMusic(
            height: rows, tiles: tiles, anchors: anchors, noteheadHalfWidth: 0.6 * layout.staffSpace * scale,
            fingerprint: fingerprint(svg, rows, scale), heads: heads)
        return Engraving(music: music, svg: svg, documentWidth: width, documentHeight: height, top: top)
    }

    /// FNV-1a 64 of the SVG, the strip's height and the scale.
    static func fingerprint(_ svg: [UInt8], _ rows: Int, _ scale: Double) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in svg + Array("\(rows) \(scale)".utf8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Engraves argv[1] (MusicXML) into argv[2] (SVG, each notehead given the id `NOTE-head`) and
    /// prints the page size, the staff space and the anchors as JSON. A notehead's centre is its
    /// glyph's origin plus half the glyph's width (SMuFL, in ems of 4 staff spaces).
    static let verovioScript = #"""
        import json, re, sys
        import xml.etree.ElementTree as ET
        try:
            import verovio
        except ImportError:
            sys.stderr.write("midiviz: no verovio module\n")
            sys.exit(3)
        source, target = sys.argv[1], sys.argv[2]
        tk = verovio.toolkit()
        tk.setOptions({"breaks": "none", "adjustPageHeight": True, "adjustPageWidth": True, "header": "none", "footer": "none",
                       "pageMarginTop": 100, "pageMarginBottom": 100, "pageMarginLeft": 100, "pageMarginRight": 100, "scale": 100})
        if not tk.loadFile(source):
            sys.stderr.write("Verovio cannot read the score\n")
            sys.exit(2)
        mei, steps = "{http://www.music-encoding.org/ns/mei}", "cdefgab"
        xmlid = "{http://www.w3.org/XML/1998/namespace}id"
        # An ending that closes with a repeat and has no ending after it (a first ending alone,
        # as MuseScore exports some): MuseScore plays back from the repeat, then on past the
        # ending, as a reader does; Verovio's expansion plays it once. The section it repeats is
        # put in the expansion after it, and the score read again from that MEI.
        def played_repeats(text):
            root = ET.fromstring(text)
            ids = {e.get(xmlid): e for e in root.iter()}
            def kind(ref):
                e = ids.get(ref.lstrip("#")) if ref else None
                return None if e is None else e.tag[len(mei):]
            changed = []
            def unfold(match):
                plist, out = match.group(2).split(), []
                for n, ref in enumerate(plist):
                    out.append(ref)
                    if kind(ref) != "ending" or plist.count(ref) != 1:
                        continue
                    bars = list(ids[ref.lstrip("#")].iter(mei + "measure"))
                    if not bars or bars[-1].get("right") not in ("rptend", "rptboth"):
                        continue
                    repeated = next((r for r in reversed(plist[:n]) if kind(r) == "section"), None)
                    following = plist[n + 1] if n + 1 < len(plist) else None
                    if repeated and following != repeated and kind(following) != "ending":
                        out.append(repeated)
                        changed.append(ref)
                return match.group(1) + " ".join(out) + match.group(3)
            text = re.sub(r'(<expansion plist=")([^"]*)(")', unfold, text)
            return text if changed else None
        encoded = tk.getMEI()
        try:
            unfolded = played_repeats(encoded)
        except ET.ParseError:
            unfolded = None
        # (The expansion is found by its first attribute, as Verovio 6.4.1 writes it; should it
        # not read the MEI back, the score is engraved as Verovio unfolds it.)
        if unfolded:
            if tk.loadData(unfolded):
                encoded = unfolded
            else:
                tk.loadFile(source)
        svg = tk.renderToSVG(1)
        # Each note's spelling as engraved: its letter (0 C ... 6 B) and alteration in semitones,
        # sounding (accid.ges: the key's or the bar's) or written, on the note or its accid; none
        # for a drum's (unpitched) note.
        alters = {"s": 1, "f": -1, "ss": 2, "x": 2, "ff": -2, "n": 0, "ns": 1, "nf": -1}
        spellings, graced = {}, {}
        try:
            root = ET.fromstring(encoded)
            # Grace notes (1) and the note or chord each run of them leads to (2), in each layer:
            # MuseScore plays an acciaccatura on the beat, delaying that note; Verovio's timemap
            # puts it before the beat. Their heads take the song's own times (SheetEngraver).
            for layer in root.iter(mei + "layer"):
                chorded = {id(n) for chord in layer.iter(mei + "chord") for n in chord.iter(mei + "note")}
                run = []
                for element in layer.iter():
                    if element.tag != mei + "chord" and (element.tag != mei + "note" or id(element) in chorded):
                        continue
                    notes = [element] if element.tag == mei + "note" else list(element.iter(mei + "note"))
                    if element.get("grace") or any(n.get("grace") for n in notes):
                        run += [n.get(xmlid) for n in notes]
                        continue
                    graced.update({i: 1 for i in run})
                    graced.update({n.get(xmlid): 2 for n in notes} if run else {})
                    run = []
            for element in root.iter(mei + "note"):
                pname = element.get("pname")
                if not pname or pname not in steps or len(pname) != 1:
                    continue
                marks = [element] + list(element.iter(mei + "accid"))
                given = [m.get("accid.ges") for m in marks if m.get("accid.ges")] + [m.get("accid") for m in marks if m.get("accid")]
                spellings[element.get(xmlid)] = [steps.index(pname), alters.get(given[0], 0) if given else 0]
        except ET.ParseError:
            pass
        timemap = tk.renderToTimemap({"includeMeasures": True})
        box = re.search(r'<svg class="definition-scale"[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
        margin = re.search(r'<g class="page-margin" transform="translate\((-?[\d.]+), (-?[\d.]+)\)"', svg)
        if not box or not margin:
            sys.stderr.write("Verovio wrote no page\n")
            sys.exit(2)
        left, top = float(margin.group(1)), float(margin.group(2))
        widths = {"E0A0": 2.4, "E0A1": 1.39, "E0A2": 1.69, "E0A3": 1.18, "E0A4": 1.18}
        heads, ys, halves = {}, {}, {}
        # The staff space is the largest head's: cue and grace heads are drawn smaller.
        space = 0.0
        pattern = (r'<g id="([^"]+)" class="note[^"]*"[^>]*>\s*<g class="notehead"[^>]*>\s*'
                   r'<use xlink:href="#(E\w+)-[^"]*" transform="translate\((-?[\d.]+), (-?[\d.]+)\) scale\(([\d.]+)')
        for match in re.finditer(pattern, svg):
            size = 250 * float(match.group(5))
            space = max(space, size)
            halves[match.group(1)] = widths.get(match.group(2), 1.18) * size / 2
            heads[match.group(1)] = left + float(match.group(3)) + halves[match.group(1)]
            ys[match.group(1)] = top + float(match.group(4))
        svg = re.sub(pattern, lambda m: m.group(0).replace('<g class="notehead"', '<g id="%s-head" class="notehead"' % m.group(1), 1), svg)
        # Music symbols in text (a tempo mark's note) are SMuFL glyphs of a font librsvg cannot
        # load: written with DejaVu's note signs (a half note as a quarter) instead.
        signs = {"\ueca5": "\u2669", "\ueca7": "\u266a", "\ueca3": "\u2669", "\ueca2": "o", "\uecb7": ".", "\ue1d5": "\u2669", "\ue1d7": "\u266a", "\ue1e7": "."}
        svg = re.sub(r'<tspan font-family="Leipzig" font-size="(\d+)px">([^<]*)</tspan>',
                     lambda m: '<tspan font-family="DejaVu Sans" font-size="%dpx">%s</tspan>' % (int(m.group(1)) * 2 // 3, "".join(signs.get(c, "") for c in m.group(2))), svg)
        # Verovio spaces lyrics and other text by Times's widths; fontconfig gives "Times, serif"
        # DejaVu Serif, a fifth wider, and words ran into each other. Liberation Serif has
        # Times's widths (Debian's fonts-liberation2).
        svg = svg.replace('font-family="Times, serif"', 'font-family="Liberation Serif, Times, serif"')
        # Each measure's span (its first staff's lines), in written order. A measure's number
        # (Verovio writes one for a pickup bar) may come before its staves.
        measures, order = {}, []
        for match in re.finditer(r'<g id="([^"]+)" class="measure[^"]*">\s*(?:<g id="[^"]+" class="mNum[^"]*">(?:(?!</g>).)*</g>\s*)?'
                                 r'<g id="[^"]+" class="staff[^"]*">\s*<path d="M(-?[\d.]+) -?[\d.]+ L(-?[\d.]+)', svg, re.S):
            measures[match.group(1)] = (left + float(match.group(2)), left + float(match.group(3)))
            order.append(match.group(1))
        written_next = dict(zip(order, order[1:]))
        # The timemap plays repeats unfolded (as MuseScore's MIDI does): a measure or note played
        # again is the engraved one's id + "-rend2". Where the next measure played is not the
        # next engraved (a repeat, an ending), the pass ends at the bar line and the next starts
        # where that measure is, at the same quarter: [quarter, column, 1].
        def engraved(i):
            return re.sub(r'-rend\d+$', '', i)
        # Where each note played ends (an id played again is its own: "-rend2").
        ends = {i: entry["qstamp"] for entry in timemap for i in entry.get("off", [])}
        anchors, previous, onsets = [], None, []
        for entry in timemap:
            jump = False
            measure = engraved(entry["measureOn"]) if "measureOn" in entry else None
            if measure is not None:
                if previous in measures and measure in measures and written_next.get(previous) != measure:
                    anchors.append([entry["qstamp"], measures[previous][1]])
                    jump = True
                previous = measure
            xs = sorted(heads[engraved(i)] for i in entry.get("on", []) if engraved(i) in heads)
            if xs:
                anchors.append([entry["qstamp"], xs[len(xs) // 2]] + ([1] if jump else []))
            elif jump:
                anchors.append([entry["qstamp"], measures[measure][0], 1])
            onsets += [[entry["qstamp"], heads[engraved(i)], ys[engraved(i)], ends.get(i, entry["qstamp"]), halves[engraved(i)]]
                       + spellings.get(engraved(i), [-1, 0]) + [graced.get(engraved(i), 0)] for i in entry.get("on", []) if engraved(i) in heads]
        # The music ends at the last bar line played, as its last note or rest ends: reached
        # then, not at the pace of the last onsets (a final whole note's bar line passed the
        # playhead while it sounded), and the page stays there: [quarter, column, 2].
        end = max((entry["qstamp"] for entry in tk.renderToTimemap({"includeRests": True})), default=None)
        if previous in measures and anchors and end is not None and end > anchors[-1][0] and measures[previous][1] > anchors[-1][1]:
            anchors.append([end, measures[previous][1], 2])
        with open(target, "w") as out:
            out.write(svg)
        json.dump({"width": float(box.group(1)), "height": float(box.group(2)), "anchors": anchors, "staffSpace": space or 180.0, "heads": onsets}, sys.stdout)
        """#
}
