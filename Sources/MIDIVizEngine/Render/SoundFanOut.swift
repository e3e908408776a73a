import MIDIVizIO

/// One bounce into several sound sinks: the WAV output and the encoder's audio input.
final class SoundFanOut: SoundSink {
    private let sinks: [any SoundSink]

    init(_ sinks: [any SoundSink]) { self.sinks = sinks }

    var framesWritten: Int { sinks.first?.framesWritten ?? 0 }

    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        for sink in sinks { try sink.append(left: left, right: right, count: count) }
    }

    func finish() throws(AudioError) {
        for sink in sinks { try sink.finish() }
    }
}
