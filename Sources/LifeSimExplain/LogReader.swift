import Foundation
import LifeSimEngine

/// The forms of log `lifesim explain` reads.
public enum LogFormat: String, CaseIterable, Sendable {
  /// Lines naming a UIKit delegate method or a UIApplication notification.
  case text
  /// Flutter's `AppLifecycleState.<state>` lines.
  case flutter
  /// React Native `AppState` changes.
  case reactNative = "react-native"
  /// Crash-reporter breadcrumbs as JSON (a Sentry event, an array, or JSON lines).
  case sentry
  /// Capacitor's (Ionic's) App plugin events: `appStateChange` with
  /// `isActive`, `pause` and `resume`.
  case capacitor

  public static let names = allCases.map(\.rawValue)
}

/// What Sentry's iOS SDK means by an `app.lifecycle` breadcrumb's `state`:
/// it changed in sentry-cocoa 9.9.0, and `foreground` changed meaning.
public enum SentryStates: String, CaseIterable, Sendable {
  /// Before 9.9.0: `foreground` on did become active, `background` on did
  /// enter background, nothing on the other two.
  case legacy
  /// 9.9.0 and later: `foreground` on will enter foreground, `active` on
  /// did become active, `inactive` on will resign active, `background` on
  /// did enter background.
  case v9_9 = "9.9"

  public static let names = allCases.map(\.rawValue)

  /// The scheme of a `sentry.cocoa` version (`9.9.0`, `8.36.0-beta.1`), if it reads as one.
  public static func of(version: String) -> SentryStates? {
    let numbers = version.split(separator: "-", maxSplits: 1).first.map { $0.split(separator: ".", omittingEmptySubsequences: false) } ?? []
    guard numbers.count >= 2, let major = Int(numbers[0]), let minor = Int(numbers[1]) else { return nil }
    return (major, minor) >= (9, 9) ? .v9_9 : .legacy
  }

  /// The notification a state names in this scheme.
  func notification(_ state: String) -> AppNotification? {
    switch (self, state) {
    case (.legacy, "foreground"): return .didBecomeActive
    case (.v9_9, "foreground"): return .willEnterForeground
    case (.v9_9, "active"): return .didBecomeActive
    case (.v9_9, "inactive"): return .willResignActive
    case (_, "background"): return .didEnterBackground
    default: return nil
    }
  }
}

/// What the trace of the simulated app can show: a callback or a notification.
public enum LogAtom: Hashable, Sendable {
  case callback(Callback)
  case notification(AppNotification)
  /// `viewDidAppear:` of a view controller of this class.
  case screen(String)

  /// The name the trace and a script use for it.
  public var name: String {
    switch self {
    case .callback(let c): return c.selector
    case .notification(let n): return n.name
    case .screen: return Callback.viewDidAppear.selector
    }
  }
}

/// A kind of logged line, and the trace records that show as it. A Flutter
/// `inactive` is either of two notifications; a text line's kind is one.
public struct LogSymbol: Equatable, Sendable {
  public var name: String
  public var atoms: [LogAtom]
}

/// One line of the log that lifesim matches.
public struct LogEvent: Equatable, Sendable {
  /// Its number in the file (1-based), or its breadcrumb's number in a JSON array.
  public var line: Int
  /// The line as logged (a breadcrumb: its category and what it says).
  public var text: String
  /// Its kind: an index into `ParsedLog.symbols`.
  public var symbol: Int
  /// Its timestamp in microseconds, when it has one.
  public var time: Int64?
}

/// A log read: its lifecycle lines, their kinds, and how many lines were not lifecycle lines.
public struct ParsedLog: Sendable {
  public var format: LogFormat
  public var events: [LogEvent] = []
  /// The kinds, in the order first seen; they grow through `add`, which
  /// keeps the indexes below, so that reading stays linear however many
  /// kinds (screens) a log has.
  public internal(set) var symbols: [LogSymbol] = []
  /// Each kind's index by its name, and the first kind that shows each atom.
  var symbolByName: [String: Int] = [:]
  var symbolByAtom: [LogAtom: Int] = [:]
  /// Lines (or breadcrumbs) read past: not lifecycle lines.
  public var ignored = 0
  /// The log shows changes of a state, not every notification: a repeat of
  /// the last state is not logged (React Native, Flutter).
  public var collapsesRepeats = false
  /// "line" or "breadcrumb": what `LogEvent.line` counts.
  public var unit = "line"
  /// A timestamp's clock wraps at midnight (`HH:MM:SS` with no date).
  public var timesWrapDaily = false
  /// The view-controller classes the log names (Sentry's `ui.lifecycle`),
  /// in the order first seen: the first is the root.
  public var screens: [String] = []
  /// Flutter 3.13+: the log shows `hidden`, which the framework puts
  /// between `inactive` and `paused` both ways, so every change of state
  /// is read as the framework's walk from the last state to the new one.
  public var flutterWalks = false
  /// What the reader noticed and read in its own way (a clock that goes
  /// back): said on standard error, never on the answer.
  public var notes: [String] = []
  /// How the `app.lifecycle` states were read (Sentry breadcrumbs that have any).
  public var sentryStates: SentryStates?

  /// Whether the log names a scene-delegate method.
  public var namesSceneMethods: Bool {
    symbols.contains { $0.atoms.contains { if case .callback(let c) = $0 { return c.receiver == .sceneDelegate }; return false } }
  }

  /// The symbol of an atom, if the log shows it.
  public func symbol(of atom: LogAtom) -> Int? { symbolByAtom[atom] }

  mutating func add(line: Int, text: String, symbol: LogSymbol, time: Int64?) {
    let i: Int
    if let found = symbolByName[symbol.name] { i = found } else {
      i = symbols.count
      symbols.append(symbol)
      symbolByName[symbol.name] = i
      for atom in symbol.atoms where symbolByAtom[atom] == nil { symbolByAtom[atom] = i }
    }
    events.append(LogEvent(line: line, text: text, symbol: i, time: time))
  }
}

/// Why a log could not be read: exit 2.
public struct LogReadError: Error, CustomStringConvertible {
  public let description: String
  /// JSON that does not parse: format detection says so rather than "not breadcrumbs".
  var parse = false
}

