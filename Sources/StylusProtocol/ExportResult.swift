// SPDX-License-Identifier: MIT
/// `export` and `submit`: the file written.
public struct ExportResult: Codable, Equatable, Sendable {
    public var path: String
    /// `png` or `svg`.
    public var format: String
    public var width: Int
    public var height: Int
    /// The strokes drawn into it (eraser strokes included).
    public var strokeCount: Int
    /// Whether the drawing had ink (`Canvas.hasContent`): false, the picture is blank.
    public var hasContent: Bool
    /// An inline `submit`'s PNG as base64; `path` is empty then (no file was kept).
    public var pngBase64: String?

    enum CodingKeys: String, CodingKey {
        case path, format, width, height, strokeCount = "stroke_count", hasContent = "has_content", pngBase64 = "png_base64"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodeIfPresent(String.self, forKey: .path) ?? ""
        format = try c.decode(String.self, forKey: .format)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        strokeCount = try c.decode(Int.self, forKey: .strokeCount)
        hasContent = try c.decode(Bool.self, forKey: .hasContent)
        pngBase64 = try c.decodeIfPresent(String.self, forKey: .pngBase64)
    }

    /// Inline, no `path`: the picture is in `png_base64` and no file is left.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if pngBase64 == nil { try c.encode(path, forKey: .path) }
        try c.encode(format, forKey: .format)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(strokeCount, forKey: .strokeCount)
        try c.encode(hasContent, forKey: .hasContent)
        try c.encodeIfPresent(pngBase64, forKey: .pngBase64)
    }

    public init(path: String, format: String, width: Int, height: Int, strokeCount: Int, hasContent: Bool) {
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.strokeCount = strokeCount
        self.hasContent = hasContent
    }
}
