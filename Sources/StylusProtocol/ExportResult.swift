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

    enum CodingKeys: String, CodingKey {
        case path, format, width, height, strokeCount = "stroke_count", hasContent = "has_content"
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
