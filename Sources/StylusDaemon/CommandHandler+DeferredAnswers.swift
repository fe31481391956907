// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusProtocol

/// The answers the loop sends once a helper is done: a reload, an output switch, the first probe.
extension CommandHandler {
    func reloadAnswer(id: JSONValue, _ outcome: Result<EngineConfig, ConfigError>) -> [UInt8] {
        switch outcome {
        case .success: return status(id, changed: true)
        case .failure(let error): return Response.failure(id: id, ProtocolError(code: .failed, message: "\(error); the running configuration is unchanged"))
        }
    }

    /// The answer to `output`: the status after the switch (`changed`
    /// false, with the reason, when that output already ran), or why the
    /// output asked for is not possible (the running one stays).
    func outputAnswer(id: JSONValue, _ outcome: Result<Bool, ProtocolError>) -> [UInt8] {
        switch outcome {
        case .success(true): return status(id, changed: true)
        case .success(false): return status(id, changed: false, reason: "output is already \(outputStatus().mode), requested \(outputStatus().requested)")
        case .failure(let error): return Response.failure(id: id, error)
        }
    }

    /// During a replay: the recorded devices, the recording as their node.
    /// The machine's own hardware is not the input then.
    func recordedDevices(_ path: String) -> DevicesResult {
        let nodes = engine.deviceIDs.compactMap { id in
            engine.deviceInfo(id).map { DevicesResult.Node(path: path, name: $0.name, kind: DevicesResult.Node.Kind(rawValue: $0.kind.rawValue) ?? .other) }
        }
        return DevicesResult(nodes: nodes, buttonOnlyReason: nodes.contains { $0.kind == .pen } ? nil : "\(path) has not brought its pen in yet")
    }

    func devicesAnswer(id: JSONValue) -> [UInt8] {
        guard let encodedDevices else {
            return Response.failure(id: id, ProtocolError(code: .failed, message: "the hardware probe did not finish; see the daemon's log"))
        }
        return Response.success(id: id, encodedResult: encodedDevices)
    }
}
