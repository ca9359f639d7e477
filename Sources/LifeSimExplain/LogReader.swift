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
  public var symbols: [LogSymbol] = []
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
  public func symbol(of atom: LogAtom) -> Int? { symbols.firstIndex { $0.atoms.contains(atom) } }

  mutating func add(line: Int, text: String, symbol: LogSymbol, time: Int64?) {
    let i: Int
    if let found = symbols.firstIndex(where: { $0.name == symbol.name }) { i = found } else {
      i = symbols.count
      symbols.append(symbol)
    }
    events.append(LogEvent(line: line, text: text, symbol: i, time: time))
  }
}

/// Why a log could not be read: exit 2.
public struct LogReadError: Error, CustomStringConvertible {
  public let description: String
}

/// Reads a log: its format found from its content unless given.
public enum LogReader {
  /// The latest breadcrumb timestamp read as a time: the year 5000, in seconds since 1970.
  static let latestSeconds = 95_617_584_000.0
  /// The longest wait between two lines: the 100 years a run may take.
  static let maxGapMicros: Int64 = 3_153_600_000 * 1_000_000
  public static func read(_ content: String, format: LogFormat? = nil, sentryStates: SentryStates? = nil) throws -> ParsedLog {
    let format = try format ?? detect(content)
    var log: ParsedLog
    switch format {
    case .text: log = readLines(content, .text, match: textSymbol)
    case .flutter: log = readLines(content, .flutter, match: flutterSymbol)
    case .reactNative: log = readLines(content, .reactNative, match: reactNativeSymbol)
    case .sentry: log = try readBreadcrumbs(content, states: sentryStates)
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
    // JSON first; a line log may start with "[" too (a bracketed time).
    let start = content.drop { $0.isWhitespace }.first
    let json = start == "[" || start == "{"
    if json {
      do {
        _ = try readBreadcrumbs(content)
        return .sentry
      } catch let e as LogReadError where e.description.hasPrefix("breadcrumb ") {
        return .sentry  // breadcrumbs, with a bad time: read, it says which
      } catch {}
    }
    var counts: [LogFormat: Int] = [:]
    for line in content.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let s = String(line)
      if textSymbol(s) != nil { counts[.text, default: 0] += 1 }
      if flutterSymbol(s) != nil { counts[.flutter, default: 0] += 1 }
      if reactNativeSymbol(s) != nil { counts[.reactNative, default: 0] += 1 }
    }
    guard let best = [LogFormat.text, .flutter, .reactNative].max(by: { counts[$0, default: 0] < counts[$1, default: 0] }),
          counts[best, default: 0] > 0 else {
      if json {
        throw LogReadError(description: "unknown log format: JSON that is not a list of breadcrumbs "
                           + "(a Sentry event's breadcrumbs.values, an array, or JSON lines); --format names the form")
      }
      throw LogReadError(description: "no lifecycle lines in the log: no UIKit lifecycle method or UIApplication "
                         + "notification, AppLifecycleState or AppState line; --format names the form")
    }
    // Ties go to the first in this order: max keeps the first maximum.
    let top = counts[best, default: 0]
    return [LogFormat.text, .flutter, .reactNative].first { counts[$0, default: 0] == top } ?? best
  }

  static func readLines(_ content: String, _ format: LogFormat, match: (String) -> LogSymbol?) -> ParsedLog {
    var log = ParsedLog(format: format)
    var n = 0
    for line in content.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      n += 1
      var s = String(line)
      if s.hasSuffix("\r") { s.removeLast() }
      guard let symbol = match(s) else {
        if !s.allSatisfy(\.isWhitespace) { log.ignored += 1 }
        continue
      }
      let stamp = Timestamp.leading(s)
      if stamp?.wrapsDaily == true { log.timesWrapDaily = true }
      log.add(line: n, text: s.trimmingCharacters(in: .whitespaces), symbol: symbol, time: stamp?.micros)
    }
    // A log whose lines do not all carry a time has no times: the waits are then free.
    if log.events.contains(where: { $0.time == nil }) {
      for i in log.events.indices { log.events[i].time = nil }
    }
    return log
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

