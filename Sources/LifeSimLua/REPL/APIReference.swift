/// docs/api.md: every function, method and field of the Lua API, made from
/// the rows the bridge registers (the same text `:help` shows), so the
/// reference cannot leave a row out or describe one that is gone.
/// `swift run generate-api-doc -o docs/api.md` writes it; a test fails when
/// the committed file differs.
public func apiReferenceMarkdown() -> String {
  apiReferenceMarkdown(API.rows.filter(\.isPublic))
}

func apiReferenceMarkdown(_ rows: [APIRow]) -> String {
  var out = """
    # The Lua API

    <!-- Generated from the bridge's API rows (Sources/LifeSimLua/API/) by
         `swift run generate-api-doc -o docs/api.md`; do not edit by hand. -->

    Every function, method and field a script can use, in the order `:help`
    lists them in `lifesim repl` (where `:help NAME` prints one entry). The
    guides in this folder show them at work; [scenarios.md](scenarios.md) is
    the place to start.

    Apps can be named by their bundle id wherever an app is expected
    (`dev:launch("com.example.notes")`). Durations are virtual seconds.

    """
  func section(_ title: String, _ intro: String, _ entries: [APIRow]) {
    guard !entries.isEmpty else { return }
    out += "\n## \(title)\n\n" + (intro.isEmpty ? "" : intro + "\n\n")
    for row in entries {
      out += "- `\(row.usage)`: \(row.summary)\n"
    }
  }
  func fields(_ kind: ObjectKind, _ entries: [APIRow]) {
    guard !entries.isEmpty else { return }
    out += "\nFields (read-only):\n\n"
    for row in entries { out += "- `\(kind.receiver).\(row.name)`: \(row.summary)\n" }
  }
  section("The `lifesim` table", "", rows.filter { $0.owner == .lifesim })
  section("Workloads: `lifesim.workload`", "", rows.filter { $0.owner == .workload })
  section("A workload (`workload:`)",
          "What `lifesim.workload.user` and `lifesim.workload.replay` return.",
          rows.filter { $0.owner == .workloadObject })
  let titles: [ObjectKind: String] = [
    .device: "A device (`dev`)", .app: "An app (`app`)", .trace: "A device's trace (`dev.trace`)",
    .context: "The code that runs (`ctx`)", .scene: "A scene (`scene`)", .task: "A background task (`task`)",
    .vc: "A view controller (`vc`)", .view: "A view (`view`)", .bgTask: "A BGTaskScheduler task (`task`)",
  ]
  for kind in ObjectKind.allCases {
    let methods = rows.filter { $0.owner == .method(kind) }
    let kindFields = rows.filter { $0.owner == .field(kind) }
    guard !methods.isEmpty || !kindFields.isEmpty else { continue }
    out += "\n## \(titles[kind] ?? kind.luaName)\n\n"
    for row in methods { out += "- `\(row.usage)`: \(row.summary)\n" }
    fields(kind, kindFields)
  }
  return out
}
