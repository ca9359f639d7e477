import ArgumentParser

/// `lifesim test -k EXPRESSION`, as pytest reads its `-k`: names combined with
/// `and`, `or`, `not` and parentheses. A name matches a case when it is part of
/// the case's name or of its file's path, ignoring case; words side by side
/// with no operator between are one name with spaces (`-k "home screen"`).
/// Several `-k` select the cases any of them selects.
struct TestSelection {
  indirect enum Expression {
    case name(String)
    case not(Expression)
    case and(Expression, Expression)
    case or(Expression, Expression)

    func matches(_ keywords: [String]) -> Bool {
      switch self {
      case .name(let n): return keywords.contains { $0.lowercased().contains(n) }
      case .not(let e): return !e.matches(keywords)
      case .and(let a, let b): return a.matches(keywords) && b.matches(keywords)
      case .or(let a, let b): return a.matches(keywords) || b.matches(keywords)
      }
    }
  }

  let expressions: [Expression]
  /// The `-k` texts, for messages.
  let texts: [String]

  init(_ texts: [String]) throws {
    self.texts = texts
    expressions = try texts.map { text in
      var parser = try Parser(text: text)
      return try parser.parse()
    }
  }

  var isEmpty: Bool { expressions.isEmpty }

  /// Whether a case is selected: its keywords are its file's path and, for a
  /// `lifesim.test` case, its name.
  func selects(_ keywords: [String]) -> Bool {
    expressions.isEmpty || expressions.contains { $0.matches(keywords) }
  }

  /// How the selection reads in a message: `-k 'a' or -k 'b'`.
  var description: String { texts.map { "-k '\($0)'" }.joined(separator: " or ") }

  /// A recursive-descent parser of one expression:
  /// `or := and ("or" and)*`, `and := not ("and" not)*`,
  /// `not := "not" not | "(" or ")" | name`.
  private struct Parser {
    enum Token: Equatable { case open, close, and, or, not, word(String) }
    var tokens: [Token] = []
    var at = 0
    let text: String

    init(text: String) throws {
      self.text = text
      var word = ""
      func flush() {
        guard !word.isEmpty else { return }
        switch word.lowercased() {
        case "and": tokens.append(.and)
        case "or": tokens.append(.or)
        case "not": tokens.append(.not)
        default: tokens.append(.word(word.lowercased()))
        }
        word = ""
      }
      for ch in text {
        if ch == "(" || ch == ")" {
          flush()
          tokens.append(ch == "(" ? .open : .close)
        } else if ch.isWhitespace {
          flush()
        } else {
          word.append(ch)
        }
      }
      flush()
    }

    /// Bounds that keep the parse and the match (both recursive) shallow.
    static let maxTokens = 1000, maxNesting = 100
    var nesting = 0

    mutating func parse() throws -> Expression {
      guard !tokens.isEmpty else { throw failure("it is empty") }
      guard tokens.count <= Self.maxTokens else {
        throw failure("it has \(tokens.count) words and parentheses; lifesim takes at most \(Self.maxTokens)")
      }
      let e = try parseOr()
      guard at == tokens.count else { throw failure("unexpected \(describe(tokens[at]))") }
      return e
    }

    private mutating func parseOr() throws -> Expression {
      var e = try parseAnd()
      while at < tokens.count, tokens[at] == .or {
        at += 1
        e = .or(e, try parseAnd())
      }
      return e
    }

    private mutating func parseAnd() throws -> Expression {
      var e = try parseNot()
      while at < tokens.count, tokens[at] == .and {
        at += 1
        e = .and(e, try parseNot())
      }
      return e
    }

    private mutating func parseNot() throws -> Expression {
      guard at < tokens.count else { throw failure("a name or '(' is missing at the end") }
      switch tokens[at] {
      case .not, .open:
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maxNesting else {
          throw failure("it nests 'not' and parentheses more than \(Self.maxNesting) deep")
        }
        at += 1
        if tokens[at - 1] == .not { return .not(try parseNot()) }
        let e = try parseOr()
        guard at < tokens.count, tokens[at] == .close else { throw failure("a ')' is missing") }
        at += 1
        return e
      case .word:
        var words: [String] = []
        while at < tokens.count, case .word(let w) = tokens[at] {
          words.append(w)
          at += 1
        }
        return .name(words.joined(separator: " "))
      default:
        throw failure("expected a name, got \(describe(tokens[at]))")
      }
    }

    private func describe(_ t: Token) -> String {
      switch t {
      case .open: return "'('"
      case .close: return "')'"
      case .and: return "'and'"
      case .or: return "'or'"
      case .not: return "'not'"
      case .word(let w): return "'\(w)'"
      }
    }

    private func failure(_ why: String) -> ValidationError {
      ValidationError("-k '\(text)': \(why) (names with and, or, not and parentheses, as pytest's -k)")
    }
  }
}
