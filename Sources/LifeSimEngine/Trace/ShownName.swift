/// The most of a name a message quotes, in bytes (see `shownName`).
public let shownNameMaxBytes = 200

/// The longest name a script may hand the host (a bundle id, a class name, a
/// task or action name), in bytes: the bridge refuses a longer one, and
/// `lifesim explain` cuts a class name it writes to fit.
public let nameMaxBytes = 4096

/// A name as a message quotes it, the one way every layer does: between
/// single quotes, its control characters escaped (`\0`, `\n`, `\r`, `\t`, the
/// other C0 ones and DEL as `\x1b`, C1 ones as `\u{9b}`), so that the message
/// stays one line and a terminal obeys nothing in it; and at most
/// `shownNameMaxBytes` bytes of it, cut where a character starts and followed
/// by the name's length, so that a message stays short however long the name.
public func shownName(_ name: String) -> String {
  let n = name.utf8.count
  var kept = Substring(name)
  if n > shownNameMaxBytes {
    let utf8 = name.utf8
    var end = utf8.index(utf8.startIndex, offsetBy: shownNameMaxBytes)
    // Back to the start of a character's bytes (a UTF-8 continuation byte is 10xxxxxx).
    while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
    kept = Substring(utf8[..<end])
  }
  var out = "'"
  out.reserveCapacity(kept.utf8.count + 8)
  for u in kept.unicodeScalars {
    switch u.value {
    case 0: out += "\\0"
    case 0x0A: out += "\\n"
    case 0x0D: out += "\\r"
    case 0x09: out += "\\t"
    case 0..<0x20, 0x7F: out += "\\x" + hex(u.value)
    case 0x80..<0xA0: out += "\\u{" + hex(u.value) + "}"
    default: out.unicodeScalars.append(u)
    }
  }
  return n > shownNameMaxBytes ? out + "…' (\(n) bytes)" : out + "'"
}

private func hex(_ v: UInt32) -> String {
  let digits = Array("0123456789abcdef")
  return String(digits[Int(v >> 4) & 15]) + String(digits[Int(v) & 15])
}
