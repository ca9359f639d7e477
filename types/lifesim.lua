---@meta lifesim
-- lua-language-server definitions of lifesim's Lua API, made by `lifesim stubs`
-- from the same rows as docs/api.md. Do not edit: run `lifesim stubs -o FILE` again.

--- Every callback app:on takes.
---@alias lifesim.Callback
---| "application:willFinishLaunchingWithOptions:"
---| "application:didFinishLaunchingWithOptions:"
---| "applicationDidBecomeActive:"
---| "applicationWillResignActive:"
---| "applicationDidEnterBackground:"
---| "applicationWillEnterForeground:"
---| "applicationWillTerminate:"
---| "application:openURL:options:"
---| "application:openURL:sourceApplication:annotation:"
---| "applicationDidReceiveMemoryWarning:"
---| "application:configurationForConnectingSceneSession:options:"
---| "application:didDiscardSceneSessions:"
---| "scene:willConnectToSession:options:"
---| "sceneDidDisconnect:"
---| "sceneWillEnterForeground:"
---| "sceneDidBecomeActive:"
---| "sceneWillResignActive:"
---| "sceneDidEnterBackground:"
---| "scene:openURLContexts:"
---| "application:performFetchWithCompletionHandler:"
---| "application:didReceiveRemoteNotification:fetchCompletionHandler:"
---| "applicationProtectedDataWillBecomeUnavailable:"
---| "applicationProtectedDataDidBecomeAvailable:"
---| "initWithCoder:"
---| "awakeFromNib"
---| "initWithNibName:bundle:"
---| "loadView"
---| "viewDidLoad"
---| "viewWillAppear:"
---| "viewIsAppearing:"
---| "viewWillLayoutSubviews"
---| "viewDidLayoutSubviews"
---| "viewDidAppear:"
---| "viewWillDisappear:"
---| "viewDidDisappear:"
---| "didReceiveMemoryWarning"
---| "viewWillUnload"
---| "viewDidUnload"
---| "viewWillTransitionToSize:withTransitionCoordinator:"
---| "dealloc"
---| "initWithFrame:"
---| "willMoveToSuperview:"
---| "didMoveToSuperview"
---| "willMoveToWindow:"
---| "didMoveToWindow"
---| "layoutSubviews"
---| "drawRect:"
---| "userNotificationCenter:willPresentNotification:withCompletionHandler:"
---| "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"
---| "willMoveToParentViewController:"
---| "didMoveToParentViewController:"
---| "stateRestorationActivityForScene:"

--- Every notification app:observe takes.
---@alias lifesim.Notification
---| "UIApplicationDidFinishLaunchingNotification"
---| "UIApplicationDidBecomeActiveNotification"
---| "UIApplicationWillResignActiveNotification"
---| "UIApplicationDidEnterBackgroundNotification"
---| "UIApplicationWillEnterForegroundNotification"
---| "UIApplicationWillTerminateNotification"
---| "UIApplicationDidReceiveMemoryWarningNotification"
---| "UIApplicationProtectedDataWillBecomeUnavailable"
---| "UIApplicationProtectedDataDidBecomeAvailable"

---@class lifesim
---@field callbacks any Every selector lifesim models, for app:on.
---@field ios_versions any The iOS versions with a profile.
---@field quirks any The documented variants a device can select, each with what it changes.
---@field version any lifesim's version.
---@field workload lifesim.workloads
lifesim = {}

--- Makes a virtual device running an OS profile. Every key is optional; seed defaults to --seed.
--- `lifesim.device{ ios = 17, model = "iPhone 11", memory_mb = 4096, seed = 1, debugger = false, quirks = {…}, passcode = true, trace = true, background_gpu = false }`
---@param options table
---@return lifesim.Device
function lifesim.device(options) end

--- Fails with a diff unless the actual selectors are the expected ones: equal (exact), the expected in order with others between (subsequence), or each expected one present, in any order (contains).
--- `lifesim.expect_callbacks(actual, expected [, { order = "exact" | "subsequence" | "contains" }])`
---@param actual any
---@param expected? any
---@param options? table
function lifesim.expect_callbacks(actual, expected, options) end

