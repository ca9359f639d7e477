import ArgumentParser
import LifeSimLua

extension Lifesim {
  /// `lifesim stubs`: the Lua API as lua-language-server definitions.
  struct Stubs: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write the Lua API as lua-language-server (LuaLS) definitions, for an editor that completes and checks it.",
      discussion: """
        A `---@meta` file with a class per lifesim object (lifesim, a device, an \
        app, a scene, ctx, a task, a view controller, a view, a workload), each \
        function's parameters and, where it returns an object, its type, and \
        every callback and notification name as an alias type, so that a \
        misspelt app:on("sceneDidEnterBackgroud:") or dev:swipe_away() is \
        flagged as you type. Made from the same rows as docs/api.md; the \
        repository keeps a copy in types/lifesim.lua. Point the editor's \
        Lua.workspace.library at the folder that holds it (the README's stubs section).
        """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
      let text = luaLanguageServerStubs()
      if let output { try writeTextFile(output, text) } else { writeOut(text) }
    }
  }
}
