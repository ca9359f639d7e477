import Foundation
import LifeSimEngine

// `lifesim stubs`: the API as lua-language-server (LuaLS) `---@meta`
// definitions, made from the same rows as `:help` and docs/api.md, so that an
// editor completes every function and flags a misspelt method or callback.

/// The LuaLS class of each kind of object, and of the tables that are not objects.
private let stubClass: [ObjectKind: String] = [
  .device: "lifesim.Device", .app: "lifesim.App", .trace: "lifesim.Trace", .context: "lifesim.Context",
  .scene: "lifesim.Scene", .task: "lifesim.Task", .vc: "lifesim.ViewController", .view: "lifesim.View",
  .bgTask: "lifesim.BGTask",
]
private let workloadClass = "lifesim.Workload"

/// What a function returns, by its qualified name, where it is a lifesim
/// object or a known shape (the usage lines do not say). A test checks every
/// name is a row.
let stubReturns: [String: String] = [
  "lifesim.device": "lifesim.Device",
  "lifesim.experiment": "table",
  "lifesim.workload.user": workloadClass,
  "lifesim.workload.replay": workloadClass,
  "lifesim.workload.read_csv": "table[]",
  "workload:drive": "table",
  "dev:install": "lifesim.App",
  "dev:app": "lifesim.App?",
  "dev:mark": "integer",
  "app:open_scene": "lifesim.Scene",
  "trace:callbacks": "string[]",
  "trace:records": "table[]",
  "trace:text": "string",
  "ctx:begin_background_task": "lifesim.Task",
  "ctx:pending_tasks": "table[]",
  "vc:add_view": "lifesim.View",
  "vc:add_child": "lifesim.ViewController",
  "view:add_view": "lifesim.View",
]

/// A field's type, by its qualified name, where it is not plain data of
/// unknown shape. A test checks every name is a row.
let stubFieldTypes: [String: String] = [
  "dev.now": "number", "dev.ios": "integer", "dev.seed": "integer", "dev.trace": "lifesim.Trace",
  "dev.apps": "lifesim.App[]", "dev.frontmost": "lifesim.App?", "dev.locked": "boolean", "dev.interruption": "string?",
  "dev.switcher_open": "boolean", "dev.memory_mb": "number", "dev.per_process_limit_mb": "number", "dev.model": "string?",
  "dev.limit_measured": "boolean", "dev.debugger": "boolean", "dev.quirks": "string[]", "dev.profile": "table",
  "dev.passcode": "boolean", "dev.background_gpu": "boolean", "app.background_gpu": "boolean", "dev.memory_used_mb": "number", "dev.memory_level": "string", "dev.stats": "table",
  "dev.records_trace": "boolean",
  "app.bundle": "string", "app.state": "string", "app.system_state": "string", "app.pid": "integer",
  "app.launches": "integer", "app.running": "boolean", "app.model": "string", "app.scenes": "lifesim.Scene[]",
  "app.footprint_mb": "number", "app.exits_on_suspend": "boolean", "app.background_modes": "string[]",
  "app.background_time_remaining": "number?", "app.unsaved": "integer", "app.playing_audio": "boolean",
  "app.band": "string", "app.background_refresh_status": "string", "app.tasks": "lifesim.Task[]", "app.top": "lifesim.ViewController?",
  "app.stack": "lifesim.ViewController[]", "app.presented": "lifesim.ViewController?",
  "trace.count": "integer",
  "ctx.app": "lifesim.App", "ctx.callback": "string", "ctx.now": "number", "ctx.options": "table",
  "ctx.scene": "lifesim.Scene?", "ctx.vc": "lifesim.ViewController?", "ctx.view": "lifesim.View?",
  "ctx.environment": "table", "ctx.protected_data_available": "boolean",
  "scene.id": "integer", "scene.app": "lifesim.App", "scene.state": "string", "scene.connected": "boolean",
  "scene.closed": "boolean",
  "task.id": "integer", "task.name": "string", "task.app": "lifesim.App", "task.open": "boolean",
  "task.expired": "boolean",
  "vc.parent": "lifesim.ViewController?", "vc.children": "lifesim.ViewController[]", "vc.class": "string",
  "vc.instance": "integer", "vc.from": "string", "vc.app": "lifesim.App", "vc.state": "string",
  "vc.view_loaded": "boolean", "vc.in_window": "boolean", "vc.empty_view": "boolean", "vc.views": "lifesim.View[]",
  "view.class": "string", "view.instance": "integer", "view.from": "string", "view.app": "lifesim.App",
  "view.vc": "lifesim.ViewController?", "view.superview": "lifesim.View?", "view.views": "lifesim.View[]",
  "view.in_window": "boolean", "view.removed": "boolean",
  "bgtask.id": "string", "bgtask.kind": "string", "bgtask.running": "boolean", "bgtask.expired": "boolean",
  "bgtask.on_expire": "fun()?",
]