--- A named test case. Under lifesim test it runs after its file has loaded, from the state the file left (each case on its own); skip does not run it, xfail expects it to fail.
--- `lifesim.test(name, [{ skip = "why", xfail = "why" },] function() … end)`
---@param name string
---@param options? table
---@param fn function
---@overload fun(name: string, fn: function)
function lifesim.test(name, options, fn) end

--- Inside a lifesim.test case: stops it, counted as skipped with the reason; at a file's top level, skips the file.
--- `lifesim.skip(reason)`
---@param reason string
function lifesim.skip(reason) end

--- Inside a lifesim.test case: stops it, counted as an expected failure with the reason.
--- `lifesim.xfail(reason)`
---@param reason string
function lifesim.xfail(reason) end

--- Declares a parameter grid for lifesim batch.
--- `return lifesim.experiment{ name, params = { k = {…} }, seeds = N, run = function(p, seed) … return { metric = n } end }`
---@param options table
---@return table
function lifesim.experiment(options) end

--- Fails unless the values are equal (tables compared key by key, raw), showing both; tables as a side-by-side diff.
--- `lifesim.expect_eq(actual, expected [, label])`
---@param actual any
---@param expected? any
---@param label? string
function lifesim.expect_eq(actual, expected, label) end

--- Fails unless the app (or scene) is in that state, naming the state it is in and the virtual time.
--- `lifesim.expect_state(app_or_scene, "suspended")`
---@param app_or_scene lifesim.App|lifesim.Scene|string
---@param kind string
function lifesim.expect_state(app_or_scene, kind) end

--- For lifesim explore: must hold after every step; false (and a message) or an error is a violation.
--- `lifesim.invariant(name, function(dev) return ok [, message] end)`
---@param name string
---@param fn fun(dev: lifesim.Device): any
function lifesim.invariant(name, fn) end

--- For lifesim explore: must hold in at least one explored state, or the search says it never got there.
--- `lifesim.reachable(name, function(dev) return true end)`
---@param name string
---@param fn fun(dev: lifesim.Device): any
function lifesim.reachable(name, fn) end

--- For lifesim explore: adds an action to the search's alphabet, or (false) leaves a default one out.
--- `lifesim.action(name, function(dev) … end | false)`
---@param name string
---@param fn fun(dev: lifesim.Device): any
function lifesim.action(name, fn) end

--- For lifesim explore: the app data that tells states apart, beside the engine's own state.
--- `lifesim.state_key(function(dev) return "…" end)`
---@param fn fun(dev: lifesim.Device): any
function lifesim.state_key(fn) end

--- Takes the steps on the first device, checking the invariants after each (what explore -o writes).
--- `lifesim.replay{ "launch com.example.notes", "home", … }`
---@param options table
function lifesim.replay(options) end

---@class lifesim.workloads
lifesim.workload = {}

--- A seeded user who switches between apps (Zipf popularity, exponential gaps); drive it with workload:drive(dev, { days = 7 }).
--- `lifesim.workload.user{ zipf = 1.1, switch_every = 180, … }`
---@param options table
---@return lifesim.Workload
function lifesim.workload.user(options) end

--- Recorded usage, rows { t = seconds, app = bundle, event = "open" }; drive it with workload:drive(dev).
--- `lifesim.workload.replay(rows)`
---@param rows table
---@return lifesim.Workload
function lifesim.workload.replay(rows) end

--- Reads an app-usage trace beside the script as rows { t, app, event }.
--- `lifesim.workload.read_csv("usage.csv")`
---@param kind string
---@return table[]
function lifesim.workload.read_csv(kind) end

---@class lifesim.Workload
local Workload = {}

--- Runs a workload on a device; returns what the user did ({ switches, locks, notifications }).
--- `workload:drive(dev [, { days =, hours =, minutes =, seconds = }])`
---@param dev? lifesim.Device
---@param options? table
---@return table
function Workload:drive(dev, options) end

