// SPDX-License-Identifier: MIT
extension Action: RawRepresentable, Codable {
    /// The action as it is written, in its canonical spelling ("key:LEFTCTRL+Z" for "key:ctrl+z").
    public var rawValue: String {
        switch self {
        case .preset(let name): "preset:\(name)"
        case .exec(let command): "exec:\(command)"
        case .key(let chord): "key:\(chord)"
        case .click(let button): "click:\(button.rawValue)"
        case .style(.set(let tool?, nil, nil)): "tool:\(tool.rawValue)"
        case .style(.set(nil, let color?, nil)): "color:\(color.hex)"
        case .style(.set(nil, nil, let width?)): "width:\(StyleRequest.describe(width))"
        case .style(.set(let tool, let color, let width)):
            // Not an action anyone writes (the `tool` command's request): spelled for logs.
            "tool:\(tool?.rawValue ?? "-"),color:\(color?.hex ?? "-"),width:\(width.map(StyleRequest.describe) ?? "-")"
        case .style(.previousTool): "tool:previous"
        case .style(.nextColor): "color:next"
        case .style(.previousColor): "color:previous"
        case .style(.paletteColor(let place)): "color:\(place)"
        case .style(.wider): "width:+"
        case .style(.narrower): "width:-"
        case .background(let request): "background:\(request.name)"
        case .copy(snapshot: true): "copy:snapshot"
        default: form.rawValue
        }
    }

    public init?(rawValue: String) {
        guard case .success(let action) = Action.parse(rawValue) else { return nil }
        self = action
    }
}

extension Action: CustomStringConvertible {
    public var description: String { rawValue }
}