  /// The kind of a text line: the leftmost method or notification name in it.
  static func textSymbol(_ line: String) -> LogSymbol? {
    let bytes = Array(line.utf8)
    func isWord(_ b: UInt8) -> Bool {
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    var best: (at: Int, length: Int, atom: LogAtom)?
    for (pattern, atom) in textPatterns {
      let p = Array(pattern.utf8)
      guard p.count <= bytes.count else { continue }
      var i = 0
      while i + p.count <= bytes.count {
        if let b = best, i > b.at { break }
        if bytes[i] == p[0], bytes[i..<(i + p.count)].elementsEqual(p),
           i == 0 || !isWord(bytes[i - 1]),
           !isWord(p[p.count - 1]) || i + p.count == bytes.count || !isWord(bytes[i + p.count]) {
          if best == nil || i < best!.at || (i == best!.at && p.count > best!.length) { best = (i, p.count, atom) }
          break
        }
        i += 1
      }
    }
    return best.map { LogSymbol(name: $0.atom.name, atoms: [$0.atom]) }
  }

  // MARK: - Flutter and React Native

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
      switch w {
      case "active": return LogSymbol(name: "AppState active", atoms: [.notification(.didBecomeActive)])
      case "inactive": return LogSymbol(name: "AppState inactive", atoms: [.notification(.willResignActive)])
      case "background":
        return LogSymbol(name: "AppState background", atoms: [.notification(.didEnterBackground), .notification(.willEnterForeground)])
      default: continue
      }
    }
    return nil
  }

  // MARK: - Breadcrumbs

  /// A Sentry event's `breadcrumbs.values` (or `breadcrumbs` as an array), a
  /// bare array, or one breadcrumb a line. `app.lifecycle` states are
  /// notifications by `SentryStates` (`breadcrumbStates` picks the scheme),
  /// `device.event` `LOW_MEMORY` a memory warning (the notifications Sentry's
  /// iOS SDK listens to), `ui.lifecycle` a view controller's `viewDidAppear:`
  /// (`data.screen`: its class). Other breadcrumbs are read past.
  static func readBreadcrumbs(_ content: String, states forced: SentryStates? = nil) throws -> ParsedLog {
    var log = ParsedLog(format: .sentry)
    var crumbs: [(Int, Any)] = []
    var sdk: (name: String, version: String)?
    let data = Data(content.utf8)
    if let whole = try? JSONSerialization.jsonObject(with: data) {
      let list: [Any]?
      if let o = whole as? [String: Any], let s = o["sdk"] as? [String: Any] {
        sdk = (s["name"] as? String ?? "", s["version"] as? String ?? "")
      }
      if let a = whole as? [Any] { list = a } else if let o = whole as? [String: Any] {
        if let b = o["breadcrumbs"] as? [String: Any] { list = b["values"] as? [Any] }
        else if let b = o["breadcrumbs"] as? [Any] { list = b }
        else if o["category"] != nil { list = [o] }
        else { list = nil }
      } else { list = nil }
      guard let list else { throw LogReadError(description: "unknown log format: JSON without breadcrumbs") }
      log.unit = "breadcrumb"
      crumbs = list.enumerated().map { ($0.offset + 1, $0.element) }
    } else {
      var n = 0
      for line in content.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
        n += 1
        guard !line.allSatisfy(\.isWhitespace) else { continue }
        guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
          throw LogReadError(description: "unknown log format: line \(n) is not JSON, in a log of JSON lines")
        }
        crumbs.append((n, o))
      }
    }
    let states = breadcrumbStates(crumbs, sdk: sdk, forced: forced, log: &log)
    for (n, c) in crumbs {
      guard let o = c as? [String: Any] else { log.ignored += 1; continue }
      let category = o["category"] as? String ?? ""
      let data = o["data"] as? [String: Any] ?? [:]
      var symbol: LogSymbol?
      var text = category
      switch category {
      case "app.lifecycle":
        let state = data["state"] as? String ?? ""
        text += " " + state
        if let n = states.notification(state) { symbol = LogSymbol(name: text, atoms: [.notification(n)]) }
      case "device.event":
        let action = data["action"] as? String ?? ""
        text += " " + action
        if action == "LOW_MEMORY" {
          symbol = LogSymbol(name: "device.event LOW_MEMORY", atoms: [.notification(.didReceiveMemoryWarning)])
        }
      case "ui.lifecycle":
        if let screen = data["screen"] as? String, !screen.isEmpty {
          text += " " + screen
          symbol = LogSymbol(name: "ui.lifecycle " + screen, atoms: [.screen(screen)])
          if !log.screens.contains(screen) { log.screens.append(screen) }
        }
      default: break
      }
      guard let symbol else { log.ignored += 1; continue }
      var time: Int64?
      if let s = o["timestamp"] as? String { time = Timestamp.leading(s)?.micros }
      else if let x = o["timestamp"] as? Double {
        // Seconds since 1970; anything past the year 5000 or before 1970 is no
        // such time (a timestamp in microseconds is the likely slip).
        guard x.isFinite, x >= 0, x < LogReader.latestSeconds else {
          throw LogReadError(description: "breadcrumb \(n): timestamp \(x) is not a time in seconds since 1970 "
                             + "(at most \(Int64(LogReader.latestSeconds)))")
        }
        time = Int64((x * 1_000_000).rounded())
      }
      log.add(line: n, text: text, symbol: symbol, time: time)
    }
    if log.events.contains(where: { $0.time == nil }) {
      for i in log.events.indices { log.events[i].time = nil }
    }
    return log
  }

  /// The scheme of a log's `app.lifecycle` states: the one named; else the
  /// 9.9 scheme when any state is `active` or `inactive`, which only it
  /// writes; else the one of the event's `sentry.cocoa` version (a hybrid
  /// SDK names itself and may give its own version); else the legacy scheme,
  /// which most stored events have, and said, since `foreground` then means
  /// either of two notifications.
  static func breadcrumbStates(_ crumbs: [(Int, Any)], sdk: (name: String, version: String)?,
                               forced: SentryStates?, log: inout ParsedLog) -> SentryStates {
    var seen: Set<String> = []
    for (_, c) in crumbs {
      if let o = c as? [String: Any], o["category"] as? String == "app.lifecycle",
         let state = (o["data"] as? [String: Any])?["state"] as? String { seen.insert(state) }
    }
    let scheme: SentryStates
    let newOnly = seen.intersection(["active", "inactive"])
    if let forced {
      scheme = forced
      if forced == .legacy, !newOnly.isEmpty {
        log.notes.append("app.lifecycle \(newOnly.sorted().joined(separator: " and ")) read past: "
                         + "--sentry-states legacy reads sentry-cocoa before 9.9.0, which wrote no such state")
      }
    } else if !newOnly.isEmpty {
      scheme = .v9_9
    } else if let sdk, sdk.name == "sentry.cocoa", let byVersion = SentryStates.of(version: sdk.version) {
      scheme = byVersion
    } else {
      scheme = .legacy
      if seen.contains("foreground") {
        let why = sdk.map { $0.name == "sentry.cocoa" ? "sentry.cocoa version \"\($0.version)\" not read"
                                                      : "SDK \($0.name.isEmpty ? "unnamed" : $0.name), not sentry.cocoa" }
          ?? "no SDK version"
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

  static func leading(_ line: String) -> Timestamp? {
    var b = Array(line.utf8)[...]
    while let f = b.first, f == 0x20 || f == 0x09 || f == 0x5B { b = b.dropFirst() }  // spaces and "["
    func digits(_ n: Int) -> Int64? {
      guard b.count >= n else { return nil }
      var v: Int64 = 0
      for d in b.prefix(n) {
        guard d >= 0x30 && d <= 0x39 else { return nil }
        v = v * 10 + Int64(d - 0x30)
      }
      b = b.dropFirst(n)
      return v
    }
    func take(_ c: UInt8) -> Bool {
      guard b.first == c else { return false }
      b = b.dropFirst()
      return true
    }
    var days: Int64 = 0
    var dated = false
    let save = b
    if let y = digits(4), take(0x2D), let m = digits(2), take(0x2D), let d = digits(2), take(0x20) || take(0x54) {
      days = daysFromCivil(y, m, d)
      dated = true
    } else {
      b = save
    }
    guard let h = digits(2), take(0x3A), let mi = digits(2), take(0x3A), let s = digits(2), h < 24, mi < 60, s < 61 else {
      return nil
    }
    var micros = ((days * 24 + h) * 60 + mi) * 60 + s
    micros *= 1_000_000
    if take(0x2E) || take(0x2C) {
      var scale: Int64 = 100_000
      while let d = b.first, d >= 0x30 && d <= 0x39 {
        micros += Int64(d - 0x30) * scale
        scale /= 10
        b = b.dropFirst()
      }
    }
    if dated {
      // An offset from UTC: Z, +hhmm, +hh:mm.
      if let sign = b.first, sign == 0x2B || sign == 0x2D {
        b = b.dropFirst()
        if let oh = digits(2) {
          _ = take(0x3A)
          let om = digits(2) ?? 0
          let offset = (oh * 60 + om) * 60_000_000
          micros += sign == 0x2B ? -offset : offset
        }
      }
    }
    return Timestamp(micros: micros, wrapsDaily: !dated)
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
