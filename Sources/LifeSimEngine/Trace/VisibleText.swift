/// `text` as it may reach a terminal: text from a script or a file is shown,
/// never obeyed. A NUL is written `\0` (C's string functions would cut the
/// text there), other control characters `\x1b`-style (an escape sequence
/// could recolour the terminal, move the cursor or forge a line), and C1
/// controls `\u{9b}`-style. Line breaks and tabs stay, as messages and
/// tracebacks use them.
public func visibleControls(_ text: String) -> String {
  guard text.unicodeScalars.contains(where: isHidden) else { return text }
  var out = ""
  out.reserveCapacity(text.utf8.count + 8)
  for u in text.unicodeScalars {
    if !isHidden(u) {
      out.unicodeScalars.append(u)
    } else if u.value == 0 {
      out += "\\0"
    } else if u.value < 0x80 {
      out += "\\x" + hexByte(u.value)
    } else {
      out += "\\u{" + hexByte(u.value) + "}"
    }
  }
  return out
}

private func isHidden(_ u: Unicode.Scalar) -> Bool {
  (u.value < 0x20 && u != "\n" && u != "\t") || (u.value >= 0x7f && u.value < 0xa0)
}

private func hexByte(_ v: UInt32) -> String {
  let digits = Array("0123456789abcdef")
  return String(digits[Int(v >> 4) & 15]) + String(digits[Int(v) & 15])
}
