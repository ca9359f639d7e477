import ArgumentParser
import Foundation
import LifeSimEngine
import LifeSimPictures

extension DiagramMachine: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument) }
  public static var allValueStrings: [String] { allCases.map(\.name) }
}
extension DiagramFormat: ExpressibleByArgument {}

/// `--layout` of `lifesim diagram`: who places an SVG's states and edges.
enum DiagramLayout: String, CaseIterable, ExpressibleByArgument {
  /// Graphviz's dot where it is installed, else the built-in layout.
  case auto
  /// Graphviz's dot (an error when it is not installed).
  case graphviz
  /// lifesim's own arc layout: no Graphviz needed.
  case builtin
}

/// `--model app|scene` of `lifesim diagram`.
enum DiagramModel: String, CaseIterable, ExpressibleByArgument {
  case app, scene
  var lifecycleModel: LifecycleModel { self == .app ? .appDelegate : .scene }
}

extension Lifesim {
  /// `lifesim diagram`: a state machine drawn from the engine's own tables.
  struct Diagram: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw a state machine from the engine's transition tables: SVG, Graphviz dot or Mermaid.",
      discussion: """
        The states, and each edge labelled with its event and the callbacks it \
        delivers on the iOS version asked; silent edges (suspension, kills, a \
        scene detached with its process) are dashed. An SVG is laid out by \
        Graphviz's dot where it is installed (Debian: apt-get install graphviz), \
        from the dot text --format dot prints; without it, by lifesim's own \
        layout (--layout builtin asks for that one).
        """
    )

    @Option(help: "The iOS version whose callbacks label the edges.")
    var ios: Int = 17

    @Option(help: "The process machine's lifecycle model: app (delegate) or scene (default: the version's).")
    var model: DiagramModel?

    @Option(help: ArgumentHelp("The machine: \(DiagramMachine.listed).", valueName: "machine"))
    var machine: DiagramMachine = .process

    @Option(help: "The output: svg, dot or mermaid.")
    var format: DiagramFormat = .svg

    @Option(help: "Who lays out an SVG: auto (Graphviz's dot if installed, else builtin), graphviz or builtin.")
    var layout: DiagramLayout = .auto

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
      if model != nil && machine != .process {
        throw ValidationError("--model applies to --machine process only")
      }
    }

    func run() throws {
      let diagram: StateDiagram
      do {
        diagram = try StateDiagram.make(machine: machine, ios: ios, model: model?.lifecycleModel)
      } catch let e as DiagramError {
        throw ValidationError(e.description)
      }
      var text = diagram.render(format)
      if format == .svg, layout != .builtin {
        if let dot = findExecutable("dot") {
          // Two layouts: the first says where the states are, so that the
          // second can bring each edge into its target from its own side.
          let ports = diagram.spreadHeads(plain: try graphviz(dot, diagram.dot(), format: "plain"))
          text = try graphviz(dot, diagram.dot(headports: ports))
        } else if layout == .graphviz {
          throw CommandFailure.badInput("--layout graphviz: no dot on PATH (Debian: apt-get install graphviz; or --layout builtin)")
        }
      }
      if let output { try writeTextFile(output, text) } else { writeOut(text) }
    }
  }
}

/// The first `name` on PATH that can be run, or nil.
func findExecutable(_ name: String) -> String? {
  for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let path = "\(dir)/\(name)"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}

/// `dot -T<format>` on `source`: its output (an SVG's size in pixels), or an
/// error with what dot said.
func graphviz(_ dot: String, _ source: String, format: String = "svg") throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: dot)
  process.arguments = ["-T" + format]
  let input = Pipe(), output = Pipe(), errors = Pipe()
  process.standardInput = input
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  // A dot that hangs is stopped, and said so: a picture is never worth waiting for ever.
  let stopped = ManagedAtomicFlag()
  let pid = process.processIdentifier
  DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(graphvizTimeLimit)) {
    if process.isRunning {
      stopped.set()
      kill(pid, SIGKILL)
    }
  }
  // dot reads all of its input before it writes: the pipes cannot both fill.
  // A dot that exits without reading it must not end lifesim by SIGPIPE.
  let previous = signal(SIGPIPE, SIG_IGN)
  let wrote = Result { try input.fileHandleForWriting.write(contentsOf: Data(source.utf8)) }
  try? input.fileHandleForWriting.close()
  signal(SIGPIPE, previous)
  let svg = output.fileHandleForReading.readDataToEndOfFile()
  let said = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  if stopped.isSet {
    throw CommandFailure.badInput("\(dot) -T\(format) did not finish within \(graphvizTimeLimit) s and was stopped; "
                                  + "--layout builtin draws without Graphviz")
  }
  guard process.terminationStatus == 0, !svg.isEmpty, case .success = wrote else {
    let message = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    throw CommandFailure.badInput("\(dot) -T\(format) failed (status \(process.terminationStatus)): \(message)")
  }
  // dot sizes the picture in points (its viewBox is in points too): given in
  // pixels, it shows at the size of lifesim's other pictures, its 14-point
  // state names as 14 pixels.
  var text = String(decoding: svg, as: UTF8.self)
  for attribute in ["width", "height"] {
    if let r = text.range(of: " \(attribute)=\"[0-9.]+pt\"", options: .regularExpression) {
      text.replaceSubrange(r, with: text[r].replacingOccurrences(of: "pt\"", with: "\""))
    }
  }
  return text
}

/// How long `dot` may take on one of lifesim's diagrams (it needs well under a second).
let graphvizTimeLimit = 30

/// A flag one thread sets and another reads.
final class ManagedAtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.lock(); value = true; lock.unlock() }
  var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
