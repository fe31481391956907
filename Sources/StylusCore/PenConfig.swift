// SPDX-License-Identifier: MIT
/// `[pens.NAME]`: which tools the table names (by serial and/or tool id, or
/// by device and type for a pen without a serial) and the style keys where
/// each start begins for them, as `[canvas]` is for the shared style.
public struct PenConfig: Equatable, Sendable, Codable {
    public var name: String
    public var serial: UInt64?
    public var toolID: UInt64?
    public var device: String?
    public var type: ToolType?
    public var style: ConfiguredStyle
    /// `curve`: this pen's pressure as it shapes ink width and precision mode (nil: as the pen reports it).
    public var curve: PressureCurve?
    /// `[pens.NAME.bindings]`: actions of this pen's side buttons, by evdev name, over `[bindings]`.
    public var bindings: [String: Action] = [:]

    public init(name: String, serial: UInt64? = nil, toolID: UInt64? = nil, device: String? = nil, type: ToolType? = nil,
                style: ConfiguredStyle = ConfiguredStyle(), curve: PressureCurve? = nil, bindings: [String: Action] = [:]) {
        self.name = name
        self.serial = serial
        self.toolID = toolID
        self.device = device
        self.type = type
        self.style = style
        self.curve = curve
        self.bindings = bindings
    }

    /// What a double press of `button` does with this pen: its own binding, else nil ([bindings]'s).
    public func binding(for button: SideButton) -> Action? { bindings[button.evdevName] }

    /// Every key the table sets says the same of the tool. A table naming a
    /// serial without a type names both ends of that pen.
    public func matches(_ id: PenToolID, toolID: UInt64) -> Bool {
        (serial == nil || serial == id.serial) && (self.toolID == nil || self.toolID == toolID)
            && (device == nil || device == id.device) && (type == nil || type == id.type)
    }

    /// The name a matching tool gets: the eraser end of a pen named without a type is "NAME eraser".
    func name(of id: PenToolID) -> String {
        type == nil && id.type == .eraser ? "\(name) eraser" : name
    }

    /// The style keys for this tool: the eraser end keeps erasing unless the table is the eraser end's own.
    func style(of id: PenToolID) -> ConfiguredStyle {
        var keys = style
        if id.type == .eraser, type != .eraser { keys.tool = nil }
        return keys
    }
}

extension ToolType: Codable {}

extension EngineConfig {
    /// The `[pens.NAME]` table that names this tool (`toolID` the one last
    /// seen with it): the first, by name, that matches.
    public func penConfig(for id: PenToolID, toolID: UInt64) -> PenConfig? {
        pens.first { $0.matches(id, toolID: toolID) }
    }

    /// Every `[pens.NAME.bindings]` entry, by pen name then button, as `status` lists them.
    public var penBindings: [(pen: String, button: String, action: Action)] {
        pens.flatMap { pen in pen.bindings.sorted { $0.key < $1.key }.map { (pen: pen.name, button: $0.key, action: $0.value) } }
    }

    public func penConfig(for tool: PenTool) -> PenConfig? { penConfig(for: tool.id, toolID: tool.toolID) }
}
