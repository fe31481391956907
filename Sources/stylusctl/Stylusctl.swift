import ArgumentParser

@main
struct Stylusctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stylusctl",
        abstract: "Control and watch a running stylusd.",
        discussion: """
            stylusd's socket API is not built yet, so stylusctl has no commands to send. \
            It exits with status 69 (EX_UNAVAILABLE) rather than pretend.
            """,
        version: "0.1.0"
    )

    func run() throws {
        print("stylusctl: the stylusd socket API does not exist yet; nothing to connect to.")
        throw ExitCode(69)
    }
}
