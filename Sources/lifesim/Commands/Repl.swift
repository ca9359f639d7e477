import ArgumentParser
import LifeSimEngine
import LifeSimLua
import LifeSimREPL

import LifeSimPlatform

extension Lifesim {
  /// `lifesim repl [FILE.lua]`: an interactive session.
  struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Explore interactively: Lua with lifesim loaded, live traces, completion.",
      discussion: """
        With FILE, the file runs first and its globals stay. Without one, `dev` \
        (an iOS device, --ios) and `app` (com.example.notes on it) are ready. \
        Type :help in the session. On a terminal, lines are edited with libedit \
        and kept in ~/.lifesim_history; from a pipe, lines are read plainly, with \
        no prompt. --max-instructions applies to each chunk. NO_COLOR turns colour off.
        """
    )

    @Argument(help: "A script to run first.")
    var file: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
      if common.unsafe {
        printError("lifesim: warning: --unsafe gives the script the whole standard library (io, os, debug)")
      }
      let interactive = isatty(0) != 0
      let env = ProcessEnvironment()
      let colour = isatty(1) != 0 && env["NO_COLOR"].map(\.isEmpty) ?? true && env["TERM"] != "dumb"
      let history = env["HOME"].map { $0 + "/.lifesim_history" }
      let repl = try REPL(.init(file: file, options: common.runtimeOptions(), interactive: interactive,
                                colour: colour, historyPath: history))
      repl.run()
    }
  }
}

/// The environment, read without Foundation.
struct ProcessEnvironment {
  subscript(name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
