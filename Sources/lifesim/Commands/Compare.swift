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
        overridden, and compare says so. Actions, callbacks, expirations, kills \
        (watchdog, jetsam, …), data loss and print lines are aligned in columns, \
        each version with the virtual time of each row beside it; a row marked * \
        differs between versions, one marked ~ is the same at different times. \
        With --handled, only callbacks the script handles are shown (the \
        methods the app implements); --all adds states, notifications, \
        snapshots and memory records. A device with one app shows no bundle id; \
        with several, each row names its app by the last part of its bundle id.
        """
    )

    @Argument(help: "The Lua scenario to run.")
    var file: String

    @Option(name: .customLong("ios"), help: "An iOS version; give two or more.")
    var versions: [Int] = []

    @Flag(help: "Show only callbacks the script has a handler or observer for.")
    var handled = false

    @Flag(help: "Show every record kind (states, notifications, snapshots, memory), not just what the app did and what it lost.")
    var all = false

    @Option(help: "The run's seed.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The widest a row's text gets (its time aside); longer text is cut with …", valueName: "N"))
    var width: Int?

    func validate() throws {
      guard versions.count >= 2 else { throw ValidationError("give at least two versions: --ios 12 --ios 17") }
      for v in versions where !OSProfile.supportedVersions.contains(v) {
        throw ValidationError(SimulationError.unsupportedVersion(v).description)
      }
      if let width, width < 12 { throw ValidationError("--width must be at least 12, got \(width)") }
    }

    func run() throws {
      var traces: [[[Line]]] = []  // per version, per device, the lines
      var pinned: [Int] = []  // versions the script asked for, overridden
      var notes: [[String]] = []  // per version, handlers that never ran
      for v in versions {
        var options = RuntimeOptions()
        options.ios = v
        options.overrideIOS = true  // each column is the version in its header
        options.seed = seed
        options.output = { _ in }
        options.printsToTrace = true  // a print is a row: a log record where it ran
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

    /// A row's text (what is compared) and its virtual time (shown beside it).
    struct Line {
      var time: Int64
      var text: String
    }

    /// The comparable lines of a trace: their text holds no time, so that
    /// versions line up; the time goes in a column of its own.
    private func lines(of device: Device) -> [Line] {
      let writer = TraceWriter(format: .text)
      let trace = device.trace
      let single = trace.appNames.count == 1
      return trace.records.compactMap { r in
        switch r.kind {
        case .action, .kill, .dataLoss, .expire, .log: break
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
        return Line(time: r.time.microseconds, text: line)
      }
    }

    /// "30.5 s": seconds with at most six decimals, as the trace has them.
    private func time(_ micros: Int64) -> String {
      var text = String(micros / 1_000_000)
      let fraction = micros % 1_000_000
      if fraction != 0 {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
      }
      return text + " s"
    }

    private func table(_ columns: [[Line]]) -> String {
      let cap = self.width ?? Int.max
      func cut(_ s: String) -> String { s.count <= cap ? s : String(s.prefix(cap - 1)) + "…" }
      let aligned = alignColumns(columns.map { $0.map(\.text) })
      // The aligned rows hold each column's lines in order: its times follow.
      var next = [Int](repeating: 0, count: columns.count)
      let rows: [[Line?]] = aligned.map { row in
        row.enumerated().map { c, text in
          guard text != nil else { return nil }
          defer { next[c] += 1 }
          return columns[c][next[c]]
        }
      }
      let times = columns.map { $0.map { time($0.time) } }
      let timeWidth = max(4, times.flatMap { $0 }.map(\.count).max() ?? 0)
      let width = min(cap, max(12, columns.dropLast().flatMap { $0 }.map(\.text.count).max() ?? 0))
      func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
      func padLeft(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
      func cell(_ time: String, _ text: String, last: Bool) -> String {
        padLeft(time, timeWidth) + "  " + (last ? text : pad(text, width))
      }
      var out = "  " + versions.enumerated().map { i, v in
        cell("time", "iOS \(v)", last: i == versions.count - 1)
      }.joined(separator: " | ") + "\n"
      for row in rows {
        let same = row.allSatisfy { $0 != nil && $0!.text == row[0]!.text }
        let sameTime = same && row.allSatisfy { $0!.time == row[0]!.time }
        let cells = row.enumerated().map { i, c in
          cell(c.map { time($0.time) } ?? "", c.map { cut($0.text) } ?? "", last: i == row.count - 1)
        }
        var line = (same ? (sameTime ? "  " : "~ ") : "* ") + cells.joined(separator: " | ")
        while line.hasSuffix(" ") { line.removeLast() }
        out += line + "\n"
      }
      return out
    }
  }
}
