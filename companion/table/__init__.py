"""The table around the engine: the session that keeps the open game, and what turns devices into its
inputs (the rig and its parts: devices, controls, readings, the table's dice, teaching; the camera
watcher, the dice view, the calibration, the empty-tray reference)."""