/// The key of `stubFieldTypes` for a field: its qualified name, except that a
/// BGTaskScheduler task (whose receiver is `task` too) is `bgtask.NAME`.
func stubFieldKey(_ kind: ObjectKind, _ name: String) -> String {
  (kind == .bgTask ? "bgtask" : kind.receiver) + "." + name
}

/// A parameter's type, by the name the usage line gives it.
private func parameterType(_ name: String) -> String {
  switch name {
  case "app": return "lifesim.App|string"
  case "app_or_scene": return "lifesim.App|lifesim.Scene|string"
  case "dev": return "lifesim.Device"
  case "spec", "options", "rows": return "table"
  case "seconds", "mb", "fraction", "n": return "number"
  case "name", "bundle", "url", "message", "id", "reason", "label", "selector", "kind": return "string"
  case "success", "on": return "boolean"
  case "on_expire": return "fun()"
  case "fn": return "function"
  case "actual", "expected": return "any"
  default: return "any"
  }
}

/// One parameter of a usage line: its name, and whether `[…]` makes it optional.
private struct StubParameter {
  var name: String
  var type: String
  var optional: Bool
}

/// The parameters of the call in a usage line (`dev:launch(app [, { url = "…" }])`):
/// the text between the call's parentheses, split at its top-level commas,
/// each piece named by what it is (an identifier, a table, a function, a
/// string literal). A call with a table argument (`dev:install{ … }`) takes one table.
private func stubParameters(_ row: APIRow) -> [StubParameter] {
  let u = Array(row.usage)
  let call = Array((row.owner.isMethodLike ? ":" : ".") + row.name)
  var open: Int?
  var k = 0
  while k + call.count < u.count {
    if Array(u[k..<k + call.count]) == call, u[k + call.count] == "(" || u[k + call.count] == "{" {
      open = k + call.count
      break
    }
    k += 1
  }
  guard let open else { return [] }
  if u[open] == "{" { return [StubParameter(name: "options", type: "table", optional: false)] }
  // Split the argument list at top-level commas, tracking brackets and strings.
  var pieces: [(text: String, optional: Bool)] = []
  var depth = 0, bracket = 0, inString = false
  var current = "", optionalNow = false
  var i = open + 1
  func word(_ w: String, at j: Int) -> Bool {
    let a = Array(w)
    guard j + a.count <= u.count, Array(u[j..<j + a.count]) == a else { return false }
    let before = j == 0 ? " " : u[j - 1], after = j + a.count < u.count ? u[j + a.count] : " "
    return !(before.isLetter || before == "_") && !(after.isLetter || after == "_")
  }
  scan: while i < u.count {
    let c = u[i]
    if inString {
      current.append(c)
      if c == "\"" { inString = false }
      i += 1
      continue
    }
    if word("function", at: i) { depth += 1; current += "function"; i += 8; continue }
    if word("end", at: i) { depth -= 1; current += "end"; i += 3; continue }
    switch c {
    case "\"": inString = true; current.append(c)
    case "(", "{": depth += 1; current.append(c)
    case ")", "}":
      if depth == 0 { break scan }
      depth -= 1
      current.append(c)
    case "[" where depth == 0: bracket += 1; optionalNow = true
    case "]" where depth == 0:
      bracket -= 1
      // `[x,] y`: the bracket closes after the comma, and y is not optional.
      if current.trimmingCharacters(in: .whitespaces).isEmpty { optionalNow = bracket > 0 }
    case "," where depth == 0:
      if !current.trimmingCharacters(in: .whitespaces).isEmpty { pieces.append((current, optionalNow)) }
      current = ""
      optionalNow = bracket > 0
    default: current.append(c)
    }
    i += 1
  }
  if !current.trimmingCharacters(in: .whitespaces).isEmpty { pieces.append((current, optionalNow)) }
  var used: Set<String> = []
  return pieces.enumerated().map { index, piece in
    let text = piece.text.trimmingCharacters(in: .whitespaces)
    var name: String
    var type: String
    if text.hasPrefix("function") || text == "fn" || text.hasPrefix("fn ") {
      name = "fn"
      type = row.owner == .method(.app) && row.name == "register_task" ? "fun(ctx: lifesim.Context, task: lifesim.BGTask)"
        : text.contains("(ctx") ? "fun(ctx: lifesim.Context)" : text.contains("(dev") ? "fun(dev: lifesim.Device): any" : "function"
    } else if text.hasPrefix("{") {
      name = "options"
      type = "table"
    } else if text.hasPrefix("\"") {
      name = "kind"
      // The usage's literal alternatives: "a" | "b".
      let literals = text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("\"") }
      type = row.name == "on" ? "lifesim.Callback|\"*\"" : row.name == "observe" ? "lifesim.Notification"
        : literals.count < 2 ? "string" : literals.joined(separator: "|")  // one literal is an example
      if row.name == "on" || row.name == "observe" { name = row.name == "on" ? "selector" : "notification" }
    } else if text.hasPrefix("true") {
      name = "on"
      type = "boolean"
    } else {
      name = String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
      if name.isEmpty || name == "…" { name = "arg\(index + 1)" }
      type = parameterType(name)
    }
    if used.contains(name) { name += "\(index + 1)" }
    used.insert(name)
    return StubParameter(name: name, type: type, optional: piece.optional)
  }
}

