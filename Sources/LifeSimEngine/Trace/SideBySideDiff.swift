/// Lays two lists side by side, aligned on their longest common subsequence.
///
/// Each row starts with a mark: a space where both agree, `-` for a line only
/// in `expected`, `+` for one only in `actual`, and `~` where they differ.
///
///     sideBySideDiff(expected: ["a", "b"], actual: ["a", "c"])
///     //   expected | actual
///     //   a        | a
///     // ~ b        | c
public func sideBySideDiff(expected: [String], actual: [String]) -> String {
  let n = expected.count, m = actual.count
  var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
  for i in stride(from: n - 1, through: 0, by: -1) {
    for j in stride(from: m - 1, through: 0, by: -1) {
      lcs[i][j] = expected[i] == actual[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  var rows: [(Character, String, String)] = []
  var i = 0, j = 0
  while i < n || j < m {
    if i < n, j < m, expected[i] == actual[j] {
      rows.append((" ", expected[i], actual[j])); i += 1; j += 1
    } else if i < n, j < m, lcs[i + 1][j + 1] == lcs[i][j] {
      rows.append(("~", expected[i], actual[j])); i += 1; j += 1
    } else if j < m, i == n || lcs[i][j + 1] >= lcs[i + 1][j] {
      rows.append(("+", "", actual[j])); j += 1
    } else {
      rows.append(("-", expected[i], "")); i += 1
    }
  }
  // Each entry on one row: a line break or a tab inside one is shown
  // escaped, or it would start a row of its own and shift the columns.
  let shown = rows.map { ($0.0, diffCell($0.1), diffCell($0.2)) }
  let width = max(8, shown.map(\.1.count).max() ?? 0)
  func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
  var out = "  \(pad("expected")) | actual\n"
  for (mark, e, a) in shown { out += "\(mark) \(pad(e)) | \(a)\n" }
  out += "(- only expected, + only actual, ~ different)"
  return out
}

/// An entry of a diff on one row: control characters (a line break, a tab,
/// a NUL) and a backslash escaped as Lua writes them.
func diffCell(_ s: String) -> String {
  guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else { return s }
  var out = ""
  for u in s.unicodeScalars {
    switch u {
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\\": out += "\\\\"
    case _ where u.value < 0x20 || u.value == 0x7F: out += "\\x" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16, uppercase: true)
    default: out.unicodeScalars.append(u)
    }
  }
  return out
}
