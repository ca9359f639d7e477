import LifeSimEngine
import LifeSimLua
import TextTable

import LifeSimPlatform

extension REPL {
  static func metaHelp(trace: String) -> String { """
    :help [name]      this text, or the documentation of an API function (:help launch, :help dev)
    :state            the devices' apps, scenes and top view controllers
    :time             the virtual time
    :trace on|off|jsonl   how each chunk's trace records are shown (now: \(trace))
    :save FILE.lua    write the session as a scenario script (lifesim run replays it)
    :reset            start again: a fresh Lua state and set-up
    :quit             leave (or Ctrl-D)
    Ctrl-C cancels the line being typed, or stops a running chunk.
    A chunk that is an expression prints its value; an unfinished one continues on >>.
    """
  }

  /// Runs a meta-command. Returns false to end the session.
  func meta(_ line: String) -> Bool {
    let words = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
    let command = words.first ?? ""
    let argument = words.count > 1 ? words[1].trimmingCharacters : nil
    switch command {
    case "quit", "q", "exit":
      return false
    case "help", "h", "?":
      if let argument {
        if let text = apiHelp(argument) { say(text) } else { printError(apiHelpMiss(argument)) }
      } else {
        say(Self.metaHelp(trace: traceMode.rawValue))
      }
    case "state":
      say(stateTable())
    case "time":
      let devices = runtime.createdDevices
      if devices.isEmpty { say("no device yet") }
      for (i, d) in devices.enumerated() {
        say((devices.count > 1 ? "dev\(i + 1) " : "") + "t=\(d.now) (\(formatNumber(d.now.seconds)) s)")
      }
    case "trace":
      guard let argument else {
        say("trace: \(traceMode.rawValue)")
        break
      }
      guard let mode = TraceMode(rawValue: argument) else {
        printError(":trace takes on, off or jsonl, not '\(argument)'")
        break
      }
      traceMode = mode
    case "save":
      guard let argument, !argument.isEmpty else {
        printError(":save needs a file name, e.g. :save session.lua")
        break
      }
      save(to: argument)
    case "reset":
      reset()
    default:
      printError("unknown command :\(command) (:help lists them)")
    }
    return true
  }

  private func save(to path: String) {
    do {
      let text = try session.text(ios: config.options.ios)
      if let file = config.file, sameFile(path, file) {
        printError("cannot save to \(path): it is the session's script \(file); choose another file")
        return
      }
      // The session read these too (`require`, `read_csv`): the saved script
      // would need them as they are.
      noteLoadedFiles()
      if let read = loadedFiles.first(where: { sameFile(path, $0.path) }) {
        let what = read.kind == .module ? "the module '\(read.name)' the session required" : "the data file '\(read.name)' the session read"
        printError("cannot save to \(path): it is \(what) (\(read.path)); choose another file")
        return
      }
      guard let f = fopen(path, "w") else {
        printError("cannot write \(path): \(String(cString: strerror(errno)))")
        return
      }
      var bytes = text
      let wrote = bytes.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count } && fflush(f) == 0
      let reason = errno
      guard fclose(f) == 0, wrote else {
        printError("cannot write \(path): \(String(cString: strerror(wrote ? errno : reason)))")
        return
      }
      say("saved \(session.chunks.count) chunk\(session.chunks.count == 1 ? "" : "s") to \(path)")
    } catch {
      printError("cannot save: \(error)")
    }
  }

  private func reset() {
    noteLoadedFiles()
    do {
      var options = config.options
      options.retainDevices = true
      options.output = runtime.options.output
      runtime = try LuaRuntime(options: options)
      start()
      say("reset")
    } catch {
      printError("cannot reset: \(error)")
    }
  }

  /// `:state`: one row per app of every device.
  func stateTable() -> String {
    let devices = runtime.createdDevices
    guard !devices.isEmpty else { return "no device yet" }
    var rows: [[String]] = []
    for (i, d) in devices.enumerated() {
      let name = devices.count > 1 ? "dev\(i + 1)" : "dev"
      for app in d.apps {
        let scenes = app.scenes.map { "\($0.number):\($0.state)" }.joined(separator: " ")
        let top = d.top(of: app.id).map { id -> String in
          let vc = d.viewController(id)
          return vc.instance > 1 ? "\(vc.spec.className) #\(vc.instance)" : vc.spec.className
        } ?? "-"
        let mb = app.state.isRunning ? app.footprintMB : 0
        rows.append([name, app.config.bundle, "\(app.state)", app.pid == 0 ? "-" : "\(app.pid)",
                     formatNumber(mb), scenes.isEmpty ? "-" : scenes, top])
      }
      if d.apps.isEmpty { rows.append([name, "(no apps)", "", "", "", "", ""]) }
    }
    let titles = ["device", "app", "state", "pid", "MB", "scenes", "top view controller"]
    let table = TextTable<[String]> { row in
      row.indices.map { Column(title: titles[$0], value: row[$0], align: $0 == 3 || $0 == 4 ? .right : .left) }
    }
    var header = ""
    for (i, d) in devices.enumerated() {
      header += (devices.count > 1 ? "dev\(i + 1)" : "dev") + ": iOS \(d.profile.version), t=\(d.now)"
      header += d.isLocked ? ", locked" : ""
      header += d.frontmost.map { ", frontmost \(d.apps[Int($0.index)].config.bundle)" } ?? ""
      header += "\n"
    }
    return header + (table.string(for: rows, style: Style.simple) ?? "")
  }
}

extension String {
  var trimmingCharacters: String {
    String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
  }
}

/// Whether two paths name the same existing file (device and inode), however
/// they are spelled or linked.
private func sameFile(_ a: String, _ b: String) -> Bool {
  var sa = stat(), sb = stat()
  guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
}
