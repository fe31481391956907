// SPDX-License-Identifier: MIT
import CanvasModel
import FoundationEssentials
import StylusCore
import StylusProtocol
import StylusSystem
#if canImport(Glibc)
import Glibc
#endif

/// `export` and `submit`: the drawing written to a file by a helper process
/// whose pipe sits in the poll set, so that neither drawing a big canvas nor
/// a slow disk ever stops the loop. The loop only checks the request and
/// copies the strokes into the helper's input.
///
/// A PNG is drawn by the canvas's own renderer, `stylus-canvas --render-png`
/// (cairo and the canvas's `InkLayers`: the picture is what the screen
/// shows); the daemon links neither cairo nor a toolkit. An SVG is written by
/// this program itself (`stylusd render-svg-child`, CanvasModel's
/// `SVGDrawing`, the writer `stylusctl strokes --svg` uses), so SVG works
/// where stylus-canvas is not installed. One helper runs at a time; the
/// others wait in order, each with the strokes of the moment it was asked,
/// as `StrokeRecords` (a copy of the points, where JSON held the loop for a
/// quarter of a second at 100 000 points).
public final class Exporter {
    /// A helper that has not finished by then is stopped and its request answered with the reason.
    static let timeout: Int64 = 20_000_000
    /// Below the loop in CPU priority, as the probe is.
    static let niceness: Int32 = 10
    /// The hidden first argument of this program that runs the SVG helper.
    public static let svgChildCommand = "render-svg-child"
    /// The renderer's program, as installed beside the daemon or on PATH.
    static let rendererName = "stylus-canvas"
    /// Names the renderer's program, over the places it is looked for.
    static let rendererVariable = "STYLUSD_RENDERER"

    /// Where a file goes and how big it is.
    struct Target: Equatable {
        var path: String
        var format: ExportFormat
        var width: Int
        var height: Int
    }

    /// Who waits for the answer: a client's request, or nobody (a double press's `submit`,
    /// whose pen or pad is the source of the canvas events that end the drawing).
    struct Waiter {
        var client: ClientConnection?
        var id: JSONValue
        var source: ChangeSource = .command
    }

    struct Job {
        var target: Target
        /// A `submit`: once written, the engine ends the drawing.
        var submit: Bool
        var waiter: Waiter
        var input: [UInt8]
        var strokeCount: Int
        var hasContent: Bool
        /// The points the picture holds: a submit whose drawing changed meanwhile writes it again.
        var pointCount: Int = 0
        /// The board the picture is drawn on (the canvas's, when the job was queued).
        var background: CanvasBackground = .none
        /// An inline `submit`: the file is read back into the answer, then removed.
        var inline = false
    }

    let environment: [String: String]
    /// This program, run as the SVG helper.
    private let svgWriter: String
    private let log: (String) -> Void
    private var running: (job: Job, child: ChildProcess, startedAt: Int64)?
    private var queue: [Job] = []

    init(environment: [String: String], svgWriter: String, log: @escaping (String) -> Void) {
        self.environment = environment
        self.svgWriter = svgWriter
        self.log = log
    }

    var fd: Int32? { running?.child.fd }
    var deadline: Int64? { running.map { $0.startedAt + Self.timeout } }
    /// Whether a running or queued job will write `path`: two submits in one second get two names.
    func isWriting(_ path: String) -> Bool { running?.job.target.path == path || queue.contains { $0.target.path == path } }

    // MARK: Checking a request, in the loop

    /// The size of the area the tablet maps to, as a picture: 1600 pixels
    /// wide (the width strokes' widths are given at) and as high as the
    /// first pen's active area is at that width; 1600 × 900 when no pen
    /// tells its size.
    static func defaultSize(pens: [PenArea]) -> (width: Int, height: Int) {
        let width = Int(InkGeometry.referenceWidth)
        for area in pens {
            if let w = area.widthMM, let h = area.heightMM, w > 0, h > 0 {
                return (width, min(max(Int((Double(width) * h / w).rounded()), 1), ExportFormat.sideRange.upperBound))
            }
        }
        return (width, 900)
    }

