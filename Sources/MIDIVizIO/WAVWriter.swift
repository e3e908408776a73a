import Foundation

/// Writes 16-bit PCM stereo WAV data as it comes, then fixes the header's sizes on `finish`.
/// The corresponding C functions are `fopen`, `fwrite`, `fseek` and `fclose`.
package final class WAVWriter: SoundSink {
    /// The RIFF size fields are 32-bit: the data chunk can hold at most this many bytes.
    static let maximumDataBytes = Int(UInt32.max) - 36
    let path: String
    let sampleRate: Int
    private var file: UnsafeMutablePointer<FILE>?
    package private(set) var framesWritten = 0
    private var buffer: [Int16] = []

    package init(path: String, sampleRate: Int) throws(AudioError) {
        self.path = path
        self.sampleRate = sampleRate
        guard let file = fopen(path, "wb") else { throw .cannotWrite(path: path, reason: systemError()) }
        self.file = file
        try writeHeader(dataBytes: 0)
    }

    deinit { if let file { fclose(file) } }

    /// Converts float samples (−1…1) to 16 bits, rounding and clipping, with no dither:
    /// the same input always gives the same bytes.
    package func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        guard (framesWritten + count) * 4 <= Self.maximumDataBytes else {
            throw .tooLong(seconds: Double(framesWritten + count) / Double(sampleRate))
        }
        Self.interleave(left: left, right: right, count: count, into: &buffer)
        let written = buffer.withUnsafeBufferPointer { fwrite($0.baseAddress, 4, count, file) * 4 }
        guard written == count * 4 else { throw .cannotWrite(path: path, reason: systemError()) }
        framesWritten += count
    }

    /// `count` stereo frames as interleaved little-endian 16-bit samples at the start of `buffer`
    /// (grown if needed).
    static func interleave(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int, into buffer: inout [Int16]) {
        if buffer.count < count * 2 { buffer = [Int16](repeating: 0, count: count * 2) }
        buffer.withUnsafeMutableBufferPointer { samples in
            for index in 0..<count {
                samples[2 * index] = sample(left[index]).littleEndian
                samples[2 * index + 1] = sample(right[index]).littleEndian
            }
        }
    }

    @inline(__always)
    static func sample(_ value: Float) -> Int16 {
        // Clamp first (NaN becomes 0), then round half away from zero.
        let clamped = value.isNaN ? 0 : max(-1, min(1, value)) * 32767
        return Int16(clamped < 0 ? clamped - 0.5 : clamped + 0.5)
    }

    package func finish() throws(AudioError) {
        guard fseek(file, 0, SEEK_SET) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
        try writeHeader(dataBytes: framesWritten * 4)
        let status = fclose(file)
        file = nil
        guard status == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
    }

    private func writeHeader(dataBytes: Int) throws(AudioError) {
        var header: [UInt8] = []
        func append32(_ value: Int) { for shift in [0, 8, 16, 24] { header.append(UInt8((value >> shift) & 0xFF)) } }
        func append16(_ value: Int) { header.append(UInt8(value & 0xFF)); header.append(UInt8((value >> 8) & 0xFF)) }
        header += Array("RIFF".utf8); append32(36 + dataBytes); header += Array("WAVEfmt ".utf8)
        append32(16); append16(1); append16(2); append32(sampleRate); append32(sampleRate * 4); append16(4); append16(16)
        header += Array("data".utf8); append32(dataBytes)
        let written = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == header.count else { throw .cannotWrite(path: path, reason: systemError()) }
    }
}