/// Reads a log: its format found from its content unless given.
public enum LogReader {
  /// The latest breadcrumb timestamp read as a time: the year 5000, in seconds since 1970.
  static let latestSeconds = 95_617_584_000.0
  /// The largest log read: 64 MB, lifesim's limit for a log (a log that
  /// size has about a million lines, far more than a search can explain).
  public static let maxBytes = 64 << 20
  /// The longest wait between two lines: the 100 years a run may take.
  static let maxGapMicros: Int64 = 3_153_600_000 * 1_000_000
  /// Reads a log's bytes: UTF-8, as lifesim reads every file. UTF-16 (a
  /// byte-order mark, or a NUL beside every ASCII character) is refused
  /// with how to convert it: read as UTF-8 it would hold no line at all.
  public static func read(bytes: [UInt8], format: LogFormat? = nil, sentryStates: SentryStates? = nil) throws -> ParsedLog {
    if let order = utf16(bytes) {
      throw LogReadError(description: "the log is UTF-16 (\(order)) and lifesim reads UTF-8; "
                         + "`iconv -f UTF-16\(order == "little-endian" ? "LE" : "BE") -t UTF-8` converts it")
    }
    return try read(String(decoding: bytes, as: UTF8.self), format: format, sentryStates: sentryStates)
  }

  /// "little-endian" or "big-endian" when the bytes are UTF-16 text.
  static func utf16(_ b: [UInt8]) -> String? {
    if b.starts(with: [0xFF, 0xFE]) { return "little-endian" }
    if b.starts(with: [0xFE, 0xFF]) { return "big-endian" }
    // No mark: the first characters, ASCII as a log's are, each beside a NUL.
    let pairs = min(b.count / 2, 32)
    guard pairs >= 2 else { return nil }
    let low = (0..<pairs).allSatisfy { b[2 * $0] != 0 && b[2 * $0 + 1] == 0 }
    let high = (0..<pairs).allSatisfy { b[2 * $0] == 0 && b[2 * $0 + 1] != 0 }
    return low ? "little-endian" : high ? "big-endian" : nil
  }

  /// The content less a UTF-8 byte-order mark, which Windows tools write
  /// first and which is no part of the first line (nor of JSON).
  static func withoutBOM(_ content: String) -> String {
    content.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? String(decoding: content.utf8.dropFirst(3), as: UTF8.self) : content
  }

  public static func read(_ content: String, format: LogFormat? = nil, sentryStates: SentryStates? = nil) throws -> ParsedLog {
    let content = withoutBOM(content)
    let format = try format ?? detect(content)
    var log: ParsedLog
    switch format {
    case .sentry: log = try readBreadcrumbs(content, states: sentryStates)
    default: log = try readLines(content, format)
    }
    log.collapsesRepeats = format == .flutter || format == .reactNative
    log.flutterWalks = format == .flutter && log.symbols.contains { $0.name == Flutter.hidden }
    checkClock(&log)
    // A gap is a wait of the device's clock, which a run keeps within 100 years.
    for i in log.events.indices.dropFirst() {
      if let a = log.events[i - 1].time, let b = log.events[i].time, b - a > maxGapMicros {
        throw LogReadError(description: "line \(log.events[i].line): \((b - a) / 1_000_000) s after the line before it; "
                           + "a wait is at most \(maxGapMicros / 1_000_000) s (100 years) of virtual time")
      }
    }
    guard !log.events.isEmpty else {
      throw LogReadError(description: "no lifecycle lines in the log (read as \(format.rawValue), \(log.ignored) "
                         + "\(log.unit)\(log.ignored == 1 ? "" : "s") ignored); --format names another form")
    }
    return log
  }

  /// The format whose lines the content has most of; JSON is breadcrumbs.
  public static func detect(_ content: String) throws -> LogFormat {
    let content = withoutBOM(content)
    // JSON first; a line log may start with "[" too (a bracketed time).
    let start = content.drop { $0.isWhitespace }.first
    let json = start == "[" || start == "{"
    var unparsed: String?
    if json {
      do {
        _ = try readBreadcrumbs(content)
        return .sentry
      } catch let e as LogReadError where e.description.hasPrefix("breadcrumb ") || e.description.hasPrefix("a list of ") {
        return .sentry  // breadcrumbs with a bad time, or whole events: read, it says which
      } catch let e as LogReadError where e.parse {
        unparsed = e.description
      } catch {}
    }
    // Lines as Swift's `Character.isNewline` splits them: every line break Unicode has.
    var text = 0, flutter = 0, reactNative = 0, capacitor = 0
    var bytes = content
    bytes.withUTF8 { all in
      forEachLine(all, atEveryBreak: true) { _, raw in
        withoutEscapes(raw) { line in
          if textSymbol(line) != nil { text += 1 }
          if flutterSymbol(line) != nil { flutter += 1 }
          if reactNativeSymbol(line) != nil { reactNative += 1 }
          if capacitorSymbol(line) != nil { capacitor += 1 }
        }
      }
    }
    let counts: [LogFormat: Int] = [.text: text, .flutter: flutter, .reactNative: reactNative, .capacitor: capacitor]
    guard let best = lineForms.max(by: { counts[$0, default: 0] < counts[$1, default: 0] }),
          counts[best, default: 0] > 0 else {
      if let unparsed { throw LogReadError(description: unparsed + "; --format names the form") }
      if json {
        throw LogReadError(description: "unknown log format: JSON that is not a list of breadcrumbs "
                           + "(a Sentry event's breadcrumbs.values or its breadcrumbs entry, an array, or JSON lines); --format names the form")
      }
      throw LogReadError(description: "no lifecycle lines in the log: no UIKit lifecycle method or UIApplication "
                         + "notification, AppLifecycleState, AppState or Capacitor appStateChange line; --format names the form")
    }
    // Ties go to the first in this order: max keeps the first maximum.
    let top = counts[best, default: 0]
    return lineForms.first { counts[$0, default: 0] == top } ?? best
  }

  /// The forms read a line at a time, in the order a tie between them goes.
  static let lineForms: [LogFormat] = [.text, .flutter, .reactNative, .capacitor]

  /// Calls `body` with each line's number (1-based) and bytes, read once,
  /// front to back: the work is linear in the log's size. A line ends at
  /// "\n", "\r\n" or a lone "\r" (old Mac files, and tools that write
  /// them), and the numbers count those lines; with `atEveryBreak`, at
  /// every line break `Character.isNewline` knows too (VT, FF, NEL, U+2028,
  /// U+2029, and "\r\n" as two; the numbers then count those parts).
  static func forEachLine(_ all: UnsafeBufferPointer<UInt8>, atEveryBreak: Bool = false,
                          _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
    let count = all.count
    var n = 0, start = 0
    while start <= count {
      var end = start, next = count + 1
      while end < count {
        let b = all[end]
        if b == 0x0A { next = end + 1; break }
        if b == 0x0D {
          next = !atEveryBreak && end + 1 < count && all[end + 1] == 0x0A ? end + 2 : end + 1
          break
        }
        if atEveryBreak {
          if b == 0x0B || b == 0x0C { next = end + 1; break }
          if b == 0xC2, end + 1 < count, all[end + 1] == 0x85 { next = end + 2; break }
          if b == 0xE2, end + 2 < count, all[end + 1] == 0x80, all[end + 2] == 0xA8 || all[end + 2] == 0xA9 { next = end + 3; break }
        }
        end += 1
      }
      n += 1
      try body(n, UnsafeBufferPointer(rebasing: all[start..<end]))
      start = next
    }
  }