---@class lifesim.Device
---@field now number The virtual time, in seconds.
---@field ios integer The iOS major version of the device's profile.
---@field seed integer The device's seed.
---@field trace lifesim.Trace The device's trace (trace:callbacks, trace:records, trace:text).
---@field apps lifesim.App[] The installed apps, in order of installation.
---@field frontmost lifesim.App? The app on screen, or nil.
---@field locked boolean Whether the device is locked.
---@field interruption string? The interruption showing ("call", …), or nil.
---@field switcher_open boolean Whether the app switcher is showing.
---@field memory_mb number The device's RAM in MB, or nil when memory is not modelled.
---@field per_process_limit_mb number The per-process memory limit in MB, or nil.
---@field model string? The device model's name, or nil.
---@field limit_measured boolean Whether the model's per-process limit was measured (reference §4), or is the default half of RAM; nil without a model.
---@field debugger boolean Whether a debugger is attached (watchdogs off).
---@field quirks string[] The quirks the device selected.
---@field profile table The profile's facts by name (reference §7), and its version.
---@field passcode boolean Whether the device has a passcode (protected data).
---@field background_gpu boolean Whether BGTaskScheduler.supportedResources holds .gpu (iOS 26): the model's fact (the iPads), or lifesim.device{ background_gpu = }.
---@field memory_used_mb number The memory the running processes use, in MB.
---@field memory_level string "normal", "warning" or "critical".
---@field stats table Counters kept with the trace on or off: opens, cold_opens, jetsam_kills, kills by reason, tasks (BGTaskScheduler), …
---@field records_trace boolean Whether the device keeps a trace (trace = false turns it off).
local Device = {}

--- Taps the app's icon: a cold launch, or a return to the foreground.
--- `dev:launch(app [, { url = "…" }])`
---@param app? lifesim.App|string
---@param options? table
function Device:launch(app, options) end

--- Opens a URL in the app, launching it if needed.
--- `dev:open_url(app, url)`
---@param app lifesim.App|string
---@param url string
function Device:open_url(app, url) end

--- Presses Home: the frontmost app goes to the background.
--- `dev:home()`
function Device:home() end

--- Locks the device.
--- `dev:lock()`
function Device:lock() end

--- Unlocks the device.
--- `dev:unlock()`
function Device:unlock() end

--- An interruption over the frontmost app (it resigns active; a call banner leaves it active).
--- `dev:interrupt("call" [, { style = "banner" | "full_screen" }] | "alert" | "control_center" | "notification_center" | "notification_center_peek" | "siri")`
---@param kind? string
---@param options? table
function Device:interrupt(kind, options) end

--- Ends the interruption; accepting a full-screen call sends the app to the background.
--- `dev:end_interrupt([{ accept = true }])`
---@param options? table
function Device:end_interrupt(options) end

--- Opens the app switcher.
--- `dev:switcher()`
function Device:switcher() end

--- Picks an app in the switcher.
--- `dev:switch_to(app)`
---@param app lifesim.App|string
function Device:switch_to(app) end

--- Force-quits the app from the switcher.
--- `dev:kill(app)`
---@param app lifesim.App|string
function Device:kill(app) end

--- Sends a memory warning, as Simulator's "Simulate Memory Warning".
--- `dev:memory_warning()`
function Device:memory_warning() end

--- Memory pressure from outside the apps: jetsam kills every suspended or background process, lowest band first.
--- `dev:memory_pressure()`
function Device:memory_pressure() end

--- A position in the trace, for since = m filters.
--- `local m = dev:mark()`
---@return integer
function Device:mark() end

--- A background fetch: launches or wakes the app in the background.
--- `dev:background_fetch(app)`
---@param app lifesim.App|string
function Device:background_fetch(app) end

--- A silent push: launches or wakes the app in the background.
--- `dev:silent_push(app)`
---@param app lifesim.App|string
function Device:silent_push(app) end

