// SPDX-License-Identifier: MIT
import ArgumentParser
import StylusCore
import StylusProtocol
import Testing
@testable import stylusctl

/// Every form a binding's `tool:`, `color:` or `width:` takes, stylusctl's
/// `tool` takes and asks the same; and what either refuses, both refuse.
@Suite("stylusctl tool takes what bindings take")
struct StyleParityTests {
    /// The command line that gives `text` to the part `argument` is.
    static func arguments(_ argument: StyleArgument, _ text: String) -> [String] {
        switch argument {
        case .tool: [text]
        case .color: ["--color", text]
        case .width: ["--width", text]
        }
    }

    enum Outcome: Equatable {
        case success(StyleRequest?)
        case failure(String)

        var failureMessage: String? { if case .failure(let m) = self { m } else { nil } }
    }

    /// The request stylusctl makes of that command line, or its refusal.
    static func cli(_ arguments: [String]) -> Outcome {
        do {
            let command = try ToolCommand.parse(arguments)
            return .success(try command.request)
        } catch {
            return .failure(ToolCommand.message(for: error))
        }
    }

    static let table: [(StyleArgument, String)] = StyleArgument.allCases.flatMap { a in a.examples.map { (a, $0) } }

    @Test(arguments: table)
    func everyFormABindingTakesTheCommandLineTakesAlike(argument: StyleArgument, text: String) throws {
        let action = Action.parse("\(argument.rawValue):\(text)")
        guard case .success(.style(let request)) = action else {
            Issue.record("the binding \(argument.rawValue):\(text) is refused: \(action)")
            return
        }
        #expect(Self.cli(Self.arguments(argument, text)) == .success(request), "stylusctl tool \(Self.arguments(argument, text))")
    }

    @Test func theTableHoldsEveryStepToolAndColourName() {
        let words = Set(Self.table.map { "\($0.0.rawValue):\($0.1)" })
        for form in [Action.Form.tool, .color, .width] {
            for word in form.completions where !word.hasSuffix("#") { #expect(words.contains(word), "\(word)") }
        }
        #expect(words.isSuperset(of: ["tool:previous", "color:next", "color:previous", "width:+", "width:-", "color:crimson", "color:#fff"]))
    }

    @Test(arguments: [(StyleArgument.tool, "brush"), (.tool, "next"), (.tool, "Pen"), (.color, "crimsn"), (.color, "transparent"),
                      (.color, "#12345"), (.color, ""), (.width, "0"), (.width, "65"), (.width, "-3"), (.width, "inf"), (.width, "nan"),
                      (.width, "++"), (.width, "wider")])
    func whatABindingRefusesTheCommandLineRefusesWithTheSameReason(argument: StyleArgument, text: String) {
        guard case .failure(let error) = Action.parse("\(argument.rawValue):\(text)") else {
            Issue.record("the binding \(argument.rawValue):\(text) is taken")
            return
        }
        guard case .failure(let message) = Self.cli(Self.arguments(argument, text)) else {
            Issue.record("stylusctl tool took \(Self.arguments(argument, text))")
            return
        }
        #expect(message.hasSuffix(error.message), "\(message) | \(error.message)")
    }

    @Test func theCommandLineRefusesASuggestingColourAndAStepWithOthers() {
        #expect(Self.cli(["--color", "crimsn"]) == .failure("--color: unknown colour \"crimsn\"; did you mean crimson?"))
        #expect(Self.cli(["pen", "--color", "next"]) == .failure("--color next is a step from the current style; give it alone, as a binding does"))
        #expect(Self.cli(["previous", "--width", "8"]) == .failure("tool previous is a step from the current style; give it alone, as a binding does"))
        #expect(Self.cli(["highlighter", "--color", "Gold", "--width", "12"])
                == .success(.set(tool: .highlighter, color: StrokeColor(hex: "#ffd700")!, width: 12)))
        #expect(Self.cli([]) == .success(nil), "no argument: the style, unchanged")
        #expect(Self.cli(["--width", "-3"]).failureMessage?.contains("1 to 64") == true)
        #expect(Self.cli(["--width", "1e300"]).failureMessage?.hasSuffix("not 1e+300") == true)
    }

    @Test func paletteAloneTogglesAsThePaletteActionDoes() throws {
        #expect(try PaletteCommand.parse([]).action == PaletteRequest.toggle.rawValue)
        #expect(try PaletteCommand.parse(["show"]).action == "show")
        #expect(throws: (any Error).self) { try PaletteCommand.parse(["shwo"]) }
        #expect(Action.parse("palette") == .success(.palette))
    }
}