  static func readLines(_ content: String, _ format: LogFormat) throws -> ParsedLog {
    var log = ParsedLog(format: format)
    var kinds = StampKinds()
    var others = OtherForms()
    var content = content
    try content.withUTF8 { all in
      try forEachLine(all) { n, raw in try withoutEscapes(raw) { line in
        let symbol: LogSymbol?
        switch format {
        case .flutter: symbol = flutterSymbol(line)
        case .reactNative: symbol = reactNativeSymbol(line)
        case .capacitor: symbol = capacitorSymbol(line)
        default: symbol = textSymbol(line)
        }
        guard let symbol else {
          if !isBlank(line) {
            log.ignored += 1
            others.see(line, n, besides: format)
          }
          return
        }
        let stamp: Timestamp?
        do { stamp = try Timestamp.leading(line) } catch let e as Timestamp.Impossible {
          throw LogReadError(description: "line \(n): \(e)")
        }
        if let stamp { kinds.see(line: n, daily: stamp.wrapsDaily) }
        if stamp?.wrapsDaily == true { log.timesWrapDaily = true }
        // The line as logged, its colours too: shown escaped.
        log.add(line: n, text: trimmed(raw), symbol: symbol, time: stamp?.micros)
      } }
    }
    dropPartialTimes(&log)
    kinds.dropMixedTimes(&log)
    others.note(in: &log)
    return log
  }

  /// Lifecycle lines of another line form among those read past: a log is
  /// read in one form, so a Flutter app's log with its native delegate's
  /// lines too loses the lines of the form it was not read in, which is said.
  struct OtherForms {
    var seen: [(form: LogFormat, count: Int, first: Int)] = []

    mutating func see(_ line: UnsafeBufferPointer<UInt8>, _ n: Int, besides format: LogFormat) {
      for form in lineForms where form != format {
        let found: Bool
        switch form {
        case .flutter: found = flutterSymbol(line) != nil
        case .reactNative: found = reactNativeSymbol(line) != nil
        case .capacitor: found = capacitorSymbol(line) != nil
        default: found = textSymbol(line) != nil
        }
        guard found else { continue }
        if let i = seen.firstIndex(where: { $0.form == form }) { seen[i].count += 1 } else { seen.append((form, 1, n)) }
        return
      }
    }

    func note(in log: inout ParsedLog) {
      for s in seen {
        let what: String
        switch s.form {
        case .flutter: what = "Flutter AppLifecycleState"
        case .reactNative: what = "React Native AppState"
        case .capacitor: what = "Capacitor App plugin"
        default: what = "UIKit lifecycle"
        }
        log.notes.append("\(s.count) of the lines read past \(s.count == 1 ? "is a \(what) line" : "are \(what) lines") "
                         + "(the first: line \(s.first)); a log is read in one form, and --format \(s.form.rawValue) reads those")
      }
    }
  }

  /// The kinds of stamp a log's lines carry: a date and time, or a time of
  /// day alone. The two are on no common clock (a time of day has no day),
  /// so a log with both is read without times, and said, naming the first
  /// line whose stamp is of the other kind than the first.
  struct StampKinds {
    var first: (line: Int, daily: Bool)?
    var other: Int?

    mutating func see(line: Int, daily: Bool) {
      guard let first else { self.first = (line, daily); return }
      if other == nil, daily != first.daily { other = line }
    }

    func dropMixedTimes(_ log: inout ParsedLog) {
      guard let first, let other, log.events.contains(where: { $0.time != nil }) else { return }
      let unit = log.unit
      log.notes.append("\(unit) \(other): its timestamp \(first.daily ? "has a date" : "is a time of day alone"), and that of "
                       + "\(unit) \(first.line) \(first.daily ? "is a time of day alone" : "has a date"): "
                       + "the log is read without times, and its waits are free")
      for i in log.events.indices { log.events[i].time = nil }
      log.timesWrapDaily = false
    }
  }

  /// Calls `body` with the line less its ANSI CSI escape sequences (ESC "["
  /// parameters, then a final byte from "@" to "~"), which Xcode and
  /// terminals colour logs with: the `m` that ends `ESC[33m` is no letter
  /// of the name after it. A line without ESC is passed as it is.
  static func withoutEscapes<T>(_ line: UnsafeBufferPointer<UInt8>,
                                _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
    guard line.contains(0x1B) else { return try body(line) }
    var out: [UInt8] = []
    out.reserveCapacity(line.count)
    var i = 0
    while i < line.count {
      if line[i] == 0x1B, i + 1 < line.count, line[i + 1] == 0x5B {
        var j = i + 2
        while j < line.count, line[j] >= 0x20, line[j] <= 0x3F { j += 1 }  // parameters and intermediates
        if j < line.count, line[j] >= 0x40, line[j] <= 0x7E { i = j + 1; continue }
      }
      out.append(line[i])
      i += 1
    }
    return try out.withUnsafeBufferPointer { try body($0) }
  }

  /// A log whose lines do not all carry a time has no times: the waits are
  /// then free. Said, when some lines had one: the times were read past.
  static func dropPartialTimes(_ log: inout ParsedLog) {
    guard let first = log.events.first(where: { $0.time == nil }) else { return }
    let untimed = log.events.reduce(0) { $0 + ($1.time == nil ? 1 : 0) }
    if untimed < log.events.count {
      let total = log.events.count, unit = log.unit
      log.notes.append("\(untimed) of the \(total) lifecycle \(unit)s \(untimed == 1 ? "has" : "have") no timestamp (the first: \(unit) \(first.line)): "
                       + "the log is read without times, and its waits are free")
    }
    for i in log.events.indices { log.events[i].time = nil }
  }

