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
        The script runs once per --ios value, and every device runs the \
        version of its column: a script's own lifesim.device{ ios = … } is \
        overridden, and compare says so. Actions, callbacks, kills and data \
        loss are aligned in columns; a row marked * differs between versions. \
        With --handled, only callbacks the script handles are shown (the \
        methods the app implements). A device with one app shows no bundle id; \
        with several, each row names its app by the last part of its bundle id.
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

    @Option(help: ArgumentHelp("The widest a column gets; longer cells are cut with …", valueName: "N"))
    var width: Int?

    func validate() throws {
      guard versions.count >= 2 else { throw ValidationError("give at least two versions: --ios 12 --ios 17") }
      for v in versions where !OSProfile.supportedVersions.contains(v) {
        throw ValidationError(SimulationError.unsupportedVersion(v).description)
      }
      if let width, width < 12 { throw ValidationError("--width must be at least 12, got \(width)") }
    }

    func run() throws {
      var traces: [[[String]]] = []  // per version, per device, the lines
      var pinned: [Int] = []  // versions the script asked for, overridden
      var notes: [[String]] = []  // per version, handlers that never ran
      for v in versions {
        var options = RuntimeOptions()
        options.ios = v
        options.overrideIOS = true  // each column is the version in its header
        options.seed = seed
        options.output = { _ in }
        let runtime = try LuaRuntime(options: options)
        do {
          try runtime.runFile(file)
        } catch let f as LuaFailure {
          throw CommandFailure.script(f, context: "iOS \(v)")
        }
        for p in runtime.pinnedVersions where !pinned.contains(p) { pinned.append(p) }
        traces.append(runtime.createdDevices.map(lines(of:)))
        // A handler that never ran on one version is not a difference between versions.
        notes.append(runtime.endOfRunNotes(includingLeftovers: false)
          .map { $0.replacingOccurrences(of: "lifesim: warning: ", with: "") })
      }
      if !pinned.isEmpty {
        let what = pinned.map { "ios = \($0)" }.joined(separator: ", ")
        printError("lifesim compare: \(file) sets \(what) in lifesim.device; each column ran the version in its header instead")
      }
      let deviceCount = traces.map(\.count).max() ?? 0
      var out = ""
      for d in 0..<deviceCount {
        if deviceCount > 1 { out += "# device \(d + 1)\n" }
        out += table(traces.map { d < $0.count ? $0[d] : [] })
      }
      for (v, said) in zip(versions, notes) where !said.isEmpty {
        out += "\nnote, iOS \(v):\n" + said.map { "  \($0)\n" }.joined()
      }
      writeOut(out)
    }

    /// The comparable lines of a trace: no times, so versions can line up.
    private func lines(of device: Device) -> [String] {
      let writer = TraceWriter(format: .text)
      let trace = device.trace
      let single = trace.appNames.count == 1
      return trace.records.compactMap { r in
        switch r.kind {
        case .action, .kill, .dataLoss: break
        case .callback: if handled && r.handled != true { return nil }
        case .notification: if !all || (handled && r.handled != true) { return nil }
        default: if !all { return nil }
        }
        var line = ""
        writer.line(r, in: trace, into: &line)
        // Drop the "[t=…] " prefix, and the bundle id: a device with one app
        // names none, one with several names each by its id's last part.
        if let close = line.firstIndex(of: "]") { line = String(line[line.index(after: close)...].dropFirst()) }
        if let app = r.app {
          let bundle = trace.name(of: app)
          if line.hasPrefix(bundle + " ") {
            let rest = String(line.dropFirst(bundle.count + 1))
            line = single ? rest : (bundle.split(separator: ".").last.map(String.init) ?? bundle) + ": " + rest
          }
        }
        return line
      }
    }

    private func table(_ columns: [[String]]) -> String {
      let cap = self.width ?? Int.max
      func cut(_ s: String) -> String { s.count <= cap ? s : String(s.prefix(cap - 1)) + "…" }
      let rows = alignColumns(columns).map { $0.map { $0.map(cut) } }
      let width = min(cap, max(12, columns.dropLast().flatMap { $0 }.map(\.count).max() ?? 0))
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
