import ArgumentParser
import LifeSimEngine
import LifeSimPictures

extension DiagramMachine: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument) }
  public static var allValueStrings: [String] { allCases.map(\.name) }
}
extension DiagramFormat: ExpressibleByArgument {}

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
        scene detached with its process) are dashed. The SVG needs no Graphviz.
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
      let text = diagram.render(format)
      if let output { try writeTextFile(output, text) } else { writeOut(text) }
    }
  }
}
