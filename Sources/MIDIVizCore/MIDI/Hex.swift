/// `0x4F`-style text for bytes and words in messages.
func hex<T: BinaryInteger>(_ value: T, digits: Int = 2) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}
