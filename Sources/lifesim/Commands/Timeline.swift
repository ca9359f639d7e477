import ArgumentParser
import Foundation
import LifeSimLua
import LifeSimPictures

extension Lifesim {
  /// `lifesim timeline TRACE.jsonl -o timeline.svg`.
  struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw a JSONL trace as swimlanes over virtual time (SVG).",
      discussion: """
        One lane per app (and per scene, for an app with several), coloured and \
        sized by state; markers for callbacks (named beside them where there is \
        room, and in tooltips), kills, data losses, expirations and memory \
        warnings, with "×N" when a mark stands for N events; a memory band with \
        the warning and jetsam levels. Long idle stretches are compressed and \
        shaded, with their length written and the times of their ends on the \
        axis. The trace is read three times, line by line, and each lane keeps \
        only where its drawn state changes: memory grows with what the picture \
        shows, not with the trace's length or the width times the lanes. The \
        records of each device must come in time order, as lifesim run writes \
        them.

        --sequence draws the trace as a UML sequence diagram instead: time runs \
        down, one column for the user, one for iOS and one per app and per scene, \
        and one labelled row per action, callback, notification, kill, expiration \
        and data loss, each app's lifeline a bar in the colour of its state.
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

    @Option(help: "The width of the time axis, in pixels (the default fits a 1,400-pixel window).")
    var width: Double?

    @Flag(help: "Draw a sequence diagram: time down, a column per app and scene, a row per callback and action.")
    var sequence = false

    @Option(help: "The title (default: the trace's file name, without folder and extension).")
    var title: String?

    func validate() throws {
      // Virtual times are whole microseconds in 64 bits: about 9.2e12 seconds.
      for (name, t) in [("--from", from), ("--to", to)] {
        if let t, !(t >= 0 && t <= 9e12) { throw ValidationError("\(name) must be a time between 0 and 9e12 seconds, got \(t)") }
      }
      if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
      if let width, !(width >= 200 && width <= 20_000) { throw ValidationError("--width must be between 200 and 20000 pixels") }
      if sequence && width != nil { throw ValidationError("--width is the time axis's: a sequence diagram is as wide as its columns") }
      try refuseOutputOverInput(outputs: [("--output", output)], inputs: [("the trace", trace)])
    }

    func run() throws {
      let reader = JSONLTraceReader(path: trace)
      var svg: String
      do {
        if sequence {
          var options = SequenceOptions()
          options.from = from
          options.to = to
          options.title = title ?? scenarioTitle(trace)
          let drawn = try SequenceDiagram.render(options: options) { try reader.forEach($0) }
          svg = drawn.svg
          if let leftOut = drawn.leftOut { printError("lifesim timeline: warning: \(leftOut)") }
        } else {
          var options = TimelineOptions()
          options.from = from
          options.to = to
          options.width = width ?? options.width
          options.title = title ?? scenarioTitle(trace)
          let drawn = try LifeSimPictures.Timeline.renderCounting(options: options) { try reader.forEach($0) }
          svg = drawn.svg
          if drawn.records == 0 { printError("lifesim timeline: warning: no record in the range asked: the picture is empty") }
        }
      } catch let e as JSONLTraceReader.ReadError {
        throw CommandFailure.badInput(e.description)
      }
      try writeTextFile(output, svg)
    }
  }
}

/// A picture's title for a scenario: the first sentence of the script's
/// opening comment ("A first tour of lifesim"), else its file name without
/// folder and extension; a trace's, its file name so.
func scenarioTitle(_ path: String) -> String {
  let name = String((path.split(separator: "/").last ?? Substring(path)))
  let base = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
  guard path.hasSuffix(".lua"), let bytes = try? readFileBytes(path) else { return base }
  let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
  guard let first = text.split(separator: "\n").first, first.hasPrefix("-- "), !first.hasPrefix("-- expect-error:") else { return base }
  var line = first.dropFirst(3)
  for stop in [": ", ". ", "; "] { if let r = line.range(of: stop) { line = line[..<r.lowerBound] } }
  if line.hasSuffix(".") { line = line.dropLast() }
  let title = line.trimmingCharacters(in: .whitespaces)
  return title.isEmpty || title.count > 80 ? base : title
}
