import ArgumentParser
import LifeSimPictures

extension Lifesim {
  /// `lifesim timeline TRACE.jsonl -o timeline.svg`.
  struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw a JSONL trace as swimlanes over virtual time (SVG).",
      discussion: """
        One lane per app and per scene, coloured and sized by state; markers for \
        callbacks (selectors in tooltips), kills, data losses, expirations and \
        memory warnings; a memory band with the warning and jetsam levels. Long \
        idle stretches are compressed and shaded, with the gap written. The \
        trace is read twice, line by line: memory stays flat however long it is.
        """
    )

    @Argument(help: "A trace from lifesim run --format jsonl.")
    var trace: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Show from this virtual time on, in seconds.", valueName: "seconds"))
    var from: Double?

    @Option(help: ArgumentHelp("Show up to this virtual time, in seconds.", valueName: "seconds"))
    var to: Double?

    @Option(help: "The width of the time axis, in pixels.")
    var width: Double = 1100

    @Option(help: "The title (default: the trace's file name).")
    var title: String?

    func validate() throws {
      // Virtual times are whole microseconds in 64 bits: about 9.2e12 seconds.
      for (name, t) in [("--from", from), ("--to", to)] {
        if let t, !(t >= 0 && t <= 9e12) { throw ValidationError("\(name) must be a time between 0 and 9e12 seconds, got \(t)") }
      }
      if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
      if !(width >= 200 && width <= 20_000) { throw ValidationError("--width must be between 200 and 20000 pixels") }
      try refuseOutputOverInput(outputs: [("--output", output)], inputs: [("the trace", trace)])
    }

    func run() throws {
      var options = TimelineOptions()
      options.from = from
      options.to = to
      options.width = width
      options.title = title ?? trace
      let reader = JSONLTraceReader(path: trace)
      let svg: String
      do {
        svg = try LifeSimPictures.Timeline.render(options: options) { try reader.forEach($0) }
      } catch let e as JSONLTraceReader.ReadError {
        throw ValidationError(e.description)
      }
      try writeTextFile(output, svg)
    }
  }
}