    /// A canvas's area as a picture: as it is, or scaled down to fit the
    /// largest side an export allows (a wall of monitors), keeping its proportions.
    static func fitted(width: Int, height: Int) -> (width: Int, height: Int) {
        let limit = ExportFormat.sideRange.upperBound
        guard width > limit || height > limit else { return (max(width, 1), max(height, 1)) }
        let scale = Double(limit) / Double(max(width, height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The target for `path`, or why it cannot be written: its folder must
    /// exist, be a folder and be writable, and the path must not be a folder.
    static func target(path: String, width: Int, height: Int) -> Result<Target, ProtocolError> {
        guard let format = ExportFormat(path: path) else {
            return .failure(ProtocolError(code: .badRequest, message: "cannot tell the format of \"\(path)\": export writes a file ending in .png or .svg"))
        }
        for side in [width, height] where !ExportFormat.sideRange.contains(side) {
            return .failure(ProtocolError(code: .badRequest, message: "cannot export \(width)×\(height) pixels: each side must be from \(ExportFormat.sideRange.lowerBound) to \(ExportFormat.sideRange.upperBound)"))
        }
        let folder = directory(of: path)
        var info = stat()
        if stat(folder, &info) != 0 {
            return .failure(ProtocolError(code: .badRequest, message: "cannot export to \(path): the folder \(folder) \(errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))")"))
        }
        if info.st_mode & S_IFMT != S_IFDIR {
            return .failure(ProtocolError(code: .badRequest, message: "cannot export to \(path): \(folder) is not a folder"))
        }
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return .failure(ProtocolError(code: .badRequest, message: "cannot export to \(path): it is a folder; name a file ending in .\(format.rawValue)"))
        }
        // A file made and removed, not access(2): root passes access on a folder it still cannot write (sysfs, a read-only mount's permissions).
        let probe = temporaryPath(for: path)
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0, errno != EEXIST {
            let reason = switch errno {
            case EROFS: "is on a read-only file system"
            // The folder was there a moment ago (stat said so): a file system that makes no new files, as /proc.
            case ENOENT: "takes no new files (a kernel file system such as /proc)"
            default: "cannot be written (\(String(cString: strerror(errno))))"
            }
            return .failure(ProtocolError(code: .badRequest, message: "cannot export to \(path): the folder \(folder) \(reason)"))
        }
        if fd >= 0 {
            close(fd)
            unlink(probe)
        }
        return .success(Target(path: path, format: format, width: width, height: height))
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    // MARK: The renderer

    /// The renderer's program, or why there is none: `$STYLUSD_RENDERER`,
    /// else stylus-canvas beside this program, else on PATH.
    func findRenderer() -> Result<String, ProtocolError> {
        if let named = environment[Self.rendererVariable], !named.isEmpty {
            if access(named, X_OK) == 0 { return .success(named) }
            return .failure(ProtocolError(code: .failed, message: "PNG export needs the canvas renderer, and \(Self.rendererVariable)=\(named) in stylusd's environment is not a program that can be run (\(String(cString: strerror(errno)))); SVG export works without it"))
        }
        var places: [String] = []
        if let me = ChildProcess.runningProgram { places.append(Self.directory(of: me) + "/" + Self.rendererName) }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin").split(separator: ":") where folder.hasPrefix("/") {
            places.append("\(folder)/\(Self.rendererName)")
        }
        if let found = places.first(where: { access($0, X_OK) == 0 }) { return .success(found) }
        return .failure(ProtocolError(code: .failed, message: "PNG export needs the canvas renderer \(Self.rendererName), which is not installed: not beside stylusd, not on stylusd's PATH, and \(Self.rendererVariable) is not set in stylusd's environment (install it with `make install-overlay`; an export to a file ending in .svg needs no renderer)"))
    }

    // MARK: Running the helpers

    /// Queues the drawing to be written to `target`; starts at once when no helper runs.
    /// An error when the helper cannot be found or started (nothing is queued then).
    func start(_ target: Target, canvas: Canvas, submit: Bool, inline: Bool = false, waiter: Waiter, now: Int64) -> ProtocolError? {
        if target.format == .png, case .failure(let error) = findRenderer() { return error }
        let input = StrokeRecords.encode(canvas.strokes)
        queue.append(Job(target: target, submit: submit, waiter: waiter, input: input, strokeCount: canvas.strokes.count,
                         hasContent: canvas.hasContent, pointCount: canvas.pointCount, background: canvas.background, inline: inline))
        if running == nil, let failed = startNext(now: now).first {
            return failed.outcome.failure
        }
        return nil
    }

    /// Starts queued jobs until one runs; those that cannot start come back with why.
    private func startNext(now: Int64) -> [(job: Job, outcome: Result<ExportResult, ProtocolError>)] {
        var failed: [(Job, Result<ExportResult, ProtocolError>)] = []
        while running == nil, !queue.isEmpty {
            let job = queue.removeFirst()
            let size = "\(job.target.width)x\(job.target.height)"
            let program: String, arguments: [String]
            switch job.target.format {
            case .png:
                switch findRenderer() {
                case .success(let renderer):
                    program = renderer
                    // Only with a board: a renderer from before boards still writes plain ink.
                    arguments = [renderer, "--render-png", job.target.path, "--size", size]
                        + (job.background == .none ? [] : ["--background", job.background.name])
                case .failure(let error):
                    failed.append((job, .failure(error)))
                    continue
                }
            case .svg:
                program = svgWriter
                arguments = [ChildProcess.runningProgram ?? "stylusd", Self.svgChildCommand, job.target.path, size]
                    + (job.background == .none ? [] : [job.background.name])
            }
            do {
                let child = try ChildProcess(executable: program, arguments: arguments, input: job.input, niceness: Self.niceness, maxOutputBytes: 64 * 1024)
                running = (job, child, now)
            } catch {
                failed.append((job, .failure(ProtocolError(code: .failed, message: "cannot start \(program) to write \(job.target.path): \(error)"))))
            }
        }
        return failed
    }

    /// Reads the running helper; once it has ended, its job and how it went,
    /// and any queued job that could not start after it.
    func readable(now: Int64) -> [(job: Job, outcome: Result<ExportResult, ProtocolError>)] {
        guard let (job, child, _) = running, child.readAvailable() else { return [] }
        running = nil
        let ending = child.wait()
        let said = String(String(decoding: child.output, as: UTF8.self).split(separator: "\n").first ?? "")
        let outcome: Result<ExportResult, ProtocolError>
        if ending == .exited(0) {
            let t = job.target
            outcome = .success(ExportResult(path: t.path, format: t.format.rawValue, width: t.width, height: t.height,
                                            strokeCount: job.strokeCount, hasContent: job.hasContent))
        } else {
            let program = job.target.format == .png ? Self.rendererName : "stylusd \(Self.svgChildCommand)"
            outcome = .failure(ProtocolError(code: .failed, message: said.isEmpty ? "\(program) could not write \(job.target.path): \(ending)" : said))
        }
        if case .failure(let error) = outcome { log("\(job.submit ? "submit" : "export") failed, the drawing is unchanged: \(error.message)") }
        return [(job, outcome)] + startNext(now: now)
    }

    /// Stops a helper past its deadline; its job comes back failed.
    func timeOut(now: Int64) -> [(job: Job, outcome: Result<ExportResult, ProtocolError>)] {
        guard let (job, child, startedAt) = running, startedAt + Self.timeout <= now else { return [] }
        _ = child.stop()
        running = nil
        unlinkLeftovers(job.target.path)
        let error = ProtocolError(code: .failed, message: "writing \(job.target.path) did not finish within \(Self.timeout / 1_000_000) s and was stopped; the drawing is unchanged")
        log("\(job.submit ? "submit" : "export") failed: \(error.message)")
        return [(job, .failure(error))] + startNext(now: now)
    }

    /// A helper killed half way leaves its temporary file (the target itself is only ever renamed into place).
    private func unlinkLeftovers(_ path: String) {
        unlink(Self.temporaryPath(for: path))
    }

    /// The file a helper writes before renaming it over `path`: a crash or a
    /// full disk never leaves half a picture under the name asked for.
    static func temporaryPath(for path: String) -> String {
        let folder = directory(of: path)
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        return "\(folder)/.\(name).stylusd-partial"
    }
}
