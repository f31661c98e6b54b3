"""``python -m companion``: the same as the ``companion`` command (the daemon starts its retraining so)."""

from companion.cli import main

raise SystemExit(main())
