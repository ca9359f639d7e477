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
  let width = max(8, expected.map(\.count).max() ?? 0)
  func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
  var out = "  \(pad("expected")) | actual\n"
  for (mark, e, a) in rows { out += "\(mark) \(pad(e)) | \(a)\n" }
  out += "(- only expected, + only actual, ~ different)"
  return out
}
