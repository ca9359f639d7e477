import ArgumentParser
import LifeSimEngine
import LifeSimLua

extension Lifesim {
  /// `lifesim compare FILE --ios A --ios B`: one scenario under several iOS
  /// versions, its traces side by side.
  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run one scenario under several iOS versions and show the traces side by side.",
      discussion: """
        The script runs once per --ios value; devices that do not name an iOS \
        version get that one. Actions and callbacks are aligned in columns; a \
        row marked * differs between versions. With --handled, only callbacks \
        the script handles are shown (the methods the app implements).
        """
    )

    @Argument(help: "The Lua scenario to run.")
    var file: String

    @Option(name: .customLong("ios"), help: "An iOS version; give two or more.")
    var versions: [Int] = []

    @Flag(help: "Show only callbacks the script has a handler or observer for.")
    var handled = false

    @Flag(help: "Show every record kind (states, notifications, snapshots), not just actions and callbacks.")
    var all = false

    @Option(help: "The run's seed.")
    var seed: UInt64 = 1

    func validate() throws {
      guard versions.count >= 2 else { throw ValidationError("give at least two versions: --ios 12 --ios 17") }
      for v in versions where !OSProfile.supportedVersions.contains(v) {
        throw ValidationError(SimulationError.unsupportedVersion(v).description)
      }
    }

    func run() throws {
      var traces: [[[String]]] = []  // per version, per device, the lines
      for v in versions {
        var options = RuntimeOptions()
        options.ios = v
        options.seed = seed
        options.output = { _ in }
        let runtime = try LuaRuntime(options: options)
        do {
          try runtime.runFile(file)
        } catch let f as LuaFailure {
          throw CommandFailure.script(f, context: "iOS \(v)")
        }
        traces.append(runtime.createdDevices.map(lines(of:)))
      }
      let deviceCount = traces.map(\.count).max() ?? 0
      var out = ""
      for d in 0..<deviceCount {
        if deviceCount > 1 { out += "# device \(d + 1)\n" }
        out += table(traces.map { d < $0.count ? $0[d] : [] })
      }
      writeOut(out)
    }

    /// The comparable lines of a trace: no times, so versions can line up.
    private func lines(of device: Device) -> [String] {
      let writer = TraceWriter(format: .text)
      let trace = device.trace
      return trace.records.compactMap { r in
        switch r.kind {
        case .action: break
        case .callback: if handled && r.handled != true { return nil }
        case .notification: if !all || (handled && r.handled != true) { return nil }
        default: if !all { return nil }
        }
        var line = ""
        writer.line(r, in: trace, into: &line)
        // Drop the "[t=…] " prefix.
        if let close = line.firstIndex(of: "]") { line = String(line[line.index(after: close)...].dropFirst()) }
        return line
      }
    }

    private func table(_ columns: [[String]]) -> String {
      let rows = alignColumns(columns)
      let width = max(12, columns.dropLast().flatMap { $0 }.map(\.count).max() ?? 0)
      func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
      var out = "  " + versions.enumerated().map { i, v in
        i == versions.count - 1 ? "iOS \(v)" : pad("iOS \(v)")
      }.joined(separator: " | ") + "\n"
      for row in rows {
        let same = row.allSatisfy { $0 != nil && $0 == row[0] }
        let cells = row.enumerated().map { i, c in i == row.count - 1 ? (c ?? "") : pad(c ?? "") }
        out += (same ? "  " : "* ") + cells.joined(separator: " | ") + "\n"
      }
      return out
    }
  }
}
