// Appending formatted output to a byte buffer: what trace formatters write
// into. Each helper appends bytes in place, with no intermediate `String`
// (issue 16: a `String` append checks capacity and ASCII-ness every time).

extension Array where Element == UInt8 {
  /// Appends a string's UTF-8 bytes.
  @inlinable
  public mutating func append(text s: String) {
    var s = s
    s.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends a literal's bytes.
  @inlinable
  public mutating func append(literal s: StaticString) {
    s.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends an integer in decimal.
  public mutating func append(decimal n: Int64) {
    if n < 0 { append(0x2D) }
    var m = n.magnitude
    if m < 10 {
      append(UInt8(48 + m))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
    let count = Swift.withUnsafeMutableBytes(of: &digits) { buf -> Int in
      var i = 0
      while m > 0 {
        buf[i] = UInt8(48 + m % 10)
        m /= 10
        i += 1
      }
      return i
    }
    Swift.withUnsafeBytes(of: &digits) { buf in
      var i = count - 1
      while i >= 0 {
        append(buf[i])
        i -= 1
      }
    }
  }

  /// Appends an integer in decimal.
  @inlinable
  public mutating func append(decimal n: Int) { append(decimal: Int64(n)) }

  /// A finite number as JSON and the text format write it: whole numbers
  /// without a fraction, others in their shortest exact form.
  public mutating func append(number x: Double) { append(text: formatNumber(x)) }

  /// Appends `s` as a JSON string literal, quotes included.
  public mutating func append(jsonString s: String) {
    var s = s
    s.withUTF8 { u in
      // Most strings (bundle ids, class names) need no escape: append them whole.
      append(0x22)
      if !u.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
        append(contentsOf: u)
      } else {
        for b in u {
          switch b {
          case 0x22: append(literal: "\\\"")
          case 0x5C: append(literal: "\\\\")
          case 0x0A: append(literal: "\\n")
          case 0x0D: append(literal: "\\r")
          case 0x09: append(literal: "\\t")
          case _ where b < 0x20:
            let hex: StaticString = "0123456789abcdef"
            append(literal: "\\u00")
            hex.withUTF8Buffer { h in
              append(h[Int(b >> 4)])
              append(h[Int(b & 0xF)])
            }
          default: append(b)
          }
        }
      }
      append(0x22)
    }
  }
}

extension SimTime {
  /// Appends `description` (seconds with six decimals) to `out`.
  public func append(to out: inout [UInt8]) {
    if microseconds < 0 { out.append(0x2D) }
    let m = microseconds.magnitude
    out.append(decimal: Int64(m / 1_000_000))
    out.append(0x2E)
    var frac = m % 1_000_000
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (48, 48, 48, 48, 48, 48)
    withUnsafeMutableBytes(of: &digits) { buf in
      for i in stride(from: 5, through: 0, by: -1) {
        buf[i] = UInt8(48 + frac % 10)
        frac /= 10
      }
      out.append(contentsOf: buf)
    }
  }
}
