// SPDX-License-Identifier: MIT
extension Action {
    /// One line per form, its example then what it does, for `--help`; wrapped to 78 columns with the summary's column kept:
    /// the help's own wrapping would start a long summary's second line at column 0.
    public static var helpTable: String {
        let width = Form.allCases.map(\.example.count).max()! + 2
        let room = 78 - 2 - width
        let indent = String(repeating: " ", count: 2 + width)
        return Form.allCases.map { form in
            var lines = [""]
            for word in form.summary.split(separator: " ") {
                if lines[lines.count - 1].isEmpty {
                    lines[lines.count - 1] = String(word)
                } else if lines[lines.count - 1].count + 1 + word.count <= room {
                    lines[lines.count - 1] += " " + word
                } else {
                    lines.append(String(word))
                }
            }
            let first = "  " + form.example + String(repeating: " ", count: width - form.example.count) + lines[0]
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// "toggle-canvas, toggle-precision, undo, …, click:BUTTON or none", as help and errors list them.
    public static var spelledOut: String {
        let names = Form.allCases.map(\.spelling)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
