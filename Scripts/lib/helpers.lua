-- Small shared helpers for the lifecycle scenarios: setting up a device and reading the trace.
local M = {}

-- A device with one app installed; `app_options` extends the defaults.
function M.device_with_app(device_options, app_options)
  local dev = lifesim.device(device_options)
  local config = { bundle = "com.example.notes" }
  for key, value in pairs(app_options or {}) do config[key] = value end
  return dev, dev:install(config)
end

-- The same, with the app launched and active.
function M.launched(device_options, app_options)
  local dev, app = M.device_with_app(device_options, app_options)
  dev:launch(app)
  assert(app.state == "active", "set-up: the app should be active after launch, got " .. app.state)
  return dev, app
end

-- The selectors of `callbacks` that appear in `keep`, in their original order
-- (a trace restricted to the methods an app implements).
function M.only(callbacks, keep)
  local wanted = {}
  for _, selector in ipairs(keep) do wanted[selector] = true end
  local kept = {}
  for _, selector in ipairs(callbacks) do
    if wanted[selector] then kept[#kept + 1] = selector end
  end
  return kept
end

-- Callbacks and notifications of `app` since mark `since`, interleaved in trace order.
function M.callbacks_and_notifications(dev, app, since)
  local names = {}
  for _, record in ipairs(dev.trace:records{ app = app, since = since }) do
    if record.kind == "callback" or record.kind == "notification" then
      names[#names + 1] = record.callback
    end
  end
  return names
end

-- The records of `app` since `since`, each written as "kind" or "kind:detail",
-- where the detail is the selector, the notification or "from->to".
function M.record_summary(dev, app, since)
  local lines = {}
  for _, record in ipairs(dev.trace:records{ app = app, since = since }) do
    local line = record.kind
    if record.callback then
      line = line .. ":" .. record.callback
    elseif record.from then
      line = line .. ":" .. record.from .. "->" .. record.to
    end
    lines[#lines + 1] = line
  end
  return lines
end

-- A device on iOS `ios` with one app whose root view controller is of class
-- `root` (made in code), launched.
function M.with_root(ios, root)
  local dev = lifesim.device{ ios = ios }
  local app = dev:install{ bundle = "com.example.notes", root = { class = root or "Root" } }
  dev:launch(app)
  return dev, app
end

-- The callbacks since `since`, each "Class selector" for view controllers and
-- views and the bare selector for delegates (those only with `delegates`).
function M.object_calls(dev, since, delegates)
  local out = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = since }) do
    local class = r.view or r.vc
    if class then
      out[#out + 1] = class .. " " .. r.callback
    elseif delegates then
      out[#out + 1] = r.callback
    end
  end
  return out
end

-- How many times `item` occurs in `list`.
function M.count(list, item)
  local n = 0
  for _, x in ipairs(list) do if x == item then n = n + 1 end end
  return n
end

-- The message of the error `f` raises, without its position (it fails the
-- test when `f` raises none).
function M.error_of(f)
  local ok, err = pcall(f)
  assert(not ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

return M
