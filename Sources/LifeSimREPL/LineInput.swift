import CEdit
import CLuaShim

import LifeSimPlatform

/// What reading one line gave.
enum LineResult: Equatable {
  case line(String)
  /// Ctrl-C at the prompt: drop what was typed.
  case interrupted
  /// Ctrl-D, or the end of piped input.
  case end
}

/// Where the REPL's lines come from.
protocol LineInput: AnyObject {
  func read(prompt: String) -> LineResult
  /// Remembers an entered line (history), if this input keeps one.
  func remember(_ line: String)
}

/// Piped input: plain lines, no prompt, no escape codes, so a session can be
/// scripted and tested.
final class PlainInput: LineInput {
  func read(prompt: String) -> LineResult {
    guard let line = readLine(strippingNewline: true) else { return .end }
    return .line(line)
  }

  func remember(_ line: String) {}
}

/// A terminal: libedit's line editing, history in a file, and Tab completion.
final class EditLineInput: LineInput {
  private let historyPath: String?

  /// The completion source, reached from libedit's C callbacks (there is one REPL
  /// per process, on the main thread).
  nonisolated(unsafe) static var complete: ((_ word: String, _ before: String) -> [String])?
  nonisolated(unsafe) private static var matches: [String] = []

  init(historyPath: String?) {
    self.historyPath = historyPath
    rl_readline_name = UnsafePointer(strdup("lifesim"))
    // A word for completion runs through '.' and ':' (dev:launch, lifesim.workload.user).
    let breaks = strdup(" \t\n\"'`@$><=;|&{(,+-*/%^#~[]")
    rl_basic_word_break_characters = UnsafePointer(breaks)
    rl_completer_word_break_characters = breaks
    rl_attempted_completion_function = { text, start, _ in
      rl_attempted_completion_over = 1  // never fall back to file names
      guard let text, let complete = EditLineInput.complete else { return nil }
      let word = String(cString: text)
      let line = rl_line_buffer.map { String(cString: $0) } ?? ""
      let before = String(decoding: Array(line.utf8.prefix(Int(start))), as: UTF8.self)
      EditLineInput.matches = complete(word, before)
      guard !EditLineInput.matches.isEmpty else { return nil }
      return rl_completion_matches(text) { _, state in
        let i = Int(state)
        guard i < EditLineInput.matches.count else { return nil }
        return strdup(EditLineInput.matches[i])
      }
    }
    rl_completion_append_character = 0
    using_history()
    stifle_history(1000)
    if let historyPath { _ = read_history(historyPath) }
  }

  func read(prompt: String) -> LineResult {
    _ = ls_sigint_take()
    guard let raw = readline(prompt) else {
      // libedit returns nothing both for Ctrl-D and for a read cut by SIGINT.
      if ls_sigint_take() != 0 {
        fputs("\n", stdout)
        return .interrupted
      }
      return .end
    }
    defer { free(raw) }
    if ls_sigint_take() != 0 { return .interrupted }
    return .line(String(cString: raw))
  }

  func remember(_ line: String) {
    guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return }
    add_history(line)
    // Written at once, so a session that dies keeps its history.
    if let historyPath { _ = write_history(historyPath) }
  }
}
