// SPDX-License-Identifier: MIT

extension Result {
    /// The error of a failure, nil for a success: for a `guard`/`if let` on one outcome.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