extension APIOwner {
  /// Whether a call is written `recv:name(…)`.
  fileprivate var isMethodLike: Bool {
    switch self {
    case .method, .workloadObject: return true
    default: return false
    }
  }
}

/// The LuaLS definitions of the whole API, as `lifesim stubs` writes them.
public func luaLanguageServerStubs() -> String {
  var out = """
    ---@meta lifesim
    -- lua-language-server definitions of lifesim's Lua API, made by `lifesim stubs`
    -- from the same rows as docs/api.md. Do not edit: run `lifesim stubs -o FILE` again.

    """
  out += "\n--- Every callback app:on takes.\n---@alias lifesim.Callback\n"
  out += Callback.allCases.map { "---| \"\($0.selector)\"\n" }.joined()
  out += "\n--- Every notification app:observe takes.\n---@alias lifesim.Notification\n"
  out += AppNotification.allCases.map { "---| \"\($0.name)\"\n" }.joined()

  func comment(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "--- \($0)\n" }.joined()
  }
  func function(_ row: APIRow, as header: String) -> String {
    var s = comment(row.summary) + comment("`\(row.usage)`")
    let params = stubParameters(row)
    for p in params { s += "---@param \(p.name)\(p.optional ? "?" : "") \(p.type)\n" }
    // An optional parameter before a required one (`lifesim.test(name, [options,] fn)`):
    // the call without it is an overload, or LuaLS reads fn as the options.
    if let last = params.lastIndex(where: { !$0.optional }), params[..<last].contains(where: \.optional) {
      let shorter = params.filter { !$0.optional }.map { "\($0.name): \($0.type)" }
      s += "---@overload fun(\(shorter.joined(separator: ", ")))\n"
    }
    if let r = stubReturns[row.qualifiedName] { s += "---@return \(r)\n" }
    return s + "function \(header)(\(params.map(\.name).joined(separator: ", "))) end\n\n"
  }
  func fields(of kind: ObjectKind) -> String {
    API.rows(of: .field(kind)).map { _, row in
      "---@field \(row.name) \(stubFieldTypes[stubFieldKey(kind, row.name)] ?? "any") \(row.summary.replacingOccurrences(of: "\n", with: " "))\n"
    }.joined()
  }

  // The lifesim table and its workload table.
  out += "\n---@class lifesim\n"
  for (_, row) in API.rows(of: .lifesim) {
    if case .value = row.body { out += "---@field \(row.name) any \(row.summary)\n" }
  }
  out += "---@field workload lifesim.workloads\nlifesim = {}\n\n"
  for (_, row) in API.rows(of: .lifesim) {
    if case .function = row.body { out += function(row, as: "lifesim.\(row.name)") }
  }
  out += "---@class lifesim.workloads\nlifesim.workload = {}\n\n"
  for (_, row) in API.rows(of: .workload) { out += function(row, as: "lifesim.workload.\(row.name)") }
  out += "---@class \(workloadClass)\nlocal Workload = {}\n\n"
  for (_, row) in API.rows(of: .workloadObject) { out += function(row, as: "Workload:\(row.name)") }

  // Each kind of object: its fields, then its methods.
  for kind in ObjectKind.allCases {
    let cls = stubClass[kind]!
    let local = cls.split(separator: ".").last.map(String.init)!
    out += "---@class \(cls)\n" + fields(of: kind) + "local \(local) = {}\n\n"
    for (_, row) in API.rows(of: .method(kind)) { out += function(row, as: "\(local):\(row.name)") }
  }
  return out
}
