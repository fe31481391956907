// SPDX-License-Identifier: MIT
import StylusConfig
import StylusCore
import StylusTOML

extension ConfigParserChild {
    /// A button's action as `[bindings]` and `[pens.NAME.bindings]` write it,
    /// or nil with the problem reported at `path` (the button's key).
    static func bindingAction(_ value: TOMLValue, _ path: String, report: (String, String) -> Void) -> Action? {
        guard let name = value.string else {
            report(path, "expected an action (a string), e.g. \"\(Action.Form.key.example)\"; use \(Action.spelledOut)")
            return nil
        }
        switch Action.parse(name) {
        case .success(let action): return action
        case .failure(let error):
            report(path, error.message)
            return nil
        }
    }
}
