import Testing
@testable import LifeSimExplain

/// What stands around a log's lines and is no part of them: the colours
/// Xcode and terminals put in (ANSI CSI sequences), a lone carriage return
/// ending each line, a UTF-8 byte-order mark; and UTF-16, refused with how
/// to convert it.
struct LogBytesAndEscapesTests {
  static func names(_ log: ParsedLog) -> [String] { log.events.map { log.symbols[$0.symbol].name } }

  @Test func aColouredLineIsRead() throws {
    let log = try LogReader.read(
      "applicationDidBecomeActive(_:)\n\u{1B}[33mapplicationWillResignActive(_:)\u{1B}[0m\napplicationDidEnterBackground(_:)\n")
    #expect(Self.names(log) == ["applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:"])
    #expect(log.ignored == 0)
    // The line is shown as logged (the answer escapes its controls).
    #expect(log.events[1].text == "\u{1B}[33mapplicationWillResignActive(_:)\u{1B}[0m")
  }

  @Test func aLogColouredThroughoutIsRead() throws {
    let log = try LogReader.read(
      "\u{1B}[2m10:00:00.000\u{1B}[0m \u{1B}[1;32mapplicationDidBecomeActive(_:)\u{1B}[0m\n"
        + "\u{1B}[2m10:00:02.000\u{1B}[0m \u{1B}[1;32mapplicationWillResignActive(_:)\u{1B}[0m\n")
    #expect(log.format == .text)
    #expect(Self.names(log) == ["applicationDidBecomeActive:", "applicationWillResignActive:"])
    #expect(log.events.map(\.time) == [36_000_000_000, 36_002_000_000])
  }

  @Test func colouredFlutterAndReactNativeLinesAreRead() throws {
    let flutter = try LogReader.read("AppLifecycleState.\u{1B}[33minactive\u{1B}[0m\nAppLifecycleState.\u{1B}[33mpaused\u{1B}[0m\n")
    #expect(flutter.format == .flutter && flutter.events.count == 2)
    let rn = try LogReader.read("AppState \u{1B}[32mactive\u{1B}[0m\nAppState \u{1B}[32mbackground\u{1B}[0m\n")
    #expect(rn.format == .reactNative && Self.names(rn) == ["AppState active", "AppState background"])
  }

  /// The escape is skipped, not read as a space: a name glued to a word
  /// through one is still no name, as it is without it.
  @Test func aNameGluedToAWordThroughAnEscapeIsNoName() throws {
    let log = try LogReader.read("x\u{1B}[33mapplicationDidBecomeActive(_:)\napplicationWillResignActive(_:)\n")
    #expect(Self.names(log) == ["applicationWillResignActive:"])
    #expect(log.ignored == 1)
  }

  @Test func aLoneCarriageReturnEndsALine() throws {
    let log = try LogReader.read(
      "application(_:didFinishLaunchingWithOptions:)\rapplicationDidBecomeActive(_:)\rapplicationWillResignActive(_:)\r")
    #expect(log.events.count == 3)
    #expect(log.events.map(\.line) == [1, 2, 3])
  }

  @Test func carriageReturnsAloneAndWithLineFeedsCountLinesAlike() throws {
    let log = try LogReader.read("# note\r\napplicationDidBecomeActive(_:)\rapplicationWillResignActive(_:)\n\napplicationDidEnterBackground(_:)\r\n")
    #expect(log.events.map(\.line) == [2, 3, 5])
    #expect(log.ignored == 1)
  }

  @Test func jsonLinesEndingInALoneCarriageReturnAreEachABreadcrumb() throws {
    let log = try LogReader.read(
      "{\"category\":\"app.lifecycle\",\"data\":{\"state\":\"background\"}}\r{\"category\":\"app.lifecycle\",\"data\":{\"state\":\"foreground\"}}\r",
      format: .sentry)
    #expect(log.events.map(\.line) == [1, 2])
  }

  @Test func aByteOrderMarkIsSkippedInEveryFormat() throws {
    let json = try LogReader.read("\u{FEFF}[{\"category\":\"app.lifecycle\",\"data\":{\"state\":\"background\"}}]")
    #expect(json.format == .sentry && json.events.count == 1)
    let text = try LogReader.read("\u{FEFF}10:00:00.000 applicationDidBecomeActive(_:)\n10:00:01.000 applicationWillResignActive(_:)\n")
    #expect(text.events.allSatisfy { $0.time != nil } && text.notes.isEmpty)
    let flutter = try LogReader.read("\u{FEFF}AppLifecycleState.paused\n")
    #expect(flutter.format == .flutter)
    let rn = try LogReader.read("\u{FEFF}AppState background\n", format: .reactNative)
    #expect(rn.events.count == 1)
  }

  @Test func utf16IsRefusedWithHowToConvertIt() throws {
    let text = "applicationDidBecomeActive(_:)\napplicationWillResignActive(_:)\n"
    let le = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let be = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    for (bytes, order, flag) in [([0xFF, 0xFE] + le, "little-endian", "UTF-16LE"), ([0xFE, 0xFF] + be, "big-endian", "UTF-16BE"),
                                 (le, "little-endian", "UTF-16LE"), (be, "big-endian", "UTF-16BE")] {
      #expect(throws: LogReadError.self) { try LogReader.read(bytes: bytes) }
      do { _ = try LogReader.read(bytes: bytes) } catch let e as LogReadError {
        #expect(e.description == "the log is UTF-16 (\(order)) and lifesim reads UTF-8; `iconv -f \(flag) -t UTF-8` converts it")
      }
    }
    // UTF-8 bytes are read.
    #expect(try LogReader.read(bytes: Array(text.utf8)).events.count == 2)
  }

  @Test func jsonThatDoesNotParseSaysWhere() throws {
    for (json, said) in [
      ("[{\"category\":\"app.lifecycle\",", "unexpected end of file during JSON parse, line 1"),
      ("[NaN]", "invalid value around character 1, line 1"),
      ("{\n  \"breadcrumbs\": [\n    {\"category\": \"app.lifecycle\", \"timestamp\": 1e400}\n  ]\n}", "line 3"),
      ("{\n  \"breadcrumbs\": {\n    \"values\": [1,,2]\n  }\n}", "line 3"),
    ] {
      do {
        _ = try LogReader.read(json)
        Issue.record("read: \(json)")
      } catch let e as LogReadError {
        #expect(e.description.hasPrefix("unknown log format: JSON that does not parse ("), "\(e)")
        #expect(e.description.contains(said), "\(e)")
        #expect(e.description.hasSuffix("; --format names the form"), "\(e)")
      }
    }
    // A later line of JSON lines is named as the line.
    do {
      _ = try LogReader.read("{\"category\":\"app.lifecycle\",\"data\":{\"state\":\"background\"}}\n{\"category\":\n", format: .sentry)
      Issue.record("read")
    } catch let e as LogReadError {
      #expect(e.description.hasPrefix("unknown log format: line 2 is not JSON, in a log of JSON lines ("), "\(e)")
    }
  }
}
