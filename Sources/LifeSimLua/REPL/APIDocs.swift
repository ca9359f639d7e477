/// One entry of the API reference that the REPL's `:help` shows (SPEC §2).
public struct APIDoc: Sendable {
  /// The name as scripts write it: `lifesim.device`, `dev:launch`, `ctx:work`.
  public let name: String
  /// The call with its arguments.
  public let usage: String
  /// What it does, in a sentence or two.
  public let summary: String
}

/// The receivers' names in `:help`, one per kind of object, as SPEC §2 writes them.
let receiverNames: [ObjectKind: String] = [
  .device: "dev", .app: "app", .vc: "vc", .view: "view", .scene: "scene",
  .trace: "trace", .context: "ctx", .task: "task",
]

/// Every function of the Lua API. A test checks that each method the bridge
/// registers has an entry here.
public let apiDocs: [APIDoc] = [
  // lifesim.*
  APIDoc(name: "lifesim.device", usage: "lifesim.device{ ios = 17, model = \"iPhone 11\", memory_mb = 4096, seed = 1, debugger = false, quirks = {…}, passcode = true, trace = true }",
         summary: "Makes a virtual device running an OS profile. Every key is optional; seed defaults to --seed."),
  APIDoc(name: "lifesim.expect_callbacks", usage: "lifesim.expect_callbacks(actual, expected)",
         summary: "Fails with a side-by-side diff unless the two lists of selectors are equal."),
  APIDoc(name: "lifesim.test", usage: "lifesim.test(name, function() … end)",
         summary: "A named test case: lifesim test reports it as passed or failed."),
  APIDoc(name: "lifesim.experiment", usage: "return lifesim.experiment{ name, params = { k = {…} }, seeds = N, run = function(p, seed) … return { metric = n } end }",
         summary: "Declares a parameter grid for lifesim batch."),
  APIDoc(name: "lifesim.workload.user", usage: "lifesim.workload.user{ zipf = 1.1, switch_every = 180, … }",
         summary: "A seeded user who switches between apps (Zipf popularity, exponential gaps); drive it with workload:drive(dev, { days = 7 })."),
  APIDoc(name: "lifesim.workload.replay", usage: "lifesim.workload.replay(rows)",
         summary: "Recorded usage, rows { t = seconds, app = bundle, event = \"open\" }; drive it with workload:drive(dev)."),
  APIDoc(name: "lifesim.workload.read_csv", usage: "lifesim.workload.read_csv(\"usage.csv\")",
         summary: "Reads an app-usage trace beside the script as rows { t, app, event }."),
  APIDoc(name: "workload:drive", usage: "workload:drive(dev [, { days =, hours =, minutes =, seconds = }])",
         summary: "Runs a workload on a device; returns what the user did ({ switches, locks, notifications })."),
  APIDoc(name: "lifesim.callbacks", usage: "lifesim.callbacks", summary: "Every selector lifesim models, for app:on."),
  APIDoc(name: "lifesim.ios_versions", usage: "lifesim.ios_versions", summary: "The iOS versions with a profile."),
  APIDoc(name: "lifesim.quirks", usage: "lifesim.quirks", summary: "The documented variants a device can select, each with what it changes."),
  APIDoc(name: "lifesim.version", usage: "lifesim.version", summary: "lifesim's version."),
  // device
  APIDoc(name: "dev:install", usage: "dev:install{ bundle = \"com.example.notes\", scenes =, footprint_mb =, background_modes = {…}, exits_on_suspend =, root = { class =, from = } }",
         summary: "Installs an app and returns it. Only bundle is required."),
  APIDoc(name: "dev:launch", usage: "dev:launch(app [, { url = \"…\" }])", summary: "Taps the app's icon: a cold launch, or a return to the foreground."),
  APIDoc(name: "dev:open_url", usage: "dev:open_url(app, url)", summary: "Opens a URL in the app, launching it if needed."),
  APIDoc(name: "dev:home", usage: "dev:home()", summary: "Presses Home: the frontmost app goes to the background."),
  APIDoc(name: "dev:lock", usage: "dev:lock()", summary: "Locks the device."),
  APIDoc(name: "dev:unlock", usage: "dev:unlock()", summary: "Unlocks the device."),
  APIDoc(name: "dev:interrupt", usage: "dev:interrupt(\"call\" | \"alert\" | \"control_center\" | \"notification_center\" | \"siri\")",
         summary: "An interruption over the frontmost app (it resigns active)."),
  APIDoc(name: "dev:end_interrupt", usage: "dev:end_interrupt()", summary: "Ends the interruption."),
  APIDoc(name: "dev:switcher", usage: "dev:switcher()", summary: "Opens the app switcher."),
  APIDoc(name: "dev:switch_to", usage: "dev:switch_to(app)", summary: "Picks an app in the switcher."),
  APIDoc(name: "dev:kill", usage: "dev:kill(app)", summary: "Force-quits the app from the switcher."),
  APIDoc(name: "dev:memory_warning", usage: "dev:memory_warning()", summary: "Sends a memory warning, as Simulator's \"Simulate Memory Warning\"."),
  APIDoc(name: "dev:advance", usage: "dev:advance(seconds)", summary: "Runs the virtual clock forward, firing everything due."),
  APIDoc(name: "dev:at", usage: "dev:at(seconds, function() … end)", summary: "Schedules a function at an absolute virtual time."),
  APIDoc(name: "dev:after", usage: "dev:after(seconds, function() … end)", summary: "Schedules a function after a delay."),
  APIDoc(name: "dev:run", usage: "dev:run()", summary: "Runs until nothing is scheduled (bounded by --max-time)."),
  APIDoc(name: "dev:mark", usage: "local m = dev:mark()", summary: "A position in the trace, for since = m filters."),
  APIDoc(name: "dev:app", usage: "dev:app(bundle)", summary: "The installed app with that bundle id, or nil."),
  APIDoc(name: "dev:log", usage: "dev:log(message)", summary: "Writes a log record into the trace."),
  APIDoc(name: "dev:background_fetch", usage: "dev:background_fetch(app)", summary: "A background fetch: launches or wakes the app in the background."),
  APIDoc(name: "dev:silent_push", usage: "dev:silent_push(app)", summary: "A silent push: launches or wakes the app in the background."),
  APIDoc(name: "dev:policy", usage: "dev:policy{ background_time =, watchdog = {…}, memory_warning_at =, jetsam_at =, choose_victim = fn }",
         summary: "Changes the named OS policies and keeps the others; dev:policy() returns those in force."),
  APIDoc(name: "dev:rotate", usage: "dev:rotate()", summary: "Rotates the device: a layout pass without appearance callbacks."),
  // app
  APIDoc(name: "app:on", usage: "app:on(\"selector\" | \"*\", function(ctx) … end)", summary: "Handles a callback of the app, its scenes, view controllers and views."),
  APIDoc(name: "app:observe", usage: "app:observe(\"UIApplication…Notification\", function(ctx) … end)", summary: "Observes a notification the app receives."),
  APIDoc(name: "app:open_scene", usage: "local s = app:open_scene()", summary: "Opens another window (scene apps)."),
  APIDoc(name: "app:push", usage: "app:push{ class =, from = \"storyboard\" | \"xib\" | \"code\", on = { … } }", summary: "Pushes a view controller onto the navigation stack."),
  APIDoc(name: "app:pop", usage: "app:pop()", summary: "Pops the top view controller."),
  APIDoc(name: "app:pop_gesture", usage: "app:pop_gesture{ cancel = true | false }", summary: "An interactive pop, finished or cancelled half way."),
  APIDoc(name: "app:present", usage: "app:present(spec [, { style = \"fullScreen\" | \"pageSheet\" | \"formSheet\" | \"overFullScreen\" }])",
         summary: "Presents a view controller modally; the default style depends on the profile."),
  APIDoc(name: "app:dismiss", usage: "app:dismiss()", summary: "Dismisses the presented view controller."),
  APIDoc(name: "app:dismiss_gesture", usage: "app:dismiss_gesture{ cancel = true | false }", summary: "An interactive sheet dismissal, finished or cancelled."),
  // view controllers and views
  APIDoc(name: "vc:add_view", usage: "vc:add_view{ class =, from = \"code\" | \"xib\" }", summary: "Adds a view to the view controller's view."),
  APIDoc(name: "vc:load_view", usage: "vc:load_view()", summary: "Loads the view if it is not loaded (loadViewIfNeeded)."),
  APIDoc(name: "view:add_view", usage: "view:add_view{ class =, from = \"code\" | \"xib\" }", summary: "Adds a subview."),
  APIDoc(name: "view:remove", usage: "view:remove()", summary: "Removes the view from its superview."),
  // scenes
  APIDoc(name: "scene:close", usage: "scene:close()", summary: "The user closes the window: disconnect, then discard."),
  APIDoc(name: "scene:disconnect", usage: "scene:disconnect()", summary: "The system reclaims a background scene; it reconnects later."),
  // trace
  APIDoc(name: "trace:callbacks", usage: "dev.trace:callbacks{ app =, since =, vc = }", summary: "The selectors delivered, in order; every filter is optional."),
  APIDoc(name: "trace:records", usage: "dev.trace:records{ app =, kind =, since = }", summary: "The records as tables with the JSONL field names."),
  APIDoc(name: "trace:text", usage: "dev.trace:text{ since =, format = \"text\" | \"jsonl\" }", summary: "The trace as one string."),
  // ctx
  APIDoc(name: "ctx:work", usage: "ctx:work(seconds)", summary: "The handler takes that long (watchdogs see it)."),
  APIDoc(name: "ctx:after", usage: "ctx:after(seconds, function(ctx) … end)", summary: "An app timer; it does not fire while the app is suspended."),
  APIDoc(name: "ctx:begin_background_task", usage: "local task = ctx:begin_background_task(name [, on_expire])", summary: "Asks for background time."),
  APIDoc(name: "ctx:play_audio", usage: "ctx:play_audio(true | false)", summary: "Starts or stops audio (needs the audio background mode)."),
  APIDoc(name: "ctx:allocate", usage: "ctx:allocate(mb)", summary: "The app's footprint grows by mb."),
  APIDoc(name: "ctx:release", usage: "ctx:release(mb)", summary: "The app's footprint shrinks by mb."),
  APIDoc(name: "ctx:dirty", usage: "ctx:dirty([n])", summary: "The user made n unsaved changes (lost if the process dies)."),
  APIDoc(name: "ctx:save", usage: "ctx:save()", summary: "Saves the unsaved changes."),
  APIDoc(name: "ctx:complete", usage: "ctx:complete()", summary: "A background launch's work is done (its completion handler)."),
  APIDoc(name: "task:finish", usage: "task:finish()", summary: "Ends the background task (endBackgroundTask:)."),
]