--- Rotates the device: a layout pass without appearance callbacks.
--- `dev:rotate()`
function Device:rotate() end

--- An answered call ends; iOS returns to the app a full-screen call interrupted.
--- `dev:end_call()`
function Device:end_call() end

--- The user taps the app's notification (a banner or a Notification Center entry).
--- `dev:open_notification(app [, { remote = true }])`
---@param app? lifesim.App|string
---@param options? table
function Device:open_notification(app, options) end

--- A notification of the app arrives; in front, the app may present it.
--- `dev:notify(app [, { remote = true }])`
---@param app? lifesim.App|string
---@param options? table
function Device:notify(app, options) end

--- iOS 15+: the system starts the app's process before any tap; the launch methods run, no scene connects.
--- `dev:prewarm(app)`
---@param app lifesim.App|string
function Device:prewarm(app) end

--- iOS 16+: Shortcuts or Siri runs an App Intent; without opens_app the app runs in the background with no scene.
--- `dev:run_intent(app, { name = "…", opens_app = false })`
---@param app lifesim.App|string
---@param options table
function Device:run_intent(app, options) end

--- A pending BGTaskScheduler request runs now, as the debugger's _simulateLaunchForTaskWithIdentifier: does.
--- `dev:run_task(app, id)`
---@param app lifesim.App|string
---@param id string
function Device:run_task(app, id) end

--- A running BGTaskScheduler task expires now, as the debugger's _simulateExpirationForTaskWithIdentifier: does.
--- `dev:expire_task(app, id)`
---@param app lifesim.App|string
---@param id string
function Device:expire_task(app, id) end

--- The device is on external power, or not (what processing tasks may require).
--- `dev:charging(true | false)`
---@param on boolean
function Device:charging(on) end

--- The device has a network connection, or not (what processing tasks may require).
--- `dev:network(true | false)`
---@param on boolean
function Device:network(on) end

--- iOS 26: the user cancels a continued processing task in its Live Activity; its expiration handler runs (one waiting in the queue is dropped).
--- `dev:cancel_task(app, id)`
---@param app lifesim.App|string
---@param id string
function Device:cancel_task(app, id) end

--- Turns Background App Refresh on or off in Settings, for the device or for one app.
--- `dev:background_refresh([app,] true | false)`
---@param app? lifesim.App|string
---@param on boolean
---@overload fun(on: boolean)
function Device:background_refresh(app, on) end

--- Turns Low Power Mode on or off: it turns Background App Refresh off.
--- `dev:low_power_mode(true | false)`
---@param on boolean
function Device:low_power_mode(on) end

--- Installs an app and returns it. Only bundle is required.
--- `dev:install{ bundle = "com.example.notes", scenes =, footprint_mb =, background_modes = {…}, background_tasks = {…}, background_gpu =, exits_on_suspend =, root = { class =, from = } }`
---@param options table
---@return lifesim.App
function Device:install(options) end

--- Runs the virtual clock forward, firing everything due.
--- `dev:advance(seconds)`
---@param seconds number
function Device:advance(seconds) end

--- Schedules a function at an absolute virtual time.
--- `dev:at(seconds, function() … end)`
---@param seconds number
---@param fn function
function Device:at(seconds, fn) end

--- Schedules a function after a delay.
--- `dev:after(seconds, function() … end)`
---@param seconds number
---@param fn function
function Device:after(seconds, fn) end

--- Runs until nothing is scheduled (bounded by --max-time).
--- `dev:run()`
function Device:run() end

--- The installed app with that bundle id, or nil.
--- `dev:app(bundle)`
---@param bundle string
---@return lifesim.App?
function Device:app(bundle) end

--- Writes a log record into the trace.
--- `dev:log(message)`
---@param message string
function Device:log(message) end

--- Changes the named OS policies and keeps the others; dev:policy() returns those in force.
--- `dev:policy{ background_time =, watchdog = {…}, memory_warning_at =, jetsam_at =, choose_victim = fn, task_scheduler = fn, continued_tasks = n }`
---@param options table
function Device:policy(options) end

