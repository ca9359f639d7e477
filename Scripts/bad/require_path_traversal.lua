-- Attacks require by naming a module outside the script's folder.
-- expect-error: invalid module name '../../../../etc/passwd'
require "../../../../etc/passwd"