  /// Whether a line is only white space, as `Character.isWhitespace` says.
  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var ascii = true
    for b in line {
      if b >= 0x80 { ascii = false } else if b != 0x20 && !(b >= 0x09 && b <= 0x0D) { return false }
    }
    return ascii || String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
  }

  /// The line less its leading and trailing spaces and tabs (Unicode's too).
  static func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> String {
    let s = String(decoding: line, as: UTF8.self)
    if let f = line.first, let l = line.last, f < 0x80, l < 0x80, f != 0x20, f != 0x09, l != 0x20, l != 0x09 { return s }
    return s.trimmingCharacters(in: .whitespaces)
  }

  static func isWord(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
  }

  static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

  static func isASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool { !line.contains { $0 >= 0x80 } }

  /// Where `pattern` first occurs in `line` from `from`.
  static func find(_ pattern: [UInt8], in line: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
    guard let first = pattern.first, pattern.count <= line.count else { return nil }
    var i = from
    while i + pattern.count <= line.count {
      if line[i] == first {
        var j = 1
        while j < pattern.count && line[i + j] == pattern[j] { j += 1 }
        if j == pattern.count { return i }
      }
      i += 1
    }
    return nil
  }

  // MARK: - Text: method and notification names

  /// Each name a line may hold, longest first at one place: the Objective-C
  /// selector, the Swift name, and the bare name people print
  /// (`applicationDidBecomeActive`, `didFinishLaunchingWithOptions`).
  static let textPatterns: [(pattern: String, atom: LogAtom)] = {
    var out: [(String, LogAtom)] = []
    for c in Callback.allCases where c.receiver == .appDelegate || c.receiver == .sceneDelegate {
      out.append((c.selector, .callback(c)))
      out.append((c.swiftName, .callback(c)))
      let parts = c.selector.split(separator: ":")
      let bare = parts.count == 1 ? String(parts[0]) : String(parts[1])
      if bare.count >= 12 { out.append((bare, .callback(c))) }
    }
    for n in AppNotification.allCases {
      out.append((n.name, .notification(n)))
      var swift = String(n.name.dropFirst("UIApplication".count))
      swift = swift.prefix(1).lowercased() + swift.dropFirst()
      if !swift.hasSuffix("Notification") { swift += "Notification" }
      out.append((swift, .notification(n)))
    }
    return out.sorted { $0.0.count > $1.0.count }
  }()

  /// `textPatterns` as bytes, and for each first byte the patterns that
  /// start with it, in `textPatterns` order (longest first).
  static let textPatternBytes: [[UInt8]] = textPatterns.map { Array($0.pattern.utf8) }
  static let textPatternsByFirstByte: [[Int]] = {
    var out = [[Int]](repeating: [], count: 256)
    for (i, p) in textPatternBytes.enumerated() { out[Int(p[0])].append(i) }
    return out
  }()

  /// The kind of a text line: the leftmost method or notification name in
  /// it, the longest at that place; a name is a whole word.
  static func textSymbol(_ line: String) -> LogSymbol? {
    var line = line
    return line.withUTF8 { textSymbol($0) }
  }

  static func textSymbol(_ bytes: UnsafeBufferPointer<UInt8>) -> LogSymbol? {
    let patterns = textPatternBytes, byFirst = textPatternsByFirstByte
    let n = bytes.count
    var i = 0
    while i < n {
      // A name starts a word.
      if i > 0 && isWord(bytes[i - 1]) { i += 1; continue }
      for k in byFirst[Int(bytes[i])] {
        let p = patterns[k]
        let end = i + p.count
        guard end <= n else { continue }
        var j = 1
        while j < p.count && bytes[i + j] == p[j] { j += 1 }
        guard j == p.count, !isWord(p[p.count - 1]) || end == n || !isWord(bytes[end]) else { continue }
        let atom = textPatterns[k].atom
        return LogSymbol(name: atom.name, atoms: [atom])
      }
      i += 1
    }
    return nil
  }

  // MARK: - Flutter and React Native

  static let flutterKey = Array("AppLifecycleState".utf8)
  static let reactNativeKey = Array("AppState".utf8)

  /// Flutter's iOS embedding turns the UIApplication notifications into
  /// states: resign and enter foreground are `inactive`, become active is
  /// `resumed`, enter background `paused`, terminate `detached`. `hidden`
  /// (Flutter 3.13+) has no notification of its own: the framework puts it
  /// on the way between `inactive` and `paused`, both ways (`Flutter.walk`).
  ///
  /// The state is the first word after `AppLifecycleState`: `$state` prints
  /// `AppLifecycleState.paused`, a handler that prints `state.name` after
  /// its own name `didChangeAppLifecycleState paused`.
  /// A prefix that names the type too (`AppLifecycleState: AppLifecycleState.paused`)
  /// is passed over: the state is the first such word that is a state.
  static func flutterSymbol(_ line: String) -> LogSymbol? {
    var from = line.startIndex
    while let r = line.range(of: "AppLifecycleState", range: from..<line.endIndex) {
      if let symbol = flutterState(line[r.upperBound...].drop { !$0.isLetter }.prefix { $0.isLetter }) { return symbol }
      from = r.upperBound
    }
    return nil
  }

  /// The same, on the line's bytes: a line without the word is passed at
  /// once, and one that is not ASCII is read as text (Unicode's letters).
  static func flutterSymbol(_ line: UnsafeBufferPointer<UInt8>) -> LogSymbol? {
    guard var at = find(flutterKey, in: line) else { return nil }
    guard isASCII(line) else { return flutterSymbol(String(decoding: line, as: UTF8.self)) }
    while true {
      var i = at + flutterKey.count
      while i < line.count && !isLetter(line[i]) { i += 1 }
      let start = i
      while i < line.count && isLetter(line[i]) { i += 1 }
      let word = String(decoding: UnsafeBufferPointer(rebasing: line[start..<i]), as: UTF8.self)
      if let symbol = flutterState(Substring(word)) { return symbol }
      guard let next = find(flutterKey, in: line, from: at + flutterKey.count) else { return nil }
      at = next
    }
  }

  static func flutterState(_ word: Substring) -> LogSymbol? {
    switch word {
    case "inactive": return LogSymbol(name: "AppLifecycleState.inactive",
                                      atoms: [.notification(.willResignActive), .notification(.willEnterForeground)])
    case "resumed": return LogSymbol(name: "AppLifecycleState.resumed", atoms: [.notification(.didBecomeActive)])
    case "paused": return LogSymbol(name: "AppLifecycleState.paused", atoms: [.notification(.didEnterBackground)])
    case "detached": return LogSymbol(name: "AppLifecycleState.detached", atoms: [.notification(.willTerminate)])
    case "hidden": return LogSymbol(name: Flutter.hidden, atoms: [])
    default: return nil
    }
  }

  /// React Native's AppState: `inactive` on resign, `background` on enter
  /// background and on enter foreground (the app is still in the
  /// background then), `active` on become active; a state equal to the
  /// last one is not sent.
  static func reactNativeSymbol(_ line: String) -> LogSymbol? {
    guard line.contains("AppState") else { return nil }
    let words = line.split { !($0.isLetter) }
    for w in words.reversed() {
      if let symbol = reactNativeState(w) { return symbol }
    }
    return nil
  }

  /// The same, on the line's bytes, as `flutterSymbol(_:)` reads them.
  static func reactNativeSymbol(_ line: UnsafeBufferPointer<UInt8>) -> LogSymbol? {
    guard find(reactNativeKey, in: line) != nil else { return nil }
    guard isASCII(line) else { return reactNativeSymbol(String(decoding: line, as: UTF8.self)) }
    var end = line.count
    while end > 0 {
      while end > 0 && !isLetter(line[end - 1]) { end -= 1 }
      var start = end
      while start > 0 && isLetter(line[start - 1]) { start -= 1 }
      let word = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
      if start < end, let symbol = reactNativeState(Substring(word)) { return symbol }
      end = start
    }
    return nil
  }

  static func reactNativeState(_ word: Substring) -> LogSymbol? {
    switch word {
    case "active": return LogSymbol(name: "AppState active", atoms: [.notification(.didBecomeActive)])
    case "inactive": return LogSymbol(name: "AppState inactive", atoms: [.notification(.willResignActive)])
    case "background":
      return LogSymbol(name: "AppState background", atoms: [.notification(.didEnterBackground), .notification(.willEnterForeground)])
    default: return nil
    }
  }

  // MARK: - Capacitor

  /// The words a Capacitor line is found by, before it is read as text.
  static let capacitorKeys = ["isActive", "Is active", "appStateChange", "pause", "resume"].map { Array($0.utf8) }

  /// Capacitor's App plugin (`@capacitor/app`, its iOS `AppPlugin.swift`)
  /// sends `appStateChange` with `isActive: true` on did become active and
  /// `false` on will resign active, `pause` on did enter background and
  /// `resume` on will enter foreground. What is read is the app's console
  /// lines, on a line Capacitor marks (its console's `⚡️`, the word
  /// Capacitor, or `appStateChange`): `isActive` or `Is active` followed by
  /// `true` or `false` (`App state changed. Is active? true`, as the
  /// plugin's example prints it; `appStateChange {"isActive":false}`),
  /// `appStateChange` followed by `true` or `false`, and `pause` or `resume`
  /// as the line's last word (`⚡️  [log] - pause`: the bare words are in
  /// every sentence). Capacitor's own bridge lines (`⚡️  TO JS …`, `⚡️  To
  /// Native -> …`) are read past: `TO JS {"isActive":true}` is also
  /// `App.getState()`'s answer, and every event's line comes again as the
  /// app's own. An Android logcat line (`I/Capacitor/Console`) is read
  /// past too: its states are Android's.
  static func capacitorSymbol(_ line: UnsafeBufferPointer<UInt8>) -> LogSymbol? {
    guard capacitorKeys.contains(where: { find($0, in: line) != nil }) else { return nil }
    return capacitorSymbol(String(decoding: line, as: UTF8.self))
  }

  static func capacitorSymbol(_ line: String) -> LogSymbol? {
    let marked = line.unicodeScalars.contains("\u{26A1}")  // the bolt as a scalar: with its variation selector it is another Character
      || line.range(of: "capacitor", options: .caseInsensitive) != nil || line.contains("appStateChange")
    guard marked, !line.contains("TO JS"), !line.contains("To Native"), !line.contains("Capacitor/Console") else { return nil }
    let active = LogSymbol(name: "appStateChange isActive true", atoms: [.notification(.didBecomeActive)])
    let resign = LogSymbol(name: "appStateChange isActive false", atoms: [.notification(.willResignActive)])
    for key in ["isActive", "Is active", "appStateChange"] {
      var from = line.startIndex
      while let r = line.range(of: key, range: from..<line.endIndex) {
        let value = line[r.upperBound...].drop { !$0.isLetter }.prefix { $0.isLetter }.lowercased()
        if value == "true" { return active }
        if value == "false" { return resign }
        from = r.upperBound
      }
    }
    switch line.split(whereSeparator: { !$0.isLetter }).last {
    case "pause": return LogSymbol(name: "Capacitor pause", atoms: [.notification(.didEnterBackground)])
    case "resume": return LogSymbol(name: "Capacitor resume", atoms: [.notification(.willEnterForeground)])
    default: return nil
    }
  }

  // MARK: - Breadcrumbs

  /// A Sentry event's `breadcrumbs.values` (or `breadcrumbs` as an array),
  /// the same event as Sentry's web API returns it (its `entries`), a bare
  /// array, or one breadcrumb a line. `app.lifecycle` states are
  /// notifications by `SentryStates` (`breadcrumbStates` picks the scheme),
  /// `device.event` `LOW_MEMORY` a memory warning (the notifications Sentry's
  /// iOS SDK listens to), `ui.lifecycle` a view controller's `viewDidAppear:`
  /// (`data.screen`: its class). Other breadcrumbs are read past; one of
  /// these whose field is no string is read past too, and said.
  static func readBreadcrumbs(_ content: String, states forced: SentryStates? = nil) throws -> ParsedLog {
    var log = ParsedLog(format: .sentry)
    var crumbs: [(Int, Any)] = []
    var sdk: (name: Any?, version: Any?)?
    let data = Data(content.utf8)
    let parsed = Result { try JSONSerialization.jsonObject(with: data) }
    if case .success(let whole) = parsed {
      let list: [Any]?
      if let o = whole as? [String: Any], let s = o["sdk"] as? [String: Any] {
        sdk = (s["name"], s["version"])
      }
      if let a = whole as? [Any] {
        guard !isListOfEvents(a) else {
          throw LogReadError(description: "a list of \(a.count) Sentry event\(a.count == 1 ? "" : "s"), not of breadcrumbs: "
                             + "explain reads the breadcrumbs of one event; give it one event")
        }
        list = a
      } else if let o = whole as? [String: Any] {
        if let b = o["breadcrumbs"] as? [String: Any] { list = b["values"] as? [Any] }
        else if let b = o["breadcrumbs"] as? [Any] { list = b }
        else if let entries = o["entries"] as? [Any] { list = breadcrumbEntry(entries) }
        else if o["category"] != nil { list = [o] }
        else { list = nil }
      } else { list = nil }
      guard let list else { throw LogReadError(description: "unknown log format: JSON without breadcrumbs") }
      log.unit = "breadcrumb"
      crumbs = list.enumerated().map { ($0.offset + 1, $0.element) }
    } else {
      var content = content
      try content.withUTF8 { all in
        try forEachLine(all) { n, line in
          guard !isBlank(line) else { return }
          let o: Any
          do { o = try JSONSerialization.jsonObject(with: Data(line)) } catch {
            // One document (or a first line) that does not parse: where the
            // parser stopped in it; a later line of JSON lines: that line.
            guard crumbs.isEmpty, case .failure(let whole) = parsed else {
              throw LogReadError(description: "unknown log format: line \(n) is not JSON, in a log of JSON lines"
                                 + " (\(whyNotJSON(error, in: Array(line), firstLine: nil)))", parse: true)
            }
            throw LogReadError(description: "unknown log format: JSON that does not parse (\(whyNotJSON(whole, in: Array(data), firstLine: 1)))",
                               parse: true)
          }
          crumbs.append((n, o))
        }
      }
    }
    let states = breadcrumbStates(crumbs, sdk: sdk, forced: forced, log: &log)
    var screens: Set<String> = []
    var kinds = StampKinds()
    // Fields that are no string, by name: the first breadcrumb, its value, and how many.
    var odd: [(field: String, first: Int, value: String, count: Int)] = []
    func notString(_ field: String, _ n: Int, _ value: Any) {
      if let i = odd.firstIndex(where: { $0.field == field }) { odd[i].count += 1 } else {
        odd.append((field, n, jsonShown(value), 1))
      }
    }
    for (n, c) in crumbs {
      guard let o = c as? [String: Any] else { log.ignored += 1; continue }
      let category = o["category"] as? String ?? ""
      let data = o["data"] as? [String: Any] ?? [:]
      var symbol: LogSymbol?
      var text = category
      switch category {
      case "app.lifecycle":
        if let v = data["state"], !(v is String) { notString("app.lifecycle data.state", n, v) }
        let state = data["state"] as? String ?? ""
        text += " " + state
        if let n = states.notification(state) { symbol = LogSymbol(name: text, atoms: [.notification(n)]) }
      case "device.event":
        if let v = data["action"], !(v is String) { notString("device.event data.action", n, v) }
        let action = data["action"] as? String ?? ""
        text += " " + action
        if action == "LOW_MEMORY" {
          symbol = LogSymbol(name: "device.event LOW_MEMORY", atoms: [.notification(.didReceiveMemoryWarning)])
        }
      case "ui.lifecycle":
        if let v = data["screen"], !(v is String) { notString("ui.lifecycle data.screen", n, v) }
        if let screen = data["screen"] as? String, !screen.isEmpty {
          // The text is shown; the kind's name keeps the class as logged.
          let shown = classShown(screen)
          text += " " + shown.text
          symbol = LogSymbol(name: "ui.lifecycle " + screen, atoms: [.screen(screen)])
          if screens.insert(screen).inserted {
            log.screens.append(screen)
            if shown.cut {
              log.notes.append("breadcrumb \(n): the screen \(shownName(screen)) makes a class name longer than a "
                               + "script's may be (\(nameMaxBytes) bytes): the answer and its script name its class by "
                               + "its first bytes, its length and a hash of all of it")
            }
          }
        }
      default: break
      }
      guard let symbol else { log.ignored += 1; continue }
      var time: Int64?
      if let t = o["timestamp"] {
        if isJSONBoolean(t) {
          // Foundation hands `true` over as a number that reads as 1.
          throw LogReadError(description: "breadcrumb \(n): timestamp \(jsonShown(t)) is not a time: neither ISO 8601 "
                             + "(2024-03-01T10:00:00.000Z) nor seconds since 1970")
        } else if let s = t as? String {
          do {
            let stamp = try Timestamp.leading(s)
            time = stamp?.micros
            if let stamp { kinds.see(line: n, daily: stamp.wrapsDaily) }
          } catch let e as Timestamp.Impossible {
            throw LogReadError(description: "breadcrumb \(n): \(e)")
          }
          guard time != nil else {
            throw LogReadError(description: "breadcrumb \(n): timestamp \(shownName(s)) is not a time: neither ISO 8601 "
                               + "(2024-03-01T10:00:00.000Z) nor seconds since 1970")
          }
        } else if let x = t as? Double {
          // Seconds since 1970; anything past the year 5000 or before 1970 is no
          // such time (a timestamp in microseconds is the likely slip).
          guard x.isFinite, x >= 0, x < LogReader.latestSeconds else {
            throw LogReadError(description: "breadcrumb \(n): timestamp \(x) is not a time in seconds since 1970 "
                               + "(at most \(Int64(LogReader.latestSeconds)))")
          }
          time = Int64((x * 1_000_000).rounded())
          kinds.see(line: n, daily: false)
        } else {
          throw LogReadError(description: "breadcrumb \(n): timestamp \(jsonShown(t)) is not a time: neither ISO 8601 "
                             + "(2024-03-01T10:00:00.000Z) nor seconds since 1970")
        }
      }
      log.add(line: n, text: text, symbol: symbol, time: time)
    }
    for f in odd {
      let more = f.count == 1 ? "" : " (and \(f.count - 1) more breadcrumb\(f.count == 2 ? "" : "s") like it)"
      log.notes.append("breadcrumb \(f.first): \(f.field) is \(f.value), not a string: read past\(more)")
    }
    dropPartialTimes(&log)
    kinds.dropMixedTimes(&log)
    return log
  }

  /// Why JSON did not parse, as Foundation says it, with the line where it
  /// stopped when it gives the place (a character's offset, or the number
  /// it could not read): `invalid value around character 7, line 2`.
  /// The breadcrumbs of an event as Sentry's web API returns it: an entry of
  /// `entries` whose `type` is `breadcrumbs`, its `data.values`.
  /// An event with several such entries has them read in turn.
  static func breadcrumbEntry(_ entries: [Any]) -> [Any]? {
    var all: [Any]?
    for case let entry as [String: Any] in entries where entry["type"] as? String == "breadcrumbs" {
      guard let values = (entry["data"] as? [String: Any])?["values"] as? [Any] else { continue }
      all = (all ?? []) + values
    }
    return all
  }

  /// A list whose items are whole events (with their own `breadcrumbs` or
  /// `entries`), not breadcrumbs.
  static func isListOfEvents(_ list: [Any]) -> Bool {
    !list.isEmpty && list.allSatisfy { item in
      guard let o = item as? [String: Any] else { return false }
      return o["category"] == nil && (o["breadcrumbs"] != nil || o["entries"] != nil)
    }
  }

  static func whyNotJSON(_ error: Error, in bytes: [UInt8], firstLine: Int?) -> String {
    var why = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    while why.hasSuffix(".") { why.removeLast() }
    if let f = why.first, f.isUppercase, why.dropFirst().first?.isLowercase == true { why = f.lowercased() + why.dropFirst() }
    var at: Int?
    if let r = why.range(of: "around character "), let k = Int(why[r.upperBound...].prefix { $0.isNumber }) {
      at = min(k, bytes.count)
    } else if why.hasPrefix("number "), let number = why.dropFirst(7).split(separator: " ").first {
      at = find(Array(number.utf8), in: bytes)
    } else if why.contains("end of file") {
      at = bytes.lastIndex { !(0x09...0x0D).contains($0) && $0 != 0x20 } ?? 0
    }
    guard let firstLine, let at else { return why }
    let line = firstLine + bytes[..<at].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return why + ", line \(line)"
  }

  static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { find(pattern, in: $0) }
  }

  /// Whether a value JSONSerialization read is `true` or `false`, which it
  /// gives as a number that `as? Double` reads as 1 or 0.
  static func isJSONBoolean(_ value: Any) -> Bool {
    guard let n = value as? NSNumber else { return value is Bool }
    return String(cString: n.objCType) == "c"
  }

  /// A JSON value as a message shows it, short: `9.9`, `true`, `null`, `{"a":1}`.
  static func jsonShown(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) else { return "no JSON value" }
    let text = String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    return text.utf8.count <= 40 ? text : String(decoding: text.utf8.prefix(40), as: UTF8.self) + "…"
  }

  /// A class name as explain shows it and as its script names the class.
  /// As logged when that is one line of printable text that holds no
  /// backslash, does not start with a quote and fits a script's class name
  /// (`nameMaxBytes`). Else between single quotes, escaped (`\\`, `\'`,
  /// `\n`, `\r`, `\t`, `\0`, `\x1b`, `\u{9b}`), since a script's class name
  /// holds no control character; and, past `nameMaxBytes`, cut where a
  /// character starts and followed by the name's length and a hash of all
  /// of it: `'Name…' (5000 bytes, #0123456789abcdef)`. Two names never give
  /// one class: a name as logged holds no backslash and starts with no
  /// quote; an escaped one always does both; a cut one has its length and
  /// hash after the quote that ends it (one with the same bytes before the
  /// cut, length and 64-bit hash is the only collision).
  public static func shownClass(_ name: String) -> String { classShown(name).text }

  /// `shownClass`, and whether it is cut.
  static func classShown(_ name: String) -> (text: String, cut: Bool) {
    let plain = !hasControls(name) && !name.utf8.contains(UInt8(ascii: "\\")) && !name.hasPrefix("'")
    if plain && name.utf8.count <= nameMaxBytes { return (name, false) }
    var pieces: [String] = []
    for u in name.unicodeScalars {
      switch u.value {
      case 0x5C: pieces.append("\\\\")
      case 0x27: pieces.append("\\'")
      case 0: pieces.append("\\0")
      case 0x0A: pieces.append("\\n")
      case 0x0D: pieces.append("\\r")
      case 0x09: pieces.append("\\t")
      case 0..<0x20, 0x7F: pieces.append("\\x" + hex2(u.value))
      case 0x80..<0xA0: pieces.append("\\u{" + hex2(u.value) + "}")
      default: pieces.append(String(u))
      }
    }
    let whole = "'" + pieces.joined() + "'"
    if whole.utf8.count <= nameMaxBytes { return (whole, false) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, of every byte
    for b in name.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
    let hex = String(hash, radix: 16)
    let tail = "…' (\(name.utf8.count) bytes, #\(String(repeating: "0", count: 16 - hex.count) + hex))"
    var out = "'"
    for piece in pieces {
      if out.utf8.count + piece.utf8.count + tail.utf8.count > nameMaxBytes { break }
      out += piece
    }
    return (out + tail, true)
  }

  /// Two hex digits.
  private static func hex2(_ v: UInt32) -> String {
    let digits = Array("0123456789abcdef")
    return String(digits[Int(v >> 4) & 15]) + String(digits[Int(v) & 15])
  }

  /// Whether `text` holds a C0 or C1 control character or DEL.
  static func hasControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
  }

  /// The scheme of a log's `app.lifecycle` states: the one named; else the
  /// 9.9 scheme when any state is `active` or `inactive`, which only it
  /// writes; else the one of the event's `sentry.cocoa` version (a hybrid
  /// SDK names itself and may give its own version); else the legacy scheme,
  /// which most stored events have, and said, since `foreground` then means
  /// either of two notifications.
  static func breadcrumbStates(_ crumbs: [(Int, Any)], sdk: (name: Any?, version: Any?)?,
                               forced: SentryStates?, log: inout ParsedLog) -> SentryStates {
    var seen: Set<String> = []
    for (_, c) in crumbs {
      if let o = c as? [String: Any], o["category"] as? String == "app.lifecycle",
         let state = (o["data"] as? [String: Any])?["state"] as? String { seen.insert(state) }
    }
    let scheme: SentryStates
    let newOnly = seen.intersection(["active", "inactive"])
    let cocoa = sdk?.name as? String == "sentry.cocoa"
    if let forced {
      scheme = forced
      if forced == .legacy, !newOnly.isEmpty {
        log.notes.append("app.lifecycle \(newOnly.sorted().joined(separator: " and ")) read past: "
                         + "--sentry-states legacy reads sentry-cocoa before 9.9.0, which wrote no such state")
      }
    } else if !newOnly.isEmpty {
      scheme = .v9_9
    } else if cocoa, let version = sdk?.version as? String, let byVersion = SentryStates.of(version: version) {
      scheme = byVersion
    } else {
      scheme = .legacy
      if seen.contains("foreground") {
        let why: String
        if let sdk {
          if cocoa {
            if let version = sdk.version {
              why = (version as? String).map { "sentry.cocoa version \(hasControls($0) ? shownName($0) : "\"\($0)\"") not read" }
                ?? "sentry.cocoa version \(jsonShown(version)), not a string"
            } else {
              why = "sentry.cocoa with no version"
            }
          } else if let name = sdk.name {
            why = (name as? String).map { "SDK \($0.isEmpty ? "unnamed" : shownClass($0)), not sentry.cocoa" }
              ?? "SDK name \(jsonShown(name)), not a string"
          } else {
            why = "SDK unnamed, not sentry.cocoa"
          }
        } else {
          why = "no SDK version"
        }
        log.notes.append("app.lifecycle foreground with no active or inactive state and \(why): read as sentry-cocoa "
                         + "before 9.9.0 (foreground: did become active); --sentry-states 9.9 reads it as will enter foreground")
      }
    }
    if !seen.isEmpty { log.sentryStates = scheme }
    return scheme
  }
}