---@class lifesim.App
---@field bundle string The bundle id.
---@field state string What the app has been told: "notRunning", "inactive", "active", "background" or "suspended".
---@field system_state string What the system has decided for the app: its state, or where the requests that wait for its busy main thread lead (ctx:work).
---@field pid integer The process id while it runs, else nil.
---@field launches integer How many times a process was started.
---@field running boolean Whether a process exists (suspended counts).
---@field model string "scene" or "app_delegate".
---@field scenes lifesim.Scene[] The open scene sessions, connected or not, in order of creation.
---@field footprint_mb number The memory footprint in MB (the installed size while not running).
---@field exits_on_suspend boolean UIApplicationExitsOnSuspend.
---@field background_modes string[] The background modes it declares.
---@field background_gpu boolean Whether it has the Background GPU Access entitlement (dev:install's background_gpu).
---@field background_time_remaining number? backgroundTimeRemaining, in seconds.
---@field background_refresh_status string backgroundRefreshStatus: "available", or "denied" while Background App Refresh is off for it, for the device or in Low Power Mode.
---@field unsaved integer Unsaved changes that a death would lose.
---@field playing_audio boolean Whether it plays audio.
---@field band string Its jetsam priority band.
---@field tasks lifesim.Task[] Its open background tasks.
---@field top lifesim.ViewController? The view controller on top of its focus window, or nil.
---@field stack lifesim.ViewController[] The navigation stack of its focus window.
---@field presented lifesim.ViewController? The view controllers presented in its focus window.
local App = {}

--- Handles a callback of the app, its scenes, view controllers and views.
--- `app:on("selector" | "*", function(ctx) … end)`
---@param selector lifesim.Callback|"*"
---@param fn fun(ctx: lifesim.Context)
function App:on(selector, fn) end

--- Observes a notification the app receives.
--- `app:observe("UIApplication…Notification", function(ctx) … end)`
---@param notification lifesim.Notification
---@param fn fun(ctx: lifesim.Context)
function App:observe(notification, fn) end

--- Opens another window (scene apps); beside = true keeps the first on screen next to it (iPads).
--- `local s = app:open_scene([{ beside = true }])`
---@param options? table
---@return lifesim.Scene
function App:open_scene(options) end

--- Pushes a view controller onto the navigation stack.
--- `app:push{ class =, from = "storyboard" | "xib" | "code", on = { … } }`
---@param options table
function App:push(options) end

--- Pops the top view controller.
--- `app:pop()`
function App:pop() end

--- An interactive pop, finished or cancelled half way.
--- `app:pop_gesture{ cancel = true | false }`
---@param options table
function App:pop_gesture(options) end

--- Presents a view controller modally; the default style depends on the profile.
--- `app:present(spec [, { style = "fullScreen" | "pageSheet" | "formSheet" | "overFullScreen" }])`
---@param spec? table
---@param options? table
function App:present(spec, options) end

--- Dismisses the presented view controller.
--- `app:dismiss()`
function App:dismiss() end

--- An interactive sheet dismissal, finished or cancelled.
--- `app:dismiss_gesture{ cancel = true | false }`
---@param options table
function App:dismiss_gesture(options) end

--- Registers the launch handler of a BGTaskScheduler task: outside any handler, the app's code registers it at every launch; in a launch method's handler, this process only; anywhere else it is late, as iOS says.
--- `app:register_task(id, function(ctx, task) … end)`
---@param id string
---@param fn fun(ctx: lifesim.Context, task: lifesim.BGTask)
function App:register_task(id, fn) end

--- ctx:submit_task from the script outside any handler: the app's code submits the request, as an earlier process did when the app does not run.
--- `app:submit_task{ id =, kind =, … }`
---@param options table
function App:submit_task(options) end

---@class lifesim.Trace
---@field count integer How many records the device has made.
local Trace = {}

--- The selectors delivered, in order; every filter is optional.
--- `dev.trace:callbacks{ app =, since =, vc = }`
---@param options table
---@return string[]
function Trace:callbacks(options) end

--- The records as tables with the JSONL field names.
--- `dev.trace:records{ app =, kind =, since = }`
---@param options table
---@return table[]
function Trace:records(options) end

--- The trace as one string.
--- `dev.trace:text{ since =, format = "text" | "jsonl" | "chrome" }`
---@param options table
---@return string
function Trace:text(options) end

---@class lifesim.Context
---@field app lifesim.App The app whose code runs, or nil in a dev:at function.
---@field callback string The selector, notification name, or "timer".
---@field now number The virtual time, in seconds.
---@field options table The launch options: { url = … }.
---@field scene lifesim.Scene? The scene, for scene callbacks.
---@field vc lifesim.ViewController? The view controller, for its callbacks.
---@field view lifesim.View? The view, for its callbacks.
---@field environment table The process environment: { ActivePrewarm = "1" } during an iOS 15 prewarm.
---@field protected_data_available boolean UIApplication.isProtectedDataAvailable: false while the device is locked with a passcode.
local Context = {}

--- The handler takes that long while the device goes on: kills and watchdogs act meanwhile, and what the app is told waits (docs/reference.md §3.8).
--- `ctx:work(seconds)`
---@param seconds number
function Context:work(seconds) end

--- An app timer; it does not fire while the app is suspended.
--- `ctx:after(seconds, function(ctx) … end)`
---@param seconds number
---@param fn fun(ctx: lifesim.Context)
function Context:after(seconds, fn) end

--- Asks for background time.
--- `local task = ctx:begin_background_task(name [, on_expire])`
---@param name? string
---@param on_expire? fun()
---@return lifesim.Task
function Context:begin_background_task(name, on_expire) end

--- Starts or stops audio (needs the audio background mode).
--- `ctx:play_audio(true | false)`
---@param on boolean
function Context:play_audio(on) end

--- The app's footprint grows by mb.
--- `ctx:allocate(mb)`
---@param mb number
function Context:allocate(mb) end

--- The app's footprint shrinks by mb.
--- `ctx:release(mb)`
---@param mb number
function Context:release(mb) end

--- The user made n unsaved changes (lost if the process dies).
--- `ctx:dirty([n])`
---@param n? number
function Context:dirty(n) end

--- Saves the unsaved changes, taking s seconds.
--- `ctx:save([{ seconds = s }])`
---@param options? table
function Context:save(options) end

--- Takes a lock on a shared file (an SQLite database in an App Group): suspended while holding it, the app is killed with 0xdead10cc.
--- `ctx:lock_file(name)`
---@param name string
function Context:lock_file(name) end

--- Lets go of a lock ctx:lock_file took.
--- `ctx:unlock_file(name)`
---@param name string
function Context:unlock_file(name) end

--- A background launch's work is done (its completion handler).
--- `ctx:complete()`
function Context:complete() end

--- Submits a BGTaskScheduler request (earliest: seconds from now); it replaces a pending request of its id. A continued request (iOS 26, from the foreground, with a title and subtitle) runs at once, or waits in the queue (strategy "fail" refuses it instead) while the most continued tasks the system runs at once run; requires_gpu needs the app's background_gpu and a device that supports it. A refusal is the error iOS gives.
--- `ctx:submit_task{ id =, kind = "refresh" | "processing" | "continued", earliest = 0, requires_power = false, requires_network = false, title =, subtitle =, strategy = "queue" | "fail", requires_gpu = false }`
---@param options table
function Context:submit_task(options) end

--- Cancels a pending request; a running task goes on.
--- `ctx:cancel_task(id)`
---@param id string
function Context:cancel_task(id) end

--- Cancels every pending request of the app.
--- `ctx:cancel_all_tasks()`
function Context:cancel_all_tasks() end

--- The pending requests, as getPendingTaskRequests gives them: each { id =, kind =, earliest = (time) }, and a continued request waiting in the queue with its title.
--- `ctx:pending_tasks()`
---@return table[]
function Context:pending_tasks() end

---@class lifesim.Scene
---@field id integer The session's number, from 1.
---@field app lifesim.App Its app.
---@field state string Its state, or "unattached" while disconnected or closed.
---@field connected boolean Whether a scene is connected to the session.
---@field closed boolean Whether the session was discarded.
---@field state_restoration_activity any The session's restoration activity: the table stateRestorationActivityForScene: last returned, or nil.
local Scene = {}

--- The user closes the window: disconnect, then discard.
--- `scene:close()`
function Scene:close() end

--- The system reclaims a background scene; it reconnects later.
--- `scene:disconnect()`
function Scene:disconnect() end

---@class lifesim.Task
---@field id integer The task's id, unique on the device.
---@field name string The name it was begun with.
---@field app lifesim.App Its app.
---@field open boolean Whether it has not ended.
---@field expired boolean Whether its expiration handler ran.
local Task = {}

--- Ends the background task (endBackgroundTask:).
--- `task:finish()`
function Task:finish() end

---@class lifesim.ViewController
---@field parent lifesim.ViewController? Its container, for a child view controller; else nil.
---@field children lifesim.ViewController[] Its child view controllers, in the order they were added.
---@field class string Its class name.
---@field instance integer Which instance of its class it is, from 1.
---@field from string "storyboard", "xib" or "code".
---@field app lifesim.App Its app.
---@field state string Its appearance state.
---@field view_loaded boolean isViewLoaded.
---@field in_window boolean Whether its view is in a window.
---@field empty_view boolean Whether an overridden loadView left it without the nib's view.
---@field presentation any "stack", or the modal style it was presented with.
---@field views lifesim.View[] The views added to its view.
local ViewController = {}

--- Adds a view to the view controller's view.
--- `vc:add_view{ class =, from = "code" | "xib" }`
---@param options table
---@return lifesim.View
function ViewController:add_view(options) end

--- Loads the view if it is not loaded (loadViewIfNeeded).
--- `vc:load_view()`
function ViewController:load_view() end

--- Adds a child view controller and its view (containment); it appears if the parent is on screen.
--- `vc:add_child{ class =, from =, on = }`
---@param options table
---@return lifesim.ViewController
function ViewController:add_child(options) end

--- Removes a child view controller from its container; it disappears and is deallocated.
--- `vc:remove_from_parent()`
function ViewController:remove_from_parent() end

---@class lifesim.View
---@field class string Its class name.
---@field instance integer Which instance of its class it is, from 1.
---@field from string "xib" or "code".
---@field app lifesim.App Its app.
---@field vc lifesim.ViewController? The view controller whose view holds it.
---@field superview lifesim.View? Its superview, or nil for a direct subview of the view controller's view.
---@field views lifesim.View[] Its subviews.
---@field in_window boolean Whether it is in a window.
---@field removed boolean Whether it was removed (and deallocated).
local View = {}

--- Adds a subview.
--- `view:add_view{ class =, from = "code" | "xib" }`
---@param options table
---@return lifesim.View
function View:add_view(options) end

--- Removes the view from its superview.
--- `view:remove()`
function View:remove() end

---@class lifesim.BGTask
---@field id string The task's identifier.
---@field kind string "refresh", "processing" or "continued".
---@field running boolean Whether it has not completed (and its process lives).
---@field expired boolean Whether its time ran out (its expiration handler was called), also after it ended.
---@field on_expire fun()? The expiration handler, `task.on_expire = function(ctx, task) … end`: called when the task's time runs out; it has a few seconds to call task:complete, and without one the task is marked complete and unsuccessful.
local BGTask = {}

--- setTaskCompleted(success:): the task ends, and the app is suspended once nothing else holds it.
--- `task:complete(success)`
---@param success boolean
function BGTask:complete(success) end

--- A continued task reports its progress (0 to 1); one that reports none for 60 s is expired as stalled.
--- `task:progress(fraction)`
---@param fraction number
function BGTask:progress(fraction) end

