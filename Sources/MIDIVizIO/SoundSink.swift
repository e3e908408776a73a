/// Where a bounce's samples go, as they come: a WAV file, or an encoder's audio input.
package protocol SoundSink: AnyObject, SendableMetatype {
    /// Stereo frames taken so far.
    var framesWritten: Int { get }
    /// Takes `count` stereo frames of float samples (-1...1).
    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError)
    /// Ends the stream; what was taken is then complete.
    func finish() throws(AudioError)
}

extension SoundSink {
    /// Takes `count` frames of silence.
    package func appendSilence(_ count: Int) throws(AudioError) {
        let zeros = [Float](repeating: 0, count: min(count, 4096))
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, zeros.count)
            try zeros.withUnsafeBufferPointer { buffer throws(AudioError) in
                try append(left: buffer.baseAddress!, right: buffer.baseAddress!, count: chunk)
            }
            remaining -= chunk
        }
    }
}