/// A timestamp at the start of a line: `HH:MM:SS.mmm`, `YYYY-MM-DD HH:MM:SS.mmm`
/// (NSLog, Xcode) or ISO 8601 (`YYYY-MM-DDTHH:MM:SS.mmmZ`, with an offset).
struct Timestamp {
  var micros: Int64
  /// No date: the clock starts again at midnight.
  var wrapsDaily: Bool

  /// A stamp shaped like one (`2024-13-45 10:00:00.000`, `25:61:61.000`)
  /// that no clock shows: its text, and what is wrong with it.
  struct Impossible: Error, CustomStringConvertible {
    var text: String
    var why: String
    var description: String { "timestamp \(shownName(text)) is not a time: \(why)" }
  }

  static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                       "October", "November", "December"]

  /// The days of a month of the Gregorian calendar (proleptic before 1582, as ISO 8601 reads years).
  static func days(inMonth m: Int64, of y: Int64) -> Int64 {
    switch m {
    case 2: return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func leading(_ line: String) throws -> Timestamp? {
    var line = line
    return try line.withUTF8 { try leading($0) }
  }

  /// The stamp the line starts with (after spaces, tabs and "["), if it has
  /// one; a stamp of that shape whose date or time no clock shows throws.
  /// Two edges are read, not refused: `24:00:00` (all of its fraction zero)
  /// is the end of the day, the next day's midnight, as ISO 8601 long
  /// allowed; second 60 is a leap second, which UTC inserts as `23:59:60`
  /// (in a local time any minute, by its offset), read as the next minute's
  /// first second: one second off at most, which the waits' tolerance holds.
  static func leading(_ b: UnsafeBufferPointer<UInt8>) throws -> Timestamp? {
    let n = b.count
    var i = 0
    while i < n, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x5B { i += 1 }  // spaces and "["
    let start = i
    func digits(_ k: Int) -> Int64? {
      guard i + k <= n else { return nil }
      var v: Int64 = 0
      for j in i..<(i + k) {
        let d = b[j]
        guard d >= 0x30 && d <= 0x39 else { return nil }
        v = v * 10 + Int64(d - 0x30)
      }
      i += k
      return v
    }
    func take(_ c: UInt8) -> Bool {
      guard i < n, b[i] == c else { return false }
      i += 1
      return true
    }
    var date: (y: Int64, m: Int64, d: Int64)?
    if let y = digits(4), take(0x2D), let m = digits(2), take(0x2D), let d = digits(2), take(0x20) || take(0x54) {
      date = (y, m, d)
    } else {
      i = start
    }
    guard let h = digits(2), take(0x3A), let mi = digits(2), take(0x3A), let s = digits(2) else { return nil }
    var fraction: Int64 = 0, fractionDigits = false
    if take(0x2E) || take(0x2C) {
      var scale: Int64 = 100_000
      while i < n, b[i] >= 0x30 && b[i] <= 0x39 {
        fractionDigits = fractionDigits || b[i] != 0x30
        fraction += Int64(b[i] - 0x30) * scale
        scale /= 10
        i += 1
      }
    }
    var offset: (sign: UInt8, h: Int64, m: Int64)?
    if date != nil, take(0x5A) {
      // Z: UTC.
    } else if date != nil, i < n, b[i] == 0x2B || b[i] == 0x2D {
      // An offset from UTC: Z, +hhmm, +hh:mm.
      let sign = b[i]
      i += 1
      if let oh = digits(2) {
        _ = take(0x3A)
        offset = (sign, oh, digits(2) ?? 0)
      }
    }
    func impossible(_ why: String) -> Impossible {
      Impossible(text: String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self), why: why)
    }
    var days: Int64 = 0
    if let date {
      let (y, m, d) = date
      guard m >= 1 && m <= 12 else { throw impossible("there is no month \(m)") }
      let most = Timestamp.days(inMonth: m, of: y)
      guard d >= 1 && d <= most else {
        throw impossible(d == 0 ? "there is no day 0" : "\(months[Int(m) - 1])\(m == 2 ? " \(y)" : "") has \(most) days")
      }
      days = daysFromCivil(y, m, d)
    }
    if h == 24 {
      guard mi == 0, s == 0, !fractionDigits else { throw impossible("24:00:00 is the end of a day, and no time comes after it") }
    } else {
      guard h < 24 else { throw impossible("there is no hour \(h)") }
    }
    guard mi < 60 else { throw impossible("there is no minute \(mi)") }
    guard s <= 60 else { throw impossible("there is no second \(s) (60 is a leap second)") }
    var micros = (((days * 24 + h) * 60 + mi) * 60 + s) * 1_000_000 + fraction
    if let o = offset {
      guard o.h < 24, o.m < 60 else {
        throw impossible("there is no offset from UTC of \(o.sign == 0x2B ? "+" : "-")\(o.h < 10 ? "0" : "")\(o.h):\(o.m < 10 ? "0" : "")\(o.m)")
      }
      let shift = (o.h * 60 + o.m) * 60_000_000
      micros += o.sign == 0x2B ? -shift : shift
    }
    return Timestamp(micros: micros, wrapsDaily: date == nil)
  }

  /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}

