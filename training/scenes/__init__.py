"""A physically based generator of dice trays (issue 58): scenes described from a seed (pure numpy,
``describe.py``), built into Mitsuba 3 scenes (``build.py``) and rendered with labels taken from the
scene itself. Training only: the daemon never imports ``training``.

    .venv/bin/python -m training.scenes --count 500 --seed 1 --out /tmp/trays
"""
