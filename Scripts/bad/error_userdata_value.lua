-- Attacks the error reporter with a lifesim object as the error value.
-- expect-error: error object is a device: <device iOS 17, 0 apps, t=0.000000>
error(lifesim.device{ ios = 17 })
