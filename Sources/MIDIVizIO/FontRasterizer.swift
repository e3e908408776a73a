import CFreeType
import MIDIVizCore

/// Rasterizes a font's Latin-1 glyphs into coverage masks with FreeType, once, before any frame
/// is drawn. Owns an `FT_Library` and an `FT_Face`, freed in `deinit`.
package final class FontRasterizer {
    /// DejaVu Sans from Debian's fonts-dejavu-core.
    package static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    package struct FontError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot load font \(path): \(reason)" }
    }

    private var library: FT_Library?
    private var face: FT_Face?

    /// The corresponding C functions are `FT_Init_FreeType` and `FT_New_Face`.
    package init(path: String = FontRasterizer.defaultFontPath) throws(FontError) {
        if let problem = RegularFile.problem(at: path) { throw FontError(path: path, reason: problem) }
        guard FT_Init_FreeType(&library) == 0 else { throw FontError(path: path, reason: "FreeType did not start") }
        let status = FT_New_Face(library, path, 0, &face)
        guard status == 0, face != nil else {
            // deinit runs for this failed init too: leave nothing for it to free twice.
            FT_Done_FreeType(library)
            library = nil
            face = nil
            let reason = status == 1 ? "no such file" : (status == 2 ? "not a font FreeType can read" : "FreeType error \(status)")
            throw FontError(path: path, reason: reason)
        }
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyphs for Latin-1 at `pixelSize`, and for the code points of `extra` the font has.
    /// The corresponding C functions are `FT_Set_Pixel_Sizes`, `FT_Get_Char_Index` and
    /// `FT_Load_Char` with `FT_LOAD_RENDER`.
    package func glyphSet(pixelSize: Int, extra: Set<UInt32> = []) -> GlyphSet {
        guard let face else { return .empty(pixelSize: pixelSize) }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        var glyphs = [Glyph?](repeating: nil, count: 256)
        for code in 32..<256 where code < 127 || code >= 160 { glyphs[code] = glyph(UInt32(code)) }
        var extraGlyphs: [UInt32: Glyph] = [:]
        for code in extra where code >= 256 && FT_Get_Char_Index(face, FT_ULong(code)) != 0 { extraGlyphs[code] = glyph(code) }
        let metrics = face.pointee.size.pointee.metrics
        return GlyphSet(
            pixelSize: pixelSize, ascender: Float(metrics.ascender) / 64,
            descender: Float(-metrics.descender) / 64, glyphs: glyphs, extraGlyphs: extraGlyphs)
    }

    /// One code point's glyph at the face's current size.
    private func glyph(_ code: UInt32) -> Glyph? {
        guard let face, FT_Load_Char(face, FT_ULong(code), FT_Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer, width > 0, height > 0 {
            for row in 0..<height {
                for column in 0..<width { coverage[row * width + column] = buffer[row * pitch + column] }
            }
        }
        return Glyph(
            width: width, height: height, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Float(slot.pointee.advance.x) / 64, coverage: coverage)
    }

    /// Glyph sets for every `TextSize` on a canvas whose shorter side is `canvasSide` pixels;
    /// those of `Scene.textSizesBeyondLatin1` also hold the `extra` code points beyond Latin-1
    /// where the font has them.
    package func textFonts(canvasSide: Int, extra: Set<UInt32> = []) -> TextFonts {
        TextFonts(
            sets: TextSize.allCases.map { size in
                glyphSet(pixelSize: size.pixelSize(canvasSide: canvasSide), extra: Scene.textSizesBeyondLatin1.contains(size) ? extra : [])
            })
    }
}

@available(*, unavailable)
extension FontRasterizer: Sendable {}
