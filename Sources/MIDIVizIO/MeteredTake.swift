import Foundation

/// One take of a normalization: the sound as it would be written (gain and limiter applied),
/// kept in a spool of its own (its file unnamed at once) whose loudness is measured on a thread
/// of its own while it is made. The take that meets the target has its true peak measured from
/// the file (both channels at once) and is written by copying it instead of making it again.
final class MeteredTake: Sendable {
    let gainDB: Double
    let limiterThresholdDB: Double?
    let sound: SoundSpool

    /// The take's file is made new beside `path` (`mkstemp`: never a file that was there) and
    /// unlinked once open.
    init(gainDB: Double, limiterThresholdDB: Double?, path: String, sampleRate: Int) throws(AudioError) {
        self.gainDB = gainDB
        self.limiterThresholdDB = limiterThresholdDB
        guard let (unique, descriptor) = UniquePath.file(path + ".take-XXXXXX") else {
            throw .cannotWrite(path: path, reason: systemError())
        }
        close(descriptor)
        defer { unlink(unique) }
        sound = try SoundSpool(path: unique, sampleRate: sampleRate, truePeak: false)
    }

    /// The take's integrated loudness, once every block is measured.
    func integratedLUFS() -> Double { sound.measurement().integratedLUFS }

    /// The take's true peak in dBTP.
    func truePeakDBTP() throws(AudioError) -> Double { try sound.truePeakOfFileDBTP() }

    /// Whether the take is the sound that `gainDB` and `limiterThresholdDB` make.
    func isMade(gainDB: Double, limiterThresholdDB: Double?) -> Bool {
        self.gainDB == gainDB && self.limiterThresholdDB == limiterThresholdDB
    }

    /// Plays the take into `sink`, as it was taken (a gain of 0 dB multiplies by exactly 1), and
    /// finishes the sink.
    func play(into sink: some SoundSink, shouldStop: () -> Bool) throws(AudioError) {
        try sound.replay(gainDB: 0, into: sink, shouldStop: shouldStop)
    }
}
