// Appending formatted output to a byte buffer: what trace formatters write
// into. Each helper appends bytes in place, with no intermediate `String`
// (a `String` append checks capacity and ASCII-ness every time).

extension Array where Element == UInt8 {
  /// Appends a string's UTF-8 bytes.
  @inlinable
  public mutating func append(text s: String) {
    var s = s
    s.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends a string's UTF-8 bytes with its control characters but the tab
  /// escaped (`\n`, `\r`, `\x1b`, …): what a text trace line shows of free
  /// text, so that no string can end a line or send a terminal escape.
  @inlinable
  public mutating func append(line s: String) {
    var s = s
    s.withUTF8 { u in
      // The usual string has none: copied in one go. A tab ends no line and
      // moves no cursor but to the next column: `print("a", x)` shows one.
      guard u.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
        append(contentsOf: u)
        return
      }
      for b in u {
        switch b {
        case 0x0A: append(literal: "\\n")
        case 0x0D: append(literal: "\\r")
        case 0x09: append(b)
        case 0x5C: append(literal: "\\\\")
        case _ where b < 0x20 || b == 0x7F:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          append(literal: "\\x")
          append(hex[Int(b >> 4)])
          append(hex[Int(b & 0xF)])
        default: append(b)
        }
      }
    }
  }

  /// Appends a literal's bytes.
  @inlinable
  public mutating func append(literal s: StaticString) {
    s.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Lets `body` write at most `bound` bytes through a cursor, then appends
  /// what it wrote: the one place digits, times and escapes are formatted
  /// (`ByteCursor`), for these helpers and the JSONL writer alike.
  @inline(__always)
  mutating func write(atMost bound: Int, _ body: (inout ByteCursor) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { room in
      let start = room.baseAddress!
      var cursor = ByteCursor(start, end: start + bound)
      body(&cursor)
      append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.p - start))
    }
  }

  /// Appends an integer in decimal.
  public mutating func append(decimal n: Int64) { write(atMost: 20) { $0.decimal(n) } }

  /// Appends an integer in decimal.
  @inlinable
  public mutating func append(decimal n: Int) { append(decimal: Int64(n)) }

  /// A finite number as JSON and the text format write it: whole numbers
  /// without a fraction, others in their shortest exact form.
  public mutating func append(number x: Double) { write(atMost: 32) { $0.number(x) } }

  /// Appends `s` as a JSON string literal, quotes included.
  public mutating func append(jsonString s: String) {
    write(atMost: 6 * s.utf8.count + 2) { $0.jsonString(s) }
  }
}

extension SimTime {
  /// Appends `description` (seconds with six decimals) to `out`.
  public func append(to out: inout [UInt8]) { out.write(atMost: 21) { $0.time(self) } }
}
