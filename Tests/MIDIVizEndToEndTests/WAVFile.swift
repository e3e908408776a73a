import Foundation

/// A 16-bit PCM WAV read for checks: format fields and samples per channel.
struct WAVFile {
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// The RIFF and data sizes the header declares, to check against the file.
    var riffSize: Int
    var dataSize: Int
    var fileSize: Int
    var samples: [[Float]]

    var frameCount: Int { samples.first?.count ?? 0 }
    var seconds: Double { Double(frameCount) / Double(sampleRate) }

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 44, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        fileSize = bytes.count
        riffSize = u32(4)
        var position = 12
        var format: (channels: Int, rate: Int, bits: Int)?
        var data: Range<Int>?
        while position + 8 <= bytes.count {
            let size = u32(position + 4)
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            if id == "fmt " { format = (u16(position + 10), u32(position + 12), u16(position + 22)) }
            if id == "data" { data = (position + 8)..<min(bytes.count, position + 8 + size); dataSize = size }
            position += 8 + size + (size & 1)
        }
        guard let format, let data else { throw CocoaError(.fileReadCorruptFile) }
        dataSize = data.count
        sampleRate = format.rate
        channels = format.channels
        bitsPerSample = format.bits
        samples = Array(repeating: [], count: channels)
        let frames = data.count / (2 * channels)
        for channel in 0..<channels { samples[channel].reserveCapacity(frames) }
        for frame in 0..<frames {
            for channel in 0..<channels {
                let at = data.lowerBound + (frame * channels + channel) * 2
                samples[channel].append(Float(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)) / 32768)
            }
        }
    }

    /// RMS in consecutive windows of `window` frames, from frame `offset`, for `count` windows.
    func envelope(channel: Int, window: Int, offset: Int, count: Int) -> [Double] {
        (0..<count).map { index in
            let start = offset + index * window
            var sum = 0.0
            for frame in start..<start + window { sum += Double(samples[channel][frame] * samples[channel][frame]) }
            return (sum / Double(window)).squareRoot()
        }
    }

    /// The peak absolute sample of all channels.
    var peak: Float { samples.map { $0.map(abs).max() ?? 0 }.max() ?? 0 }
}

/// Pearson correlation of two equally long series.
func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
    var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
    for (x, y) in zip(a, b) {
        covariance += (x - meanA) * (y - meanB)
        varianceA += (x - meanA) * (x - meanA)
        varianceB += (y - meanB) * (y - meanB)
    }
    return covariance / (varianceA * varianceB).squareRoot()
}
