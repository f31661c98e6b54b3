"""The table around the engine: the session that keeps the open game, and what turns devices into its
inputs (the rig, the camera watcher, the dice view, the calibration, the empty-tray reference)."""