extension LogReader {
  /// A clock that goes back between two lines. Without a date the time of
  /// day crossed midnight: read so, and said. With one, the log's clock was
  /// set back (a change of time zone or summer time in a local stamp) or
  /// its lines are out of order: the wait between the two is left free, and
  /// said, since the order of the lines still holds.
  static func checkClock(_ log: inout ParsedLog) {
    for i in log.events.indices.dropFirst() {
      guard let a = log.events[i - 1].time, let b = log.events[i].time, b < a else { continue }
      let unit = log.unit, this = log.events[i].line, before = log.events[i - 1].line
      if log.timesWrapDaily {
        log.notes.append("\(unit) \(this): its time of day is before that of \(unit) \(before); read as the next day (midnight passed)")
      } else {
        log.notes.append("\(unit) \(this): its time is \(formatNumber(Double(a - b) / 1_000_000)) s before that of \(unit) \(before) "
                         + "(a clock set back, or lines out of order); the wait between them is left free")
      }
    }
  }
}

/// Flutter's states in its framework's order, and the walk the framework
/// makes from one to another: since Flutter 3.13 a change reported by the
/// embedding is delivered as every state between (`hidden` between
/// `inactive` and `paused`, both ways), and `detached` after all the rest.
public enum Flutter {
  static let hidden = "AppLifecycleState.hidden"
  public static let states = ["detached", "resumed", "inactive", "hidden", "paused"]

  /// The state the iOS embedding reports for a notification.
  public static func state(of n: AppNotification) -> Int? {
    switch n {
    case .willTerminate: return 0
    case .didBecomeActive: return 1
    case .willResignActive, .willEnterForeground: return 2
    case .didEnterBackground: return 4
    default: return nil
    }
  }

  /// The states delivered going from `from` (-1: none yet, the first is
  /// delivered alone) to `to`, in order.
  public static func walk(from: Int, to: Int) -> [Int] {
    if from < 0 { return [to] }
    if from == to { return [] }
    if to == 0 { return Array((from + 1)..<states.count) + [0] }
    if from > to { return Array((to..<from).reversed()) }
    return Array((from + 1)...to)
  }
}
