import Foundation

/// The loudness a sound is normalized to: integrated loudness (EBU R128) with a true-peak
/// ceiling, as platforms expect (YouTube plays at about -14 LUFS).
public struct LoudnessTarget: Sendable, Equatable {
    public var integratedLUFS: Double
    public var truePeakCeilingDBTP: Double

    public init(integratedLUFS: Double = -14, truePeakCeilingDBTP: Double = -1) {
        self.integratedLUFS = integratedLUFS
        self.truePeakCeilingDBTP = truePeakCeilingDBTP
    }

    /// The loudest target accepted: louder than 0 LUFS only clips.
    public static let range = -70.0...0.0

}

/// What normalization found and did.
public struct LoudnessMeasurement: Sendable, Equatable {
    /// The synthesizer's integrated loudness, before the gain.
    public var measuredLUFS: Double
    /// Its true peak, before the gain.
    public var truePeakDBTP: Double
    /// The gain applied.
    public var gainDB: Double
    /// Where the peak limiter held sample peaks (dBFS), when the gain alone would have passed
    /// the true-peak ceiling; nil when no limiting was needed.
    public var limiterThresholdDB: Double?
    /// The integrated loudness and true peak of the sound as written (measured again when limited).
    public var resultLUFS: Double
    public var resultTruePeakDBTP: Double

    package init(
        measuredLUFS: Double, truePeakDBTP: Double, gainDB: Double, limiterThresholdDB: Double?, resultLUFS: Double, resultTruePeakDBTP: Double
    ) {
        self.measuredLUFS = measuredLUFS
        self.truePeakDBTP = truePeakDBTP
        self.gainDB = gainDB
        self.limiterThresholdDB = limiterThresholdDB
        self.resultLUFS = resultLUFS
        self.resultTruePeakDBTP = resultTruePeakDBTP
    }
}