/// The `:help` text for `name`: an entry (`dev:launch`, `lifesim.device`), every
/// entry with that short name (`launch`), or a kind of object (`dev`, `app`) with
/// its methods and fields. Nil when nothing matches.
public func apiHelp(_ name: String) -> String? {
  if let doc = apiDocs.first(where: { $0.name == name }) { return render(doc) }
  if let (kind, receiver) = receiverNames.first(where: { $0.value == name || $0.key.luaName == name }).map({ ($0.key, $0.value) }) {
    var out = "\(receiver): a lifesim \(kind.luaName) object\n"
    let methods = apiDocs.filter { $0.name.hasPrefix(receiver + ":") }
    if !methods.isEmpty {
      out += "methods:\n" + methods.map { "  \($0.usage)\n      \($0.summary)" }.joined(separator: "\n") + "\n"
    }
    if let fields = propertyNames[kind] { out += "fields: " + fields.joined(separator: ", ") + "\n" }
    return out
  }
  if name == "lifesim" {
    return "lifesim: the API table\n" + apiDocs.filter { $0.name.hasPrefix("lifesim.") }
      .map { "  \($0.name)  \($0.summary)" }.joined(separator: "\n") + "\n"
  }
  let short = apiDocs.filter { doc in
    doc.name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) == name
  }
  guard !short.isEmpty else { return nil }
  return short.map(render).joined(separator: "\n")
}

/// "no help for 'x'", with the nearest name when there is one.
public func apiHelpMiss(_ name: String) -> String {
  let short = apiDocs.compactMap { $0.name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) }
  let names = apiDocs.map(\.name) + short + receiverNames.values.sorted() + ["lifesim"]
  return "no help for '\(name)'" + suggestion(for: name, in: names)
}

private func render(_ doc: APIDoc) -> String { "\(doc.usage)\n  \(doc.summary)\n" }
