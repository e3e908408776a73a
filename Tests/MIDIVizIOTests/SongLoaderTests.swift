import Testing
@testable import MIDIVizIO
import MIDIVizCore

@Suite struct SongLoaderTests {
    @Test func missingFileIsUnreadable() {
        #expect(throws: LoadError.self) { try SongLoader.load(path: "/nonexistent/song.mid") }
    }
}
