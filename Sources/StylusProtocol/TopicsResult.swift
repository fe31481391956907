// SPDX-License-Identifier: MIT
/// `subscribe` and `unsubscribe`: the topics now subscribed.
public struct TopicsResult: Codable, Equatable, Sendable {
    /// Names, so that a client reads a newer daemon's answer; `known` has the typed ones.
    public var topics: [String]
    public init(topics: [String]) { self.topics = topics }
    public var known: [Topic] { topics.compactMap(Topic.init(rawValue:)) }
}
