import Foundation

extension RenderOptions {
    /// A path as written in a file (a config file, a manifest) in `folder`: relative ones are
    /// from that folder; an empty or absolute path is left as it is.
    package static func resolvePath(_ path: String, from folder: String) -> String {
        path.isEmpty || path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).path
    }

    /// These options with every file (the options declared `isPath`) made absolute from `folder`.
    package func resolvingPaths(from folder: String) -> RenderOptions {
        var options = self
        for declaration in Self.declarations where declaration.isPath {
            let texts = declaration.texts(of: self)
            guard !texts.isEmpty else { continue }
            // A path takes any text: setting one back cannot fail.
            try? declaration.set(texts, in: &options, pathsFrom: folder)
        }
        return options
    }

    /// The options that shape an output (`OptionDeclaration.shapesOutput`), by declared name,
    /// as texts `OptionDeclaration.set` reads back; files as absolute paths from the working
    /// folder. With `changedOnly`, only those that differ from the defaults.
    package func shapingTexts(changedOnly: Bool = false) -> [String: [String]] {
        let resolved = resolvingPaths(from: FileManager.default.currentDirectoryPath)
        var texts: [String: [String]] = [:]
        for declaration in Self.declarations where declaration.shapesOutput {
            if changedOnly && declaration.isDefault(in: self) { continue }
            texts[declaration.name] = declaration.texts(of: resolved)
        }
        return texts
    }
}
